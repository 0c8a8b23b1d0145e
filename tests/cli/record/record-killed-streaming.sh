# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3
# fxt record itself killed with SIGKILL in streaming mode, the program still
# running: what was already written stays readable (whole records, every
# drained chunk decodes) and holds the program's first events.
"$FXT" record --mode streaming --buffer-size 256k -o "$T/a.fxt" -- "$PROG" emit 20000 2 hang > "$T/ready" 2> "$T/err" &
rec=$!
while ! grep -q ready "$T/ready"; do sleep 0.01; done
sleep 0.2 # the manager polls every 20 ms: full chunks are drained by now
kill -9 $rec
wait $rec || true
kill -9 "$(cut -d' ' -f2 "$T/ready")"
check_clean "$T/a.fxt"
n=$("$FXT" dump --json "$T/a.fxt" | grep -c '"name":"ev"')
[ "$n" -gt 1000 ] || fail "only $n events readable"
