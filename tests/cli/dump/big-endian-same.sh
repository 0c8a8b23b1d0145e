# SPDX-License-Identifier: MIT
# The big-endian copy of the trace dumps exactly like the little-endian one.
"$FXT" dump --json "$SRC/fuzz/corpus/reader/all_records_be.fxt" > "$T/be.jsonl"
cmp le.jsonl "$T/be.jsonl" || fail "big-endian dump differs"
