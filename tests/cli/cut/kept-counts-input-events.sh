# SPDX-License-Identifier: MIT
# The summary's counts add up: "kept N" counts the input's events written, "closed M" the
# ends cut invented (durations, async and flow chains) at the window's end, so the output
# holds N + M events (before: a duration closed at the window's end counted in both).
"$FXT" synth --seed 5 --events 4000 -o "$T/s.fxt"
for j in 1 3; do
  FXT_RANGE_BYTES=4096 "$FXT" cut -j $j --from 1ms --to 3ms "$T/s.fxt" -o "$T/c.fxt" 2> "$T/err"
  kept=$(sed -n 's/.*kept \([0-9]*\) events.*/\1/p' "$T/err")
  closed=$(sed -n 's/.*closed \([0-9]*\) .*/\1/p' "$T/err")
  [ "$closed" -gt 0 ] || fail "nothing closed: the case needs a window that cuts pairs: $(cat "$T/err")"
  events=$("$FXT" dump "$T/c.fxt" | grep -c ' event ')
  expect_eq "-j $j: kept + closed" $((kept + closed)) "$events"
done
