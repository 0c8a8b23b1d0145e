# SPDX-License-Identifier: MIT
# needs: python3 jq
# A relative --time-range counts from the trace's earliest event (stats'
# first_ns), not from the first event in the file: here the file's first event
# (a thread whose chunk was written first) is 4 us after the earliest. Earlier
# events are not clamped to 0. From a pipe, as in `fxt cut`, the input is
# copied to a temporary file first so it can be read twice (before: a usage
# error). --time-base=trace-start counts from the same earliest event (before:
# the first timestamp read, 4 us later).
"$PYTHON" - "$T/late.fxt" <<'PY'
import os, sys; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
t = magic() + provider_info(1, "p") + thread(1, 5, 6) + thread(2, 5, 7)
t += event(INSTANT, 5000, 1, sref("c"), sref("late"))
t += event(INSTANT, 1000, 2, sref("c"), sref("early"))
t += event(INSTANT, 2500, 2, sref("c"), sref("mid"))
write(sys.argv[1], t)
PY
for j in 1 3; do
  expect_eq "-j $j :1us" "$("$FXT" json -j $j --time-range :1us "$T/late.fxt" 2> /dev/null | jq -c '[.traceEvents[] | .name]')" '["early"]'
  expect_eq "-j $j 1us:" "$("$FXT" json -j $j --time-range 1us: "$T/late.fxt" 2> /dev/null | jq -c '[.traceEvents[] | .name]')" '["late","mid"]'
  expect_eq "-j $j 4us:4us" "$("$FXT" json -j $j --time-range 4us:4us "$T/late.fxt" 2> /dev/null | jq -c '[.traceEvents[] | .name]')" '["late"]'
done
for j in 1 3; do
  for src in "-" "/dev/stdin"; do
    expect_eq "-j $j from a pipe ($src)" "$(cat "$T/late.fxt" | "$FXT" json -j $j --time-range 1us: "$src" 2> /dev/null | jq -c '[.traceEvents[] | .name]')" '["late","mid"]'
  done
  # trace-start: ts from the earliest event, from a file and from a pipe, base in metadata
  for src in "$T/late.fxt" -; do
    "$FXT" json -j $j --time-base=trace-start "$src" < "$T/late.fxt" > "$T/rel.json" 2> /dev/null
    expect_eq "-j $j trace-start $src: ts" "$(jq -c '[.traceEvents[] | [.name, .ts]]' "$T/rel.json")" '[["late",4],["early",0],["mid",1.5]]'
    expect_eq "-j $j trace-start $src: base" "$(jq -c '.metadata' "$T/rel.json")" '{"fxt-time-base-ns":1000}'
  done
done
# absolute times need no base: fine from a pipe
expect_eq "absolute from a pipe" "$("$FXT" json --time-range @2000: - < "$T/late.fxt" 2> /dev/null | jq -c '[.traceEvents[] | .name]')" '["late","mid"]'
