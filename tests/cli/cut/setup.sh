# SPDX-License-Identifier: MIT
# fxt cut. in.fxt: a hand-built trace (tests/tools/fxtgen.py, independent of the
# library's writer) for window edges, duration and async balancing, per-provider
# tick rates, relative vs absolute times, name filters; cut once here into
# abs.fxt (abs.err, abs.rc). chains.fxt: 6000 overlapping async events with
# reused ids, and the chains a cut must keep (chains.want). big.fxt: a synth
# trace, cut once here into win.fxt (win.err, win.rc).
if have python3; then
  "$PYTHON" - <<'PY'
import os, sys; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
T1, T2 = (1, 10), (1, 11)
c = sref("c")
t = magic() + provider_info(1, "one") + init(1000000000)
t += event(BEGIN, 100, T1, c, sref("outer"))        # begin before the window ...
t += event(END, 600, T1, c, sref("outer"))          # ... so this end is dropped
t += event(BEGIN, 700, T1, c, sref("a"))
t += event(END, 800, T1, c, sref("a"))
t += event(BEGIN, 900, T1, c, sref("b"))            # end after the window: closed at T1
t += event(COMPLETE, 1000, T2, c, sref("x"), end_ts=1100)
t += event(INSTANT, 1500, T1, c, sref("i"))
t += event(INSTANT, 2500, T1, c, sref("late"))
t += event(END, 3000, T1, c, sref("b"))
t += event(ASYNC_BEGIN, 200, T2, c, sref("as5"), ident=5)   # chain begun before: dropped
t += event(ASYNC_END, 1200, T2, c, sref("as5"), ident=5)
t += event(ASYNC_BEGIN, 1300, T2, c, sref("as6"), ident=6)  # never ended: closed
t += event(FLOW_BEGIN, 1000, T2, c, sref("fl"), ident=9)    # a flow crossing categories
t += event(FLOW_STEP, 1100, T1, sref("other"), sref("fl"), ident=9)
t += event(FLOW_END, 1200, T2, sref("other"), sref("fl"), ident=9)
# provider 2 at 2 ticks/ns, string and thread indexes of its own
t += provider_info(2, "two") + init(2000000000) + string(1, "c2") + thread(1, 2, 20)
t += event(INSTANT, 2400, 1, 1, sref("p2in"))       # 1200 ns: inside
t += event(INSTANT, 4400, 1, 1, sref("p2out"))      # 2200 ns: outside
write("in.fxt", t)

# many overlapping async chains (random ids, reused after they end): the open-chain
# table must remove ended chains; the expected output is computed independently here
import random, json
random.seed(7)
A, B = 20000, 60000
t = magic() + init(1000000000)
evs, want, open_ids, ts = [], [], {}, 0
for k in range(6000):
    ts += random.randint(1, 20)
    if open_ids and (random.random() < 0.5 or len(open_ids) > 300):
        i = random.choice(sorted(open_ids)); b = open_ids.pop(i)
        evs.append(event(ASYNC_END, ts, (1, 2), sref("c"), sref("n%d" % i), ident=i))
        if A <= b <= B:
            want.append(("async_end", i, ts if ts <= B else B))
    else:
        i = random.randint(1, 400)
        while i in open_ids: i = random.randint(1, 400)
        open_ids[i] = ts
        evs.append(event(ASYNC_BEGIN, ts, (1, 2), sref("c"), sref("n%d" % i), ident=i))
        if A <= ts <= B:
            want.append(("async_begin", i, ts))
for i, b in open_ids.items():
    if A <= b <= B: want.append(("async_end", i, B))
write("chains.fxt", t + b"".join(evs))
json.dump(sorted(want), open("chains.want", "w"))
PY
  record abs "$FXT" cut in.fxt --from 500 --to 2000 --absolute -o abs.fxt
fi

"$FXT" synth --seed 5 --providers 2 --events 10000 -o big.fxt
record win "$FXT" cut big.fxt --from 2ms --to 6ms -o win.fxt
