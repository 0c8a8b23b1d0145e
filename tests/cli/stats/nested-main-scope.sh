# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# What FXT_DURATION programs write: complete events nested 1 to 5 deep, inner first at their end,
# on two threads whose records reach the file in chunks (drained buffers), each thread inside a
# `main` scope written last around more than 6000 durations (far past the 1024 the call tree's
# nesting limit keeps). Busy time is main's duration (100 % of the span on the longest thread, not
# about twice it), and every (category, name)'s self and total time equal an independent
# computation from the spec (parent = the smallest enclosing duration); -j 3 with small ranges
# gives the same output without reading the trace again with one thread.
"$PYTHON" - "$T" <<'PY'
import os, sys, random, json; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
rnd = random.Random(2025)
names = ["frame", "update", "render", "layout", "decode", "parse", "hash", "write"]
t = magic() + init(1000000000) + string(1, "app") + string(2, "main")
for i, n in enumerate(names):
    t += string(3 + i, n)
want = {"self": {}, "total": {}, "busy": {}}
def add(name, total, child):
    want["total"][name] = want["total"].get(name, 0) + total
    want["self"][name] = want["self"].get(name, 0) + total - child
chunks = []
for th in (1, 2):
    t += thread(th, 100, 100 + th)
    clock, recs = [1 + th], []
    def scope(depth, maxdepth):
        start = clock[0]
        name = rnd.randrange(len(names))
        clock[0] += 1 + rnd.randrange(50)
        child = 0
        if depth < maxdepth:
            for _ in range(1 + rnd.randrange(3)):
                child += scope(depth + 1, maxdepth)
                clock[0] += rnd.randrange(10)
        clock[0] += 1 + rnd.randrange(50)
        recs.append(event(COMPLETE, start, th, 1, 3 + name, end_ts=clock[0]))
        add(names[name], clock[0] - start, child)
        return clock[0] - start
    m0, child = clock[0], 0
    clock[0] += 3
    while len(recs) < 6000:
        child += scope(0, rnd.randrange(5))
        clock[0] += rnd.randrange(20)
    clock[0] += 5
    recs.append(event(COMPLETE, m0, th, 1, 2, end_ts=clock[0]))
    add("main", clock[0] - m0, child)
    want["busy"]["%d" % (100 + th)] = clock[0] - m0
    chunks.append([b"".join(recs[i:i + 500]) for i in range(0, len(recs), 500)])
body = b""
for i in range(max(len(c) for c in chunks)):
    for c in chunks:
        body += c[i] if i < len(c) else b""
write(sys.argv[1] + "/m.fxt", t + body)
json.dump(want, open(sys.argv[1] + "/want.json", "w"), sort_keys=True)
PY
"$FXT" stats --top 100 --json "$T/m.fxt" > "$T/m.json"
jq -S -c '{self: ([.names[] | {(.name): .self_ns}] | add), total: ([.names[] | {(.name): .total_ns}] | add),
           busy: ([.threads[] | {(.tid | tostring): .busy_ns}] | add)}' "$T/m.json" > "$T/got.json"
expect_eq "self, total, busy" "$(cat "$T/got.json")" "$(jq -S -c . "$T/want.json")"
expect_eq "busy <= span" "$(jq -c '[.threads[] | .busy_ns <= $span] | all' --argjson span "$(jq .span_ns "$T/m.json")" "$T/m.json")" 'true'
expect_eq "nesting" "$(jq -c '[.nesting.complete_not_enclosing_all, .nesting.self_clamped]' "$T/m.json")" '[0,0]'
for mode in "" "--json --tree" "--folded"; do
  # shellcheck disable=SC2086
  "$FXT" stats -j 1 $mode "$T/m.fxt" > "$T/one.out"
  for bytes in 512 16384; do
    # shellcheck disable=SC2086
    FXT_RERUN_NOTE=1 FXT_RANGE_BYTES=$bytes "$FXT" stats -j 3 $mode "$T/m.fxt" > "$T/many.out" 2> "$T/many.err"
    cmp -s "$T/one.out" "$T/many.out" || fail "'$mode': -j 3 with $bytes-byte ranges differs from -j 1"
    [ ! -s "$T/many.err" ] || fail "'$mode', $bytes-byte ranges: $(cat "$T/many.err")"
  done
done
