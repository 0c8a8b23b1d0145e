# SPDX-License-Identifier: MIT
# needs: python3
# --time-range 1ms:2ms is relative to the first event: exactly the events of
# the full conversion in that range (over 10); --no-system-events drops them.
"$FXT" json --time-range 1ms:2ms --no-system-events s.fxt > "$T/tr.json" 2> /dev/null
"$PYTHON" - "$T/tr.json" <<'PY'
import json, decimal, sys
d = json.load(open(sys.argv[1]), parse_float=decimal.Decimal)
ev = [e for e in d["traceEvents"] if e["ph"] != "M"]
allev = [e for e in json.load(open("s.json"), parse_float=decimal.Decimal)["traceEvents"] if e["ph"] != "M"]
base = allev[0]["ts"]
want = [e for e in allev if base + 1000 <= e["ts"] <= base + 2000]
print("expected", len(want), "got", len(ev))
assert ev == want, "events differ"
assert len(ev) > 10, "too few events"
assert "systemTraceEvents" not in d, "system events present"
PY
