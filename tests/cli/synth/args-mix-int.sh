# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# --args-mix int: no string, bool or pointer arguments on events other than
# counters, and int32 arguments aplenty.
"$FXT" synth --events 3000 --args 6 --args-mix int -o "$T/int.fxt"
"$FXT" dump --json "$T/int.fxt" > "$T/int.jsonl"
expect_eq "string, bool or pointer arguments" \
  "$(jq -c 'select(.kind=="event" and .event!="counter") | select(.args) | .args[] | select(.type=="string" or .type=="bool" or .type=="pointer")' "$T/int.jsonl")" ""
n=$(jq -r 'select(.kind=="event") | select(.args) | .args[].type' "$T/int.jsonl" | grep -c int32)
[ "$n" -gt 100 ] || fail "$n int32 arguments, expected more than 100"
