# SPDX-License-Identifier: MIT
"""Compares what the DevTools trace engine made of `fxt json` output
(devtools_load.mjs) with the FXT itself (`fxt dump --json`).

    compare.py DUMP.jsonl ENGINE.json NAME

Checks: no exception and no pairing error in the engine; every duration of the
FXT (begin/end pair or complete event) is one slice of its thread with the
same name and duration (to the engine's double precision), so no slice is
zero-length unless it is in the FXT; every instant and log is an instant;
every counter is there; every async begin/end pair of the FXT is one async
operation of the engine's own matcher with its duration; every flow of the
FXT (a chain of the chain-id rule, docs/check.md#chain-ids, with at least two
events) is drawn with all its events, as the FXT's own chains computed here
(DevTools binds a flow event to a slice of its thread starting at its ts with
its category: a chain event outside any slice, or in a slice of another
category than the chain's, cannot be drawn and is not counted). Prints one
line of counts; exit 1 on any difference.
"""
import collections
import json
import sys

dump_path, engine_path, label = sys.argv[1:4]
eng = json.load(open(engine_path))
tps = {}
stacks = collections.defaultdict(list)
want_slices = collections.Counter()
nonzero = set()
instants = counters = 0
async_events = []
slices = collections.defaultdict(list)  # thread -> (start ns, end ns, is complete, category)
flow_events = []
want_threads = {}  # tid -> name: a provider's own name wins over the kernel section's (fxt record --sched)
named_by_provider = set()
pnames = {}
for line in open(dump_path):
    r = json.loads(line)
    k = r["kind"]
    if k == "provider_info":
        pnames[r.get("provider")] = r.get("name")
    if k == "kernel_object" and r.get("obj_type") == 2:
        own = pnames.get(r.get("provider")) != "kernel"
        if own or r["koid"] not in named_by_provider:
            want_threads[r["koid"]] = r["name"]
        if own:
            named_by_provider.add(r["koid"])
    if k == "init":
        tps[r.get("provider")] = r["ticks_per_second"]
        continue
    if k == "log":
        instants += 1
        continue
    if k != "event":
        continue
    rate = tps.get(r.get("provider"), 10**9)
    ns = r["ts"] * 10**9 // rate
    key = (r.get("provider"), r["pid"], r["tid"])
    ev = r["event"]
    if ev == "duration_begin":
        stacks[key].append((r["name"], ns, r["category"]))
    elif ev == "duration_end":
        if stacks[key]:
            name, b, cat = stacks[key].pop()
            want_slices[(r["pid"], r["tid"], name, ns - b)] += 1
            slices[key].append((b, ns, 0, cat))
    elif ev == "duration_complete":
        want_slices[(r["pid"], r["tid"], r["name"], r["end_ts"] * 10**9 // rate - ns)] += 1
        slices[key].append((ns, r["end_ts"] * 10**9 // rate, 1, r["category"]))
    elif ev.startswith("flow_"):
        flow_events.append((r["id"], ns, len(flow_events), ev, r.get("provider"), key, r["category"]))
    elif ev == "instant":
        instants += 1
    elif ev == "counter":
        counters += 1
    elif ev.startswith("async_") and ev != "async_instant":
        async_events.append((r["id"], ns, len(async_events), ev, r.get("provider"), r["category"], r["name"]))

# async pairs by the chain-id rule (docs/check.md#chain-ids) in time order (an end in the file
# before its begin is fine): an end closes the open chain of its id in its provider, else the one
# other provider's; a begin of an id open in its provider replaces that chain (never ended)
want_async = collections.Counter()
open_async = {}  # (id, provider) -> (begin ns, category, name)
for ident, ns, _seq, ev, prov, cat, name in sorted(async_events, key=lambda e: e[:3]):
    if ev == "async_begin":
        open_async[(ident, prov)] = (ns, cat, name)
        continue
    c = (ident, prov) if (ident, prov) in open_async else None
    if c is None:
        others = [k for k in open_async if k[0] == ident]
        c = others[0] if len(others) == 1 else None
    if c is not None:
        b, bcat, bname = open_async.pop(c)
        want_async[(bcat, bname, ns - b)] += 1

# flows: chains by the chain-id rule in time order; each event at the start of the innermost
# slice enclosing it (complete events included), drawable when that slice has the chain's
# category and does not start before the chain's previous event
chains = []
cur, open_chains = None, {}
for ident, ns, _seq, ev, prov, key, cat in sorted(flow_events):
    if ident != cur:
        cur, open_chains = ident, {}
    enc = [s for s in slices[key] if s[0] <= ns <= s[1]]
    sl = max(enc, key=lambda s: (s[0], -s[1], s[2])) if enc else None
    if ev == "flow_begin":
        c = open_chains[prov] = {"cat": cat, "events": 0, "drawable": set(), "last": -1}
        chains.append(c)
    else:
        c = open_chains.get(prov)
        if c is None:
            others = list(open_chains.values())
            if len(others) != 1:
                continue
            c = others[0]
        if ev == "flow_end":
            open_chains = {p: x for p, x in open_chains.items() if x is not c}
    c["events"] += 1
    if sl is not None and sl[0] >= c["last"]:
        c["last"] = sl[0]
        if sl[3] == c["cat"]:
            c["drawable"].add((key, sl[0]))
    else:
        c["last"] = ns
want_flows = sorted(len(c["drawable"]) for c in chains if len(c["drawable"]) > 1)
fxt_flows = sum(1 for c in chains if c["events"] > 1)

problems = []
if eng["exception"]:
    problems.append("exception: " + eng["exception"].splitlines()[0])
if eng["errors"]:
    problems.append("engine errors: %d, first: %s" % (len(eng["errors"]), eng["errors"][0]))


def close(a, b):
    return abs(a - b) <= max(0.0015, abs(b) * 1e-12)


# match each engine slice to an FXT duration of its thread and name with the same length
got = collections.defaultdict(list)
for pid, tid, name, ts, dur in eng["slices"]:
    got[(pid, tid, name)].append(dur)
pool = collections.defaultdict(list)
for (pid, tid, name, dns), n in want_slices.items():
    pool[(pid, tid, name)] += [dns / 1000.0] * n
unmatched = zero_bad = 0
for key, durs in got.items():
    avail = sorted(pool.get(key, []))
    for d in sorted(durs):
        i = next((i for i, w in enumerate(avail) if close(d, w)), None)
        if i is None:
            unmatched += 1
            if d == 0:
                zero_bad += 1
        else:
            avail.pop(i)
    pool[key] = avail
missing = sum(len(v) for v in pool.values())
nslices = sum(want_slices.values())
if unmatched or missing or len(eng["slices"]) != nslices:
    problems.append("slices: engine %d, FXT %d, engine slices matching no FXT duration %d (%d zero-length), "
                    "FXT durations not shown %d" % (len(eng["slices"]), nslices, unmatched, zero_bad, missing))
if eng["instants"] != instants:
    problems.append("instants: engine %d, FXT %d" % (eng["instants"], instants))
if eng["counters"] != counters:
    problems.append("counters: engine %d, FXT %d" % (eng["counters"], counters))
got_async = collections.Counter()
for cat, name, _id, ts, dur in eng["asyncs"]:
    m = [k for k in want_async if k[0] == cat and k[1] == name and close(dur, k[2] / 1000.0) and want_async[k] > got_async[k]]
    got_async[m[0] if m else ("?", name, dur)] += 1
if sum(want_async.values()) != len(eng["asyncs"]) or any(k[0] == "?" for k in got_async):
    problems.append("async: engine %d, FXT pairs %d" % (len(eng["asyncs"]), sum(want_async.values())))
if sorted(eng["flowLens"]) != want_flows:
    problems.append("flows: engine draws %d (%d events), FXT flows DevTools can draw %d (%d events)"
                    % (len(eng["flowLens"]), sum(eng["flowLens"]), len(want_flows), sum(want_flows)))
# every thread the engine shows with slices has the FXT's name (the program's own, not the kernel's comm)
with_slices = {s[1] for s in eng["slices"]}
bad_names = ["tid %s: %r, FXT %r" % (tid, name, want_threads[tid]) for _pid, tid, name in eng.get("threads", [])
             if tid in with_slices and tid in want_threads and name != want_threads[tid]]
if bad_names:
    problems.append("thread names: " + "; ".join(bad_names[:5]))
zero = sum(1 for s in eng["slices"] if s[4] == 0)
print("%s: slices %d (zero-length %d, FXT zero-length %d), instants %d, counters %d, async %d, flows drawn %d of %d (%d of the FXT's"
      " chains have a slice of their category for two events or more), %d flow events"
      % (label, len(eng["slices"]), zero, sum(n for k, n in want_slices.items() if k[3] == 0), eng["instants"],
         eng["counters"], len(eng["asyncs"]), eng["flows"], fxt_flows, len(want_flows), eng["flowEvents"]))
for p in problems:
    print("  FAIL:", p)
sys.exit(1 if problems else 0)
