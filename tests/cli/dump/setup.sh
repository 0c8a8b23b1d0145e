# SPDX-License-Identifier: MIT
# fxt dump --json against the dump contract (../shared/contracts/dump-jsonl.md).
# The reader corpus's trace of every record kind is dumped once here; the cases
# examine le.jsonl (exit status in le.rc).
record le "$FXT" dump --json "$SRC/fuzz/corpus/reader/all_records_le.fxt" > le.jsonl
