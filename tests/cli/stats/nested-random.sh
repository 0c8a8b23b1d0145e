# SPDX-License-Identifier: MIT
# needs: python3 jq
# Random scopes on 3 threads, begin/end pairs and complete events mixed at every depth, written as
# programs write them (a pair's begin and end when they happen, a complete event at its end): every
# pair's self and total time and every thread's busy time equal an independent computation
# (parent = the smallest enclosing duration of the thread), and -j N (ranges of 4 KiB: scopes
# across range boundaries) gives the same output as -j 1. Each thread runs inside a whole-thread
# scope ("whole": a complete event written last on threads 10/11 and 10/12, a begin/end pair on
# 10/13) around thousands of durations, far more than the 1024 of the call tree's nesting limit:
# its self time and the busy time stay exact (docs/stats.md).
"$PYTHON" - "$T" <<'PY'
import os, sys, random, json; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
rnd = random.Random(25)
names = ["n%d" % i for i in range(12)]
t = magic() + init(1000000000) + string(1, "c")
for i, n in enumerate(names):
    t += string(2 + i, n)
t += string(2 + len(names), "whole")
recs, ivs = [], {}
for th in (1, 2, 3):
    t += thread(th, 10, 10 + th)
    clock = [rnd.randrange(50)]
    def scope(depth):
        kind = COMPLETE if rnd.random() < 0.6 else BEGIN
        name = rnd.randrange(len(names))
        start = clock[0]
        clock[0] += 1 + rnd.randrange(5)
        if kind == BEGIN:
            recs.append((start, 0, th, event(BEGIN, start, th, 1, 2 + name)))
        kids = []
        if depth < 6:
            for _ in range(rnd.randrange(4 if depth < 3 else 2)):
                kids.append(scope(depth + 1))
                clock[0] += rnd.randrange(4)
        clock[0] += 1 + rnd.randrange(5)
        end = clock[0]
        clock[0] += 1
        if kind == BEGIN:
            recs.append((end, 1, th, event(END, end, th, 1, 2 + name)))
        else:
            recs.append((end, 1, th, event(COMPLETE, start, th, 1, 2 + name, end_ts=end)))
        return (start, end, names[name], kids)
    tops = []
    w0 = clock[0]
    if th == 3:
        recs.append((w0, 0, th, event(BEGIN, w0, th, 1, 2 + len(names))))
    clock[0] += 1
    while clock[0] < 40000:
        tops.append(scope(0))
        clock[0] += rnd.randrange(20)
    w1 = clock[0] + 1
    recs.append((w1, 1, th, event(END, w1, th, 1, 2 + len(names)) if th == 3 else
                 event(COMPLETE, w0, th, 1, 2 + len(names), end_ts=w1)))
    ivs[th] = [(w0, w1, "whole", tops)]
recs.sort(key=lambda r: (r[0], r[1]))
write(sys.argv[1] + "/r.fxt", t + b"".join(r[3] for r in recs))
want = {"self": {}, "total": {}, "busy": {}}
def walk(s):
    d = s[1] - s[0]
    want["total"][s[2]] = want["total"].get(s[2], 0) + d
    want["self"][s[2]] = want["self"].get(s[2], 0) + d - sum(k[1] - k[0] for k in s[3])
    for k in s[3]:
        walk(k)
for th, tops in ivs.items():
    want["busy"]["%d" % (10 + th)] = sum(s[1] - s[0] for s in tops)
    for s in tops:
        walk(s)
json.dump(want, open(sys.argv[1] + "/want.json", "w"), sort_keys=True)
PY
"$FXT" stats --top 100 --json "$T/r.fxt" > "$T/r.json"
jq -S -c '{self: ([.names[] | {(.name): .self_ns}] | add), total: ([.names[] | {(.name): .total_ns}] | add),
           busy: ([.threads[] | {(.tid | tostring): .busy_ns}] | add)}' "$T/r.json" > "$T/got.json"
expect_eq "self, total, busy" "$(cat "$T/got.json")" "$(jq -S -c . "$T/want.json")"
expect_eq "nesting" "$(jq -c '[.nesting.complete_not_enclosing_all, .nesting.self_clamped]' "$T/r.json")" '[0,0]'
for mode in "--json --tree" "--folded"; do
  # shellcheck disable=SC2086
  "$FXT" stats -j 1 $mode "$T/r.fxt" > "$T/one.out"
  # shellcheck disable=SC2086
  FXT_RANGE_BYTES=4096 "$FXT" stats -j 3 $mode "$T/r.fxt" > "$T/many.out"
  cmp -s "$T/one.out" "$T/many.out" || fail "-j 3 $mode differs from -j 1"
done
