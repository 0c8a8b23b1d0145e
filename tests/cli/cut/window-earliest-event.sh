# SPDX-License-Identifier: MIT
# needs: jq
# A relative window counts from the trace's earliest event (stats' first_ns), not from the
# first event in the file: in a merge whose first input starts 50 ms after the second, --to
# 1ms keeps the first millisecond of the second input (before: 50 ms of events, the second
# input's clamped to 0), at -j 1 and -j 3 alike, and from standard input too.
"$FXT" synth --seed 1 --events 3000 -o "$T/a.fxt"
"$FXT" synth --seed 2 --events 3000 -o "$T/b.fxt"
"$FXT" merge "$T/a.fxt" "$T/b.fxt" --offset "$T/a.fxt=50000000" -o "$T/m.fxt" 2> /dev/null
first=$("$FXT" stats --json "$T/m.fxt" | jq .first_ns)
# the first event in file order is a's, 50 ms later
fileorder=$("$FXT" dump --json "$T/m.fxt" | jq -s '[.[] | select(.kind=="event")][0].ts')
[ "$fileorder" -gt $((first + 40000000)) ] || fail "the input does not start late: $fileorder vs $first"
# the events of the input in [first, first + 1 ms] (all at 1 tick = 1 ns)
want=$("$FXT" dump --json "$T/m.fxt" | jq -s --argjson lo "$first" --argjson hi $((first + 1000000)) \
  '[.[] | select(.kind=="event" and .ts >= $lo and .ts <= $hi)] | length')
[ "$want" -gt 10 ] || fail "too few events in the first ms: $want"
for j in 1 3; do
  FXT_RANGE_BYTES=4096 "$FXT" cut -j $j --to 1ms "$T/m.fxt" -o "$T/c$j.fxt" 2> "$T/c$j.err"
  expect_eq "-j $j first_ns" "$("$FXT" stats --json "$T/c$j.fxt" | jq .first_ns)" "$first"
  last=$("$FXT" stats --json "$T/c$j.fxt" | jq .last_ns)
  [ "$last" -le $((first + 1000000)) ] || fail "-j $j: kept an event at $last, past first + 1 ms ($((first + 1000000)))"
  # every input event of the window is kept (closing ends added at the window's end aside)
  got=$("$FXT" dump --json "$T/c$j.fxt" | jq -s --argjson hi $((first + 1000000)) \
    '[.[] | select(.kind=="event" and .ts < $hi)] | length')
  [ "$got" -ge "$want" ] || [ "$got" -ge $((want - 1)) ] || fail "-j $j: kept $got events of the window's $want"
done
cmp -s "$T/c1.fxt" "$T/c3.fxt" || fail "-j 3 wrote another trace than -j 1"
"$FXT" cut --to 1ms - -o "$T/stdin.fxt" < "$T/m.fxt" 2> /dev/null
cmp -s "$T/c1.fxt" "$T/stdin.fxt" || fail "from standard input: another trace"
# --from: the window [first + 50 ms, first + 50.5 ms] holds a's first events, none of them clamped
"$FXT" cut --from 50ms --to 50.5ms "$T/m.fxt" -o "$T/late.fxt" 2> /dev/null
lo=$("$FXT" stats --json "$T/late.fxt" | jq .first_ns)
[ "$lo" -ge $((first + 50000000)) ] || fail "--from 50ms kept an event at $lo, before first + 50 ms"
