# SPDX-License-Identifier: MIT
# needs: python3
# --snapshot-on-signal USR1: a snapshot while CMD runs (here: done emitting, waiting),
# holding all of its events (oneshot), with an fxt/trigger instant of reason signal.
"$FXT" record --snapshot-on-signal USR1 -o "$T/s-%n.fxt" -- "$PROG" emit 500 2 hang > "$T/out" 2> "$T/err" &
rec=$!
for _ in $(seq 100); do grep -q ready "$T/out" && break; sleep 0.05; done
grep -q ready "$T/out" || fail "the program did not start"
kill -USR1 $rec
for _ in $(seq 100); do [ -e "$T/s-1.fxt" ] && break; sleep 0.05; done
kill -TERM $rec
wait $rec || true
[ -e "$T/s-1.fxt" ] || fail "no snapshot: $(cat "$T/err")"
snap_check "$T/s-1.fxt" signal -1 0
expect_eq "events" "$(grep -c '"name":"ev"' "$T/s-1.fxt.jsonl")" 1000
grep -q "snapshot 1 (signal [0-9]* (" "$T/err" || fail "summary: $(cat "$T/err")"
check_clean "$T/s-final.fxt"
