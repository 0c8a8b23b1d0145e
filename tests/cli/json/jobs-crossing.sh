# SPDX-License-Identifier: MIT
# needs: python3 jq
# labels: threads
# What crosses ranges comes out as in one read. With FXT_RANGE_BYTES=8 every record is its own
# range: begins and their ends (with arguments on either) in different ranges, a flow whose
# slice opened in an earlier range, names (and their sort indexes, systrace comms) given
# before the events that use them, an end without a begin, a begin never ended, and the first
# element of traceEvents in a range after the first (no comma before it). Also standard input.
"$PYTHON" - "$T" <<'PY'
import os, sys; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
t = magic() + provider_info(1, "p") + init(1000000000) + thread(1, 5, 6) + thread(2, 5, 7)
t += string(1, "c") + string(2, "a") + string(3, "b")
t += event(END, 900, 2, 1, sref("early"))
t += kernel_object(5, 1, sref("proc")) + kernel_object(6, 2, sref("main"), args=[arg(8, sref("process"), 5)])
t += event(BEGIN, 1000, 1, 1, sref("outer"), args=[arg(3, 2, 1)])
t += event(BEGIN, 1100, 2, 1, sref("plain"))
t += event(FLOW_BEGIN, 1150, 1, 1, sref("fl"), ident=3)
t += event(END, 1200, 2, 1, sref("plain"), args=[arg(3, 3, 2)])
t += context_switch(1250, 1, 3, 6, 7)
t += kernel_object(7, 2, sref("worker"), args=[arg(8, sref("process"), 5)])
t += context_switch(1260, 1, 3, 7, 6)
t += event(BEGIN, 1300, 2, 1, sref("argsonly"), args=[arg(3, 2, 4)])
t += event(END, 1400, 2, 1, sref("argsonly"))
t += event(END, 2000, 1, 1, sref("outer"), args=[arg(3, 3, 5)])
t += event(BEGIN, 2500, 1, 1, sref("open"))
write(sys.argv[1] + "/x.fxt", t)
PY
set -f # the pattern is fxt's
# the plain conversion last: its output is checked below
for opts in "--system-events=fuchsia --time-base=trace-start" "--name [aop]*" ""; do
  # shellcheck disable=SC2086
  same_any_jobs "$T/x.fxt" $opts
done
set +f
j=$T/one.out
# (the names are written at the end: the first element is the pair ended in a later range)
expect_eq "first element" "$(sed -n 2p "$j" | cut -c1-20)" '{"cat":"c","name":"p'
expect_eq "outer: the begin's and the end's arguments" \
  "$(jq -c '.traceEvents[] | select(.name == "outer") | [.ph, .ts, .dur, .args]' "$j")" '["X",1,1,{"a":1,"b":5}]'
expect_eq "plain: the end's arguments" "$(jq -c '.traceEvents[] | select(.name == "plain") | .args' "$j")" '{"b":2}'
expect_eq "argsonly: the begin's" "$(jq -c '.traceEvents[] | select(.name == "argsonly") | .args' "$j")" '{"a":4}'
expect_eq "flow at its slice's start" "$(jq -c '.traceEvents[] | select(.name == "fl") | .ts' "$j")" 1
expect_eq "sort indexes" "$(jq -c '[.traceEvents[] | select(.name | endswith("sort_index")) | .args.sort_index]' "$j")" '[0,0,1]'
expect_eq "open begin" "$(jq -c '[.traceEvents[] | select(.ph == "B") | .name]' "$j")" '["open"]'
jq -r .systemTraceEvents "$j" | grep -q "prev_comm=main prev_pid=6 .* next_comm=tid-7 next_pid=7" || fail "comm before its name"
jq -r .systemTraceEvents "$j" | grep -q "prev_comm=worker prev_pid=7 .* next_comm=main next_pid=6" || fail "comm after its name"
grep -q "1 duration ends without a begin dropped; 1 duration begins never ended" "$T/one.err" || fail "counts"
FXT_RANGE_BYTES=8 "$FXT" json -j 3 - < "$T/x.fxt" > "$T/stdin.out" 2> /dev/null
"$FXT" json -j 1 "$T/x.fxt" > "$T/file.out" 2> /dev/null
cmp -s "$T/stdin.out" "$T/file.out" || fail "standard input differs"
