# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# The big-endian copy of the trace dumps exactly like the little-endian one.
"$FXT" dump --json "$SRC/fuzz/corpus/reader/all_records_be.fxt" > "$T/be.jsonl"
cmp le.jsonl "$T/be.jsonl" || fail "big-endian dump differs"
