# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# "-" reads the trace from standard input, with the same output.
"$FXT" dump --json - < "$SRC/fuzz/corpus/reader/all_records_le.fxt" > "$T/stdin.jsonl"
cmp le.jsonl "$T/stdin.jsonl" || fail "dump of stdin differs"
