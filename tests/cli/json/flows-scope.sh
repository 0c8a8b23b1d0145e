# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# A flow event is written at the start of the innermost slice enclosing it in
# time on its thread, duration complete events (FXT_DURATION scopes, written
# at their end, after the flow) included: the issue's example, a flow begun in
# complete B 20..80 inside complete A 10..90 inside pair P 0..100 binds to B,
# its end in complete Y on another thread binds to Y; every event of a chain
# has the begin's category and name and one id. A step or end whose slice
# starts before the chain's previous event stays at its own time (never an
# end before its begin). An end read before its begin in the file (another
# thread's chunk written first) is matched all the same and written after it.
"$PYTHON" - "$T/scope.fxt" <<'PY'
import os, sys; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
t = magic() + provider_info(1, "p")
a, b = (5, 6), (5, 7)
t += event(BEGIN, 0, a, sref("c"), sref("P"))
t += event(FLOW_BEGIN, 30, a, sref("c"), sref("send"), ident=1)
t += event(COMPLETE, 20, a, sref("c"), sref("B"), end_ts=80)
t += event(COMPLETE, 10, a, sref("c"), sref("A"), end_ts=90)
t += event(END, 100, a, sref("c"), sref("P"))
t += event(FLOW_END, 150, b, sref("d"), sref("recv"), ident=1)
t += event(COMPLETE, 120, b, sref("c"), sref("Y"), end_ts=180)
# the end's slice (250..400) starts before the begin's (290..310)
t += event(FLOW_BEGIN, 300, a, sref("c"), sref("g"), ident=2)
t += event(COMPLETE, 290, a, sref("c"), sref("Q"), end_ts=310)
t += event(FLOW_END, 305, b, sref("c"), sref("g"), ident=2)
t += event(COMPLETE, 250, b, sref("c"), sref("R"), end_ts=400)
# end before begin in the file, no slices
t += event(FLOW_END, 520, b, sref("c"), sref("h"), ident=3)
t += event(FLOW_BEGIN, 510, a, sref("c"), sref("h"), ident=3)
write(sys.argv[1], t)
PY
"$FXT" json "$T/scope.fxt" -o "$T/scope.json" 2> "$T/scope.err"
expect_eq "flows" "$(jq -c '.traceEvents[] | select(.ph == "s" or .ph == "t" or .ph == "f") | [.ph,.cat,.name,.tid,.ts,.id,.bp]' "$T/scope.json")" \
'["s","c","send",6,0.02,"1","e"]
["f","c","send",7,0.12,"1","e"]
["s","c","g",6,0.29,"2","e"]
["f","c","g",7,0.305,"2","e"]
["s","c","h",6,0.51,"3","e"]
["f","c","h",7,0.52,"3","e"]'
grep -q "1 flow events left at their own time" "$T/scope.err" || fail "summary: $(cat "$T/scope.err")"
same_any_jobs "$T/scope.fxt"
