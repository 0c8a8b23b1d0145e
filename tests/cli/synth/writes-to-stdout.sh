# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# Without -o, the trace goes to standard output.
"$FXT" synth --events 100 > "$T/stdout.fxt"
n=$("$FXT" dump --json "$T/stdout.fxt" | jq -r 'select(.kind=="event") | .kind' | wc -l)
[ "$n" -ge 100 ] || fail "$n events, expected at least 100"
