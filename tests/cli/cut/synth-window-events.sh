# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3
# The window [2 ms, 6 ms] after the first event keeps exactly the instant,
# counter and complete events of the input in it (compared with the dump of
# the input, in ns at each provider's rate), and nothing outside it.
"$FXT" dump --json big.fxt > "$T/big.jsonl"
"$FXT" dump --json win.fxt > "$T/win.jsonl"
cd "$T" || exit 1
"$PYTHON" - <<'PY'
import json, sys
def events(path):
    tps, out = {}, []
    for l in open(path):
        r = json.loads(l)
        if r["kind"] == "init": tps[r["provider"]] = r["ticks_per_second"]
        if r["kind"] == "event":
            ns = r["ts"] * 10**9 // tps.get(r["provider"], 10**9)
            out.append((ns, r["event"], r["category"], r["name"], r["pid"], r["tid"], json.dumps(r["args"], sort_keys=True)))
    return out
inp, cut = events("big.jsonl"), events("win.jsonl")
base = inp[0][0]
simple = ("instant", "counter", "duration_complete")
want = [e for e in inp if e[1] in simple and base + 2000000 <= e[0] <= base + 6000000]
got = [e for e in cut if e[1] in simple]
print("expected", len(want), "got", len(got))
ok = want == got and len(want) > 100
outside = [e for e in cut if not base + 2000000 <= e[0] <= base + 6000000]
print("outside the window:", len(outside), outside[:3])
sys.exit(0 if ok and not outside else 1)
PY
