# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# A big-endian trace converts exactly like the same trace little-endian.
"$FXT" synth --big-endian --all-records --events 3000 -o "$T/be.fxt"
"$FXT" synth --all-records --events 3000 -o "$T/le.fxt"
"$FXT" json "$T/be.fxt" > "$T/be.json" 2> /dev/null
"$FXT" json "$T/le.fxt" > "$T/le.json" 2> /dev/null
cmp "$T/le.json" "$T/be.json" || fail "JSON differs"
jq -e '.traceEvents | length > 100' "$T/be.json" > /dev/null || fail "not over 100 trace events"
