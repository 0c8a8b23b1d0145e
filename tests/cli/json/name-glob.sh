# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# --name takes a glob: only (and over 10) events named Poll*.
"$FXT" json --name "Poll*" --category "*" s.fxt > "$T/poll.json" 2> /dev/null
expect_eq "all names start with Poll" "$(jq -r '[.traceEvents[] | select(.ph != "M") | .name | startswith("Poll")] | all' "$T/poll.json")" true
n=$(jq '[.traceEvents[] | select(.ph != "M")] | length' "$T/poll.json")
[ "$n" -gt 10 ] || fail "$n events, expected more than 10"
