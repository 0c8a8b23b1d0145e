# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3
# 6000 overlapping async events with reused ids, cut to [20000, 60000] ns:
# exactly the chains begun inside kept (chains.want, computed by setup.sh),
# those still open closed at the window's end; exit 0.
"$FXT" cut chains.fxt --absolute --from 20000 --to 60000 -o "$T/chains.cut.fxt"
"$FXT" dump --json "$T/chains.cut.fxt" > "$T/chains.cut.jsonl"
"$PYTHON" - "$T/chains.cut.jsonl" <<'PY'
import json, sys
want = [tuple(w) for w in json.load(open("chains.want"))]
got = []
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r["kind"] == "event":
        assert r["name"] == "n%d" % r["id"], r
        got.append((r["event"], r["id"], r["ts"]))
got.sort()
print("expected", len(want), "got", len(got))
if len(want) <= 1000:
    sys.exit("too few expected events: the generator changed")
if got != want:
    for k, (g, w) in enumerate(zip(got, want)):
        if g != w:
            print("first difference at", k, "got", g, "expected", w)
            break
    sys.exit(1)
PY
