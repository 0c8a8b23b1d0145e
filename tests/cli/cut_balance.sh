#!/bin/bash
# fxt cut on a hand-built trace (tests/tools/fxtgen.py, independent of the
# library's writer): window edges, duration and async balancing, per-provider
# tick rates, relative vs absolute times, name filters.
set -u
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
mkdir -p "$SCRATCH"; cd "$SCRATCH" || exit 1
cat > gen.py <<'PY'
import sys; sys.path.insert(0, sys.argv[1] + "/tests/tools"); from fxtgen import *
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
write(sys.argv[2], t)
PY
python3 gen.py "$SRC" in.fxt || exit 1
evs() { "$FXT" dump --json "$1" | jq -c 'select(.kind=="event") | [.provider, .event, .name, .ts, .category]' | sort | tr -d '\n'; }

"$FXT" cut in.fxt --from 500 --to 2000 --absolute -o abs.fxt 2> abs.err; rc=$?
check "cut --absolute exits 0" '[ $rc -eq 0 ]'
want='[1,"async_begin","as6",1300,"c"][1,"async_end","as6",2000,"c"][1,"duration_begin","a",700,"c"][1,"duration_begin","b",900,"c"][1,"duration_complete","x",1000,"c"][1,"duration_end","a",800,"c"][1,"duration_end","b",2000,"c"][1,"flow_begin","fl",1000,"c"][1,"flow_end","fl",1200,"other"][1,"flow_step","fl",1100,"other"][1,"instant","i",1500,"c"][2,"instant","p2in",2400,"c2"]'
got=$(evs abs.fxt)
check "window [500,2000] ns: kept events, closed b and as6 at T1, dropped unmatched end and chain" '[ "$got" = "$want" ] || { echo "got $got"; false; }'
check "cut output passes fxt check" '"$FXT" check abs.fxt > abs.check && grep -q " 0 errors" abs.check'
check "cut reports what it closed and dropped" 'grep -q "kept 11 events" abs.err && grep -q "closed 2" abs.err && grep -q "dropped 1 unmatched" abs.err'
"$FXT" cut in.fxt --from 400ns --to 1.9us -o rel.fxt 2>/dev/null
check "relative times (from the first event, 100 ns) give the same output" 'cmp -s abs.fxt rel.fxt'
"$FXT" cut in.fxt --name 'as*' -o names.fxt 2>/dev/null
check "--name glob without a window: chains kept, open one closed at the provider's last time" '[ "$(evs names.fxt)" = "[1,\"async_begin\",\"as5\",200,\"c\"][1,\"async_begin\",\"as6\",1300,\"c\"][1,\"async_end\",\"as5\",1200,\"c\"][1,\"async_end\",\"as6\",3000,\"c\"]" ] && "$FXT" check names.fxt > /dev/null'
"$FXT" cut in.fxt --category c --from 500 --to 1150 --absolute -o catf.fxt 2>/dev/null
check "--category selects begins; a kept flow's continuations in other categories follow it, its end outside the window is synthesized" '[ "$(evs catf.fxt)" = "[1,\"duration_begin\",\"a\",700,\"c\"][1,\"duration_begin\",\"b\",900,\"c\"][1,\"duration_complete\",\"x\",1000,\"c\"][1,\"duration_end\",\"a\",800,\"c\"][1,\"duration_end\",\"b\",1150,\"c\"][1,\"flow_begin\",\"fl\",1000,\"c\"][1,\"flow_end\",\"fl\",1150,\"c\"][1,\"flow_step\",\"fl\",1100,\"other\"]" ] && "$FXT" check catf.fxt > /dev/null'
gzip -c in.fxt | "$FXT" cut - --from 500 --to 2000 --absolute --compress zstd 2>/dev/null | zstd -dc > pipe.fxt
check "cut from a gzip pipe to a zstd pipe: same result" 'cmp -s abs.fxt pipe.fxt'
"$FXT" cut in.fxt --from 2000 --to 500 -o x.fxt 2>/dev/null; rc=$?
check "an empty window (from > to) is a usage error or an empty valid trace" '[ $rc -eq 2 ] || { [ $rc -eq 0 ] && [ -z "$(evs x.fxt)" ]; }'
# many overlapping async chains (random ids, reused after they end): the open-chain
# table removes ended chains; expected output computed independently here
cat > chains.py <<'PY'
import sys, random, json, subprocess; sys.path.insert(0, sys.argv[1] + "/tests/tools"); from fxtgen import *
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
out = subprocess.run([sys.argv[2], "cut", "chains.fxt", "--absolute", "--from", str(A), "--to", str(B), "-o", "chains.cut.fxt"], stderr=subprocess.DEVNULL).returncode
got = []
for l in subprocess.run([sys.argv[2], "dump", "--json", "chains.cut.fxt"], capture_output=True, text=True).stdout.splitlines():
    r = json.loads(l)
    if r["kind"] == "event":
        assert r["name"] == "n%d" % r["id"]
        got.append((r["event"], r["id"], r["ts"]))
print(len(want), len(got), out)
sys.exit(0 if out == 0 and sorted(want) == sorted(got) and len(want) > 1000 else 1)
PY
check "6000 overlapping async events with reused ids: exactly the expected chains kept and closed" 'python3 chains.py "$SRC" "$FXT"'
check "chains cut passes fxt check" '"$FXT" check chains.cut.fxt | grep -q " 0 errors"'
exit $fail
