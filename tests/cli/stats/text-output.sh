# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3
# Text output: exit 0, the dropped-record report and the thread names.
"$FXT" stats known.fxt > "$T/known.txt"
cat "$T/known.txt"
grep -q "DROPPED RECORDS: buffer full 1 times" "$T/known.txt" || fail "no dropped-record report"
grep -q "thread  11 (process 10): main" "$T/known.txt" || fail "no line naming thread 11"
