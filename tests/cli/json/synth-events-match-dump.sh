# SPDX-License-Identifier: MIT
# needs: python3
# Every event matches fxt dump --json of the same trace: ts exact to the ns at
# each provider's tick rate, ph, ids, every argument; each duration begin/end
# pair is one X event at its end's place, with the begin's keys and arguments
# and dur = end - begin; a flow event has the ts of the innermost open begin
# of its thread (its own without one); names of the 12 threads and 3 processes; 9 system
# events (as systrace lines, and as objects with --system-events=fuchsia).
"$PYTHON" - <<'PY'
import json, sys, decimal
dump = [json.loads(l) for l in open("s.jsonl")]
out = json.load(open("s.json"), parse_float=decimal.Decimal)
events = [e for e in out["traceEvents"] if e["ph"] != "M"]
tps = {}
expected = []
PH = {"instant": "I", "counter": "C", "duration_begin": "B", "duration_end": "E", "duration_complete": "X",
      "async_begin": "b", "async_instant": "n", "async_end": "e", "flow_begin": "s", "flow_step": "t", "flow_end": "f"}
def us(ticks, rate):
    ns = ticks * 10**9 // rate
    return decimal.Decimal("%d.%03d" % (ns // 1000, ns % 1000))
open_begins = {}
for r in dump:
    if r["kind"] == "init":
        tps[r["provider"]] = r["ticks_per_second"]
    elif r["kind"] == "event" and r["event"] == "duration_begin":
        open_begins.setdefault((r["provider"], r["pid"], r["tid"]), []).append(r)
    elif r["kind"] == "event" and r["event"] == "duration_end":
        b = dict(open_begins[(r["provider"], r["pid"], r["tid"])].pop())
        b["event"], b["end_ts"] = "duration_complete", r["ts"]
        b["args"] = b["args"] + r["args"]
        expected.append((b, tps.get(r["provider"], 10**9)))
    elif r["kind"] == "event":
        top = open_begins.get((r["provider"], r["pid"], r["tid"]))
        if r["event"].startswith("flow") and top:
            r = dict(r, ts=top[-1]["ts"])  # a flow event moves to the start of its enclosing slice
        expected.append((r, tps.get(r["provider"], 10**9)))
    elif r["kind"] == "log":
        expected.append((r, tps.get(r["provider"], 10**9)))
bad = 0
if len(events) != len(expected):
    print("count", len(events), len(expected)); sys.exit(1)
for e, (r, rate) in zip(events, expected):
    ok = e["ts"] == us(r["ts"], rate) and e["pid"] == r["pid"] and e["tid"] == r["tid"]
    if r["kind"] == "log":
        ok = ok and e["name"] == "log" and e["args"]["message"] == r["message"]
    else:
        ok = ok and e["ph"] == PH[r["event"]] and e["name"] == r["name"] and e["cat"] == r["category"]
        if r["event"] == "duration_complete":
            ok = ok and e["dur"] == us(r["end_ts"], rate) - us(r["ts"], rate)
        if r["event"].startswith("async"):
            ok = ok and e["id"] == "0x%x" % r["id"]
        if r["event"].startswith("flow"):
            ok = ok and e["id"] == str(r["id"]) and e["bp"] == "e"
        last = {a["name"]: a for a in r["args"]}  # duplicate names: the last one wins in JSON
        for a in last.values():
            v = e["args"][a["name"]]
            t = a["type"]
            if t in ("int32", "uint32", "int64", "uint64", "bool", "string"): ok = ok and v == a["value"]
            elif t == "null": ok = ok and v is None
            elif t == "pointer": ok = ok and v == "0x%x" % a["value"]
            elif t == "koid": ok = ok and v == "#%d" % a["value"]
            elif t == "double": ok = ok and float(v) == a["value"]
    if not ok:
        bad += 1
        if bad < 4: print("mismatch", e, r)
names = [e for e in out["traceEvents"] if e["ph"] == "M"]
ok_names = len([n for n in names if n["name"] == "thread_name"]) == 12 and len([n for n in names if n["name"] == "process_name"]) == 3
sysev = json.load(open("sobj.json"))["systemTraceEvents"]["events"]
lines = [l for l in out["systemTraceEvents"].splitlines() if not l.startswith("#")]
print("events", len(events), "bad", bad, "names ok", ok_names, "system", len(sysev), len(lines))
sys.exit(1 if bad or not ok_names or len(sysev) != 9 or len(lines) != 9 or any(b for b in open_begins.values()) else 0)
PY
