# SPDX-License-Identifier: MIT
# needs: python3 jq
# A relative --time-range counts from the trace's earliest event (stats'
# first_ns), not from the first event in the file: here the file's first event
# (a thread whose chunk was written first) is 4 us after the earliest. Earlier
# events are not clamped to 0. From a pipe the earliest is not known before
# the events are written: a usage error, not a wrong window.
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
rc=0
"$FXT" json --time-range :1us - < "$T/late.fxt" > "$T/pipe.json" 2> "$T/pipe.err" || rc=$?
expect_eq "from a pipe: exit" "$rc" 2
grep -q "earliest" "$T/pipe.err" || fail "pipe: $(cat "$T/pipe.err")"
[ ! -s "$T/pipe.json" ] || fail "pipe: output written"
# absolute times need no base: fine from a pipe
expect_eq "absolute from a pipe" "$("$FXT" json --time-range @2000: - < "$T/late.fxt" 2> /dev/null | jq -c '[.traceEvents[] | .name]')" '["late","mid"]'
