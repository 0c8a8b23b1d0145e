# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3
# Duration begin/end pairs and complete events nest properly on every thread:
# no complete event crosses a begin or end of its thread (a viewer building one
# call tree per thread, e.g. speedscope, needs it).
"$PYTHON" - all.jsonl <<'PY'
import json, sys
tps, spans, stacks = {}, {}, {}
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r["kind"] == "init":
        tps[r["provider"]] = r["ticks_per_second"]
    if r["kind"] != "event":
        continue
    rate = tps.get(r["provider"], 10**9)
    k = (r["provider"], r["pid"], r["tid"])
    ns = r["ts"] * 10**9 // rate
    if r["event"] == "duration_begin":
        stacks.setdefault(k, []).append(ns)
    elif r["event"] == "duration_end":
        spans.setdefault(k, []).append((stacks[k].pop(), ns))
    elif r["event"] == "duration_complete":
        spans.setdefault(k, []).append((ns, r["end_ts"] * 10**9 // rate))
crossing = total = 0
for k, s in spans.items():
    s.sort(key=lambda x: (x[0], -x[1]))
    open_ends = []
    for b, e in s:
        total += 1
        while open_ends and open_ends[-1] <= b:
            open_ends.pop()
        if open_ends and e > open_ends[-1]:
            crossing += 1
        open_ends.append(e)
print("spans", total, "crossing", crossing)
sys.exit(1 if crossing or total < 500 else 0)
PY
