# SPDX-License-Identifier: MIT
# --duration T: a bare number is seconds, as for timeout(1) (it was nanoseconds: 8 stopped at
# once with an empty archive); ns/us/ms/s/m/h units; a malformed or zero value is a usage error.
ms() { echo $(($(date +%s%N) / 1000000)); }
t0=$(ms)
"$FXT" record --attach --duration 1 -o "$T/a.fxt" 2> "$T/err" || fail "attach: $(cat "$T/err")"
took=$(($(ms) - t0))
[ $took -ge 1000 ] || fail "--duration 1 took $took ms (not 1 s)"
[ $took -lt 4000 ] || fail "--duration 1 took $took ms"
t0=$(ms)
"$FXT" record --attach --duration 0.3 -o "$T/b.fxt" 2> "$T/err" || fail "attach: $(cat "$T/err")"
took=$(($(ms) - t0))
[ $took -ge 300 ] && [ $took -lt 3000 ] || fail "--duration 0.3 took $took ms"
t0=$(ms)
"$FXT" record --attach --duration=250ms -o "$T/c.fxt" 2> "$T/err" || fail "attach: $(cat "$T/err")"
took=$(($(ms) - t0))
[ $took -ge 250 ] && [ $took -lt 3000 ] || fail "--duration=250ms took $took ms"
# long units parse (CMD ends first: every value is long enough for `true` on a loaded machine)
for d in 2m 1h 1.5s 100000000000ns 50000000us; do
  "$FXT" record --duration $d -o "$T/d.fxt" -- true 2> "$T/err" || fail "--duration $d: $(cat "$T/err")"
done
for d in 0 0s 2x s -1 1.5.2; do
  rc=0
  "$FXT" record --duration "$d" -o "$T/e.fxt" -- true 2> "$T/err" || rc=$?
  expect_eq "--duration $d: exit status" $rc 2
  grep -q "duration" "$T/err" || fail "--duration $d: $(cat "$T/err")"
done
"$FXT" help record > "$T/help"
grep -q "bare number is seconds" "$T/help" || fail "help does not say the unit: $(grep -A2 duration "$T/help")"
