# SPDX-License-Identifier: MIT
# needs: python3
# --time-range 1ms:2ms is relative to the earliest event: exactly the events of
# the full conversion in that range (over 10; a duration pair is selected by
# its begin, the ts of its X event; flow events, which move to the start of
# their enclosing slice, are left out); --no-system-events drops them.
"$FXT" json --time-range 1ms:2ms --no-system-events s.fxt > "$T/tr.json" 2> /dev/null
"$PYTHON" - "$T/tr.json" <<'PY'
import json, decimal, sys
d = json.load(open(sys.argv[1]), parse_float=decimal.Decimal)
ev = [e for e in d["traceEvents"] if e["ph"] not in "Mstf"]
allev = [e for e in json.load(open("s.json"), parse_float=decimal.Decimal)["traceEvents"] if e["ph"] not in "Mstf"]
tps = {}
first = None
for l in open("s.jsonl"):
    r = json.loads(l)
    if r["kind"] == "init":
        tps[r["provider"]] = r["ticks_per_second"]
    if r["kind"] == "event":
        ns = r["ts"] * 10**9 // tps.get(r["provider"], 10**9)
        first = ns if first is None else min(first, ns)
base = decimal.Decimal("%d.%03d" % (first // 1000, first % 1000))
want = [e for e in allev if base + 1000 <= e["ts"] <= base + 2000]
print("expected", len(want), "got", len(ev))
assert ev == want, "events differ"
assert len(ev) > 10, "too few events"
assert "systemTraceEvents" not in d, "system events present"
PY
