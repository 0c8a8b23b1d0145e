# SPDX-License-Identifier: MIT
# needs: python3 jq
# Flow ids follow the chain-id rule (docs/check.md#chain-ids): a step or end
# joins the open chain of its id in its own provider, else the one other
# provider's that has it open (a parent-to-child flow: one arrow), else none
# (no begin, or ambiguous: dropped and counted). Two processes that each
# number flows from 1 stay apart; a begin of an id already open in its
# provider starts a new chain (counted). Each chain has an id of its own in
# the JSON (both viewers group flow events by category, name and id).
"$PYTHON" - "$T/prov.fxt" <<'PY'
import os, sys; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
p1, p2, p3 = (10, 11), (20, 21), (30, 31)
def fl(kind, ts, th, ident):
    return event(kind, ts, th, sref("c"), sref("f"), ident=ident)
t = magic() + provider_info(1, "one")
t += fl(FLOW_BEGIN, 100, p1, 1) + fl(FLOW_END, 200, p1, 1)
t += fl(FLOW_BEGIN, 300, p1, 7)
t += fl(FLOW_BEGIN, 500, p1, 9)
t += fl(FLOW_BEGIN, 700, p1, 5) + fl(FLOW_BEGIN, 710, p1, 5) + fl(FLOW_END, 720, p1, 5)
t += provider_info(2, "two")
t += fl(FLOW_BEGIN, 150, p2, 1) + fl(FLOW_STEP, 160, p2, 1) + fl(FLOW_END, 250, p2, 1)
t += fl(FLOW_END, 400, p2, 7)
t += fl(FLOW_BEGIN, 510, p2, 9)
t += provider_info(3, "three")
t += fl(FLOW_END, 600, p3, 9)
t += fl(FLOW_END, 50, p3, 1)
write(sys.argv[1], t)
PY
"$FXT" json "$T/prov.fxt" -o "$T/prov.json" 2> "$T/prov.err"
expect_eq "flows" "$(jq -c '.traceEvents[] | select(.ph == "s" or .ph == "t" or .ph == "f") | [.ph,.pid,.ts,.id]' "$T/prov.json")" \
'["s",10,0.1,"1"]
["s",20,0.15,"2"]
["t",20,0.16,"2"]
["f",10,0.2,"1"]
["f",20,0.25,"2"]
["s",10,0.7,"3"]
["s",10,0.71,"4"]
["f",10,0.72,"4"]
["s",10,0.3,"5"]
["f",20,0.4,"5"]
["s",10,0.5,"6"]
["s",20,0.51,"7"]'
grep -q "2 flow steps/ends without a begin dropped; 1 flow begins with an id already open in their provider" "$T/prov.err" ||
  fail "summary: $(cat "$T/prov.err")"
same_any_jobs "$T/prov.fxt"
