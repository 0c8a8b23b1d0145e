# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3
# Every event matches fxt dump --json of the same trace: ts exact to the ns at
# each provider's tick rate, ph, ids, every argument; each duration begin/end
# pair is one X event at its end's place, with the begin's keys and arguments
# and dur = end - begin; flow events come last, matched and bound as computed
# here independently (innermost enclosing slice by time, complete events
# included; chains by the chain-id rule in time order; one id per chain; a step
# or end whose slice starts before its chain's previous event at its own time);
# async events come after them, matched by the same rule (id "0x<id>", ":<slot>"
# added while another provider's chain of the id is open; the begin's category,
# and name but for instants; an end with no begin dropped, an instant kept alone);
# names of the 12 threads and 3 processes; 9 system
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
slices = {}  # thread -> [(start_ns, end_ns, is_complete)]
flows = []   # (flow record, ns, thread)
asyncs = []  # (id, ns, seq, record)
def ns_of(ticks, rate):
    return ticks * 10**9 // rate
for r in dump:
    if r["kind"] == "init":
        tps[r["provider"]] = r["ticks_per_second"]
    elif r["kind"] == "event" and r["event"] == "duration_begin":
        open_begins.setdefault((r["provider"], r["pid"], r["tid"]), []).append(r)
    elif r["kind"] == "event" and r["event"] == "duration_end":
        rate = tps.get(r["provider"], 10**9)
        b = dict(open_begins[(r["provider"], r["pid"], r["tid"])].pop())
        b["event"], b["end_ts"] = "duration_complete", r["ts"]
        b["args"] = b["args"] + r["args"]
        expected.append((b, rate))
        slices.setdefault((r["provider"], r["pid"], r["tid"]), []).append((ns_of(b["ts"], rate), ns_of(r["ts"], rate), 0))
    elif r["kind"] == "event" and r["event"].startswith("flow"):
        flows.append((r, ns_of(r["ts"], tps.get(r["provider"], 10**9)), (r["provider"], r["pid"], r["tid"])))
    elif r["kind"] == "event" and r["event"].startswith("async"):
        asyncs.append((r["id"], ns_of(r["ts"], tps.get(r["provider"], 10**9)), len(asyncs), r))
    elif r["kind"] == "event" and not r["event"].startswith("async"):
        rate = tps.get(r["provider"], 10**9)
        if r["event"] == "duration_complete":
            slices.setdefault((r["provider"], r["pid"], r["tid"]), []).append((ns_of(r["ts"], rate), ns_of(r["end_ts"], rate), 1))
        expected.append((r, rate))
    elif r["kind"] == "log":
        expected.append((r, tps.get(r["provider"], 10**9)))
# flows: bound to the innermost enclosing slice, then chains in (id, time, file) order
def ns_us(ns):
    return decimal.Decimal("%d.%03d" % (ns // 1000, ns % 1000))
bound = []
for seq, (r, ns, th) in enumerate(flows):
    enc = [sl for sl in slices.get(th, []) if sl[0] <= ns <= sl[1]]
    at = max(enc, key=lambda sl: (sl[0], -sl[1], sl[2]))[0] if enc else ns
    bound.append((r["id"], ns, seq, r, at))
bound.sort(key=lambda b: b[:3])
want_flows, chains, uid, cur = [], {}, 0, None
for ident, ns, seq, r, at in bound:
    if ident != cur:
        chains, cur = {}, ident
    prov = r["provider"]
    if r["event"] == "flow_begin":
        uid += 1
        c = chains[prov] = {"uid": uid, "cat": r["category"], "name": r["name"], "last": at}
    else:
        c = chains.get(prov)
        if c is None:
            others = list(chains.values())
            if len(others) != 1:
                continue
            c = others[0]
        if at < c["last"]:
            at = ns
        c["last"] = at
        if r["event"] == "flow_end":
            chains = {p: x for p, x in chains.items() if x is not c}
    want_flows.append([PH[r["event"]], c["cat"], c["name"], ns_us(at), r["pid"], r["tid"], str(c["uid"]), r["args"]])
# async chains: the chain-id rule in (id, time, file) order; slots of one id reused once ended
asyncs.sort(key=lambda a: a[:3])
want_async, slots, cur = [], [], None
for ident, ns, seq, r in asyncs:
    if ident != cur:
        slots, cur = [], ident
    prov, kind = r["provider"], r["event"]
    own = [i for i, s in enumerate(slots) if s["open"] and s["prov"] == prov]
    others = [i for i, s in enumerate(slots) if s["open"] and s["prov"] != prov]
    if kind == "async_begin":
        if own:
            i = own[0]
        else:
            free = [i for i, s in enumerate(slots) if not s["open"]]
            i = free[0] if free else len(slots)
            if not free:
                slots.append({})
        slots[i] = {"open": True, "prov": prov, "cat": r["category"], "name": r["name"]}
    elif own or len(others) == 1:
        i = (own or others)[0]
    else:
        if kind == "async_instant":
            want_async.append(["n", r["category"], r["name"], r, "0x%x:0" % ident])
        continue
    s = slots[i]
    want_async.append([PH[kind], s["cat"], r["name"] if kind == "async_instant" else s["name"], r,
                       "0x%x" % ident + (":%d" % (i + 1) if i else "")])
    if kind == "async_end":
        s["open"] = False
got_async = [e for e in events if e["ph"] in "bne"]
abad = 0
for e, w in zip(got_async, want_async):
    r = w[3]
    if [e["ph"], e["cat"], e["name"], e["ts"], e["pid"], e["tid"], e["id"]] != w[:3] + [us(r["ts"], tps.get(r["provider"], 10**9)), r["pid"], r["tid"], w[4]]:
        abad += 1
        if abad < 4: print("async mismatch", e, w)
print("async", len(got_async), "expected", len(want_async), "bad", abad)
if abad or len(got_async) != len(want_async) or len(want_async) < 20:
    sys.exit(1)
got_flows = [e for e in events if e["ph"] in "stf"]
events = [e for e in events if e["ph"] not in "stfbne"]
fbad = 0
for e, w in zip(got_flows, want_flows):
    last = {a["name"]: a["value"] for a in w[7] if a["type"] in ("int32", "uint32", "int64", "uint64", "bool", "string")}
    if [e["ph"], e["cat"], e["name"], e["ts"], e["pid"], e["tid"], e["id"]] != w[:7] or e["bp"] != "e" or \
       any(e["args"][k] != v for k, v in last.items()):
        fbad += 1
        if fbad < 4: print("flow mismatch", e, w)
print("flows", len(got_flows), "expected", len(want_flows), "bad", fbad)
if fbad or len(got_flows) != len(want_flows) or len(want_flows) < 50:
    sys.exit(1)
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
