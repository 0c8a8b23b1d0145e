# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# Text mode: one line per record, each with its offset.
"$FXT" dump "$SRC/fuzz/corpus/reader/all_records_le.fxt" > "$T/text.txt"
expect_eq "lines" "$(wc -l < "$T/text.txt")" 36
grep -q '^       120  \[p7\] event instant ts=4096' "$T/text.txt" || fail "no line for the instant at offset 120"
