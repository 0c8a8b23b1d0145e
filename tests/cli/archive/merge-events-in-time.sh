# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3
# fxt json of the merge: every event of every input, in order, at the right
# time (a.fxt shifted by its 1500 ns offset) with the right names.
for f in a b c ftr m; do
  "$FXT" json $f.fxt -o "$T/$f.json" 2> /dev/null
done
cd "$T" || exit 1
"$PYTHON" - <<'PY'
import json, decimal, sys
def ev(path, shift=0):
    d = json.load(open(path), parse_float=decimal.Decimal)
    return [(e.get("cat"), e["name"], e["ts"] + shift, e["ph"], e.get("pid"), e.get("tid")) for e in d["traceEvents"] if e["ph"] != "M"]
want = ev("a.json", decimal.Decimal("1.5")) + ev("b.json") + ev("c.json") + ev("ftr.json")
got = ev("m.json")
# flow and async events come after the others in each document (docs/json.md, Flows, Async
# events): compared as sets
flows = lambda evs: sorted(e for e in evs if e[3] in "stfbne")
want, want_flows = [e for e in want if e[3] not in "stfbne"], flows(want)
got, got_flows = [e for e in got if e[3] not in "stfbne"], flows(got)
if want_flows != got_flows:
    print("flow events differ:", len(got_flows), "expected", len(want_flows))
    sys.exit(1)
print("expected", len(want), "got", len(got))
if want != got:
    for k, (g, w) in enumerate(zip(got, want)):
        if g != w:
            print("first difference at", k, "got", g, "expected", w)
            break
    sys.exit(1)
PY
