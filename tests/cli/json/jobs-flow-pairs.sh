# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3
# Under -j N a range logs its slices apart from its flows: its merge feeds a
# thread's slices only up to the thread's next flow, complete events only while
# the thread has flows waiting for a slice, and no begin/end pair of the range
# with no flow of its thread between them (docs/json.md, Parallel conversion).
# Random nested pairs and complete events (written at their end) on three
# threads, flows inside pairs, inside complete events and outside any slice,
# pairs without flows around and between them, ends whose begin is in an
# earlier range: -j 3 with ranges of a few records to a few hundred gives -j 1's
# output byte for byte.
"$PYTHON" - "$T/pairs.fxt" <<'PY'
import os, random, sys; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
rnd = random.Random(7)
t = magic() + provider_info(1, "p")
thr = [(5, 6), (5, 7), (9, 8)]
clock = [0, 0, 0]
fid = [0]
def flow(k):
    fid[0] += 1
    kind = rnd.choice([FLOW_BEGIN, FLOW_STEP, FLOW_END])
    return event(kind, clock[k], thr[k], sref("c"), sref("f"), ident=rnd.randrange(1, 12))
def scope(k, depth):
    # a pair, or a complete event written at its end; flows and children inside
    out = b""
    start = clock[k]
    pair = rnd.random() < 0.5
    if pair:
        out += event(BEGIN, start, thr[k], sref("c"), sref("p%d" % depth))
    clock[k] += 1 + rnd.randrange(20)
    for _ in range(rnd.randrange(4) if depth < 6 else 0):
        if rnd.random() < 0.15:
            out += flow(k)
            clock[k] += 1 + rnd.randrange(5)
        out += scope(k, depth + 1)
        clock[k] += rnd.randrange(5)
    if rnd.random() < 0.1:
        out += flow(k)
    clock[k] += 1 + rnd.randrange(20)
    if pair:
        out += event(END, clock[k], thr[k], sref("c"), sref("p%d" % depth))
    else:
        out += event(COMPLETE, start, thr[k], sref("c"), sref("x%d" % depth), end_ts=clock[k])
    return out
for _ in range(60):
    k = rnd.randrange(3)
    t += scope(k, 0)
    if rnd.random() < 0.2:
        t += flow(k) # outside any slice: waits until the end
    clock[k] += 1 + rnd.randrange(9)
write(sys.argv[1], t)
PY
"$FXT" json -j 1 "$T/pairs.fxt" > "$T/one.json" 2> "$T/one.err"
grep -q '"ph":"s"' "$T/one.json" || fail "no flow written: $(cat "$T/one.err")"
for bytes in 64 200 1000 8000; do
  FXT_RANGE_BYTES=$bytes "$FXT" json -j 3 "$T/pairs.fxt" > "$T/many.json" 2> "$T/many.err"
  cmp -s "$T/one.json" "$T/many.json" || fail "-j 3 with $bytes-byte ranges differs from -j 1"
  cmp -s "$T/one.err" "$T/many.err" || fail "stderr of -j 3 with $bytes-byte ranges differs"
done
same_any_jobs "$T/pairs.fxt"
