# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# --time-range @FROM:TO is absolute (ticks in ns at 2 ticks/ns: 1.5..4 us).
"$FXT" json --time-range @3000:3500 --no-system-events sys.fxt > "$T/abs.json" 2> /dev/null
expect_eq "ts" "$(jq -c '[.traceEvents[] | .ts]' "$T/abs.json")" '[3,3.5]'
