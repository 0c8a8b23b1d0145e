# SPDX-License-Identifier: MIT
# needs: python3
# check keeps only open chains (issue 25.15): 5000 flows begun and ended in
# order never have more than one open; FXT_CHECK_STATS=1 prints the peak.
FXT_CHECK_STATS=1 "$FXT" check many-ids.fxt > "$T/out" 2> "$T/err"
grep -q '0 errors, 0 warnings' "$T/out" || fail "not clean: $(cat "$T/out")"
expect_eq "stats line" "$(grep -o 'peak open chains [0-9]*' "$T/err")" "peak open chains 1"
