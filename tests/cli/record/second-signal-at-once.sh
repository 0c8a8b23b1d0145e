# SPDX-License-Identifier: MIT
# A second SIGTERM (or SIGINT) to fxt record stops at once: the archive is written, a CMD
# that ignores SIGTERM is killed, and fxt record does not wait the 5 s it gives CMD after
# a --duration stop. A signal during that wait cuts it short too.
ms() { echo $(($(date +%s%N) / 1000000)); }
# CMD ignores SIGTERM and SIGINT (so do its children: ignored signals survive exec)
"$FXT" record -o "$T/a.fxt" -- sh -c 'trap "" TERM INT; echo ready; while :; do sleep 0.05; done' \
  > "$T/ready" 2> "$T/err" &
rec=$!
while ! grep -q ready "$T/ready"; do sleep 0.01; done
kill -TERM $rec
sleep 0.3
t0=$(ms)
kill -TERM $rec
rc=0
wait $rec || rc=$?
took=$(($(ms) - t0))
[ $took -lt 1500 ] || fail "a second SIGTERM took $took ms to stop fxt record"
expect_eq "exit status (CMD killed)" $rc 137
grep -q "total: 0 processes" "$T/err" || fail "summary: $(cat "$T/err")"
[ -s "$T/a.fxt" ] || fail "no archive"
# --duration stops; CMD ignores the SIGTERM that follows; a signal ends the wait for it
"$FXT" record --duration 0.2 -o "$T/b.fxt" -- sh -c 'trap "" TERM INT; while :; do sleep 0.05; done' \
  2> "$T/err" &
rec=$!
sleep 0.8
t0=$(ms)
kill -INT $rec
rc=0
wait $rec || rc=$?
took=$(($(ms) - t0))
[ $took -lt 1500 ] || fail "a signal while CMD is given its 5 s took $took ms"
expect_eq "exit status (CMD killed)" $rc 137
