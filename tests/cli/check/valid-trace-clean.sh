# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3
# A valid hand-built trace (every event type, kernel objects, a log): exit 0,
# only the summary line, 0 errors and 0 warnings.
rc=0
"$FXT" check valid.fxt > "$T/valid.out" || rc=$?
cat "$T/valid.out"
expect_eq "exit status" $rc 0
expect_eq "lines printed" "$(wc -l < "$T/valid.out")" 1
grep -q "0 errors, 0 warnings" "$T/valid.out" || fail "summary does not say 0 errors, 0 warnings"
