# SPDX-License-Identifier: MIT
# needs: python3
# A trace shaped like FXT_DURATION programs write them: complete events nested up to 6 deep on 3
# threads, each inside a `main` scope written last, a few begin/end pairs among them. -j 3 with
# ranges of 512 bytes and 4 KiB (scopes across every boundary, the nesting limit passed) gives the
# same output as -j 1, and does so by nesting across ranges in the merge, not by reading the trace
# again with one thread (FXT_RERUN_NOTE says when it does: docs/stats.md).
"$PYTHON" - "$T/s.fxt" <<'PY'
import os, sys, random; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
rnd = random.Random(7)
t = magic() + init(1000000000) + string(1, "c")
for i in range(12):
    t += string(2 + i, "n%d" % i)
recs = []
for th in (1, 2, 3):
    t += thread(th, 10, 10 + th)
    clock = [rnd.randrange(50)]
    def scope(depth):
        pair = rnd.random() < 0.1
        name = 2 + rnd.randrange(12)
        start = clock[0]
        clock[0] += 1 + rnd.randrange(5)
        if pair:
            recs.append((start, 0, event(BEGIN, start, th, 1, name)))
        if depth < 5:
            for _ in range(1 + rnd.randrange(3)):
                scope(depth + 1)
                clock[0] += rnd.randrange(4)
        clock[0] += 1 + rnd.randrange(5)
        end = clock[0]
        clock[0] += 1
        recs.append((end, 1, event(END, end, th, 1, name) if pair else
                     event(COMPLETE, start, th, 1, name, end_ts=end)))
    s0 = clock[0]
    while clock[0] < 30000:
        scope(rnd.randrange(3))
        clock[0] += rnd.randrange(20)
    recs.append((clock[0] + 1, 1, event(COMPLETE, s0, th, 1, 2, end_ts=clock[0] + 1)))
recs.sort(key=lambda r: (r[0], r[1]))
write(sys.argv[1], t + b"".join(r[2] for r in recs))
PY
for mode in "" "--json --tree" "--folded" "--top 5"; do
  # shellcheck disable=SC2086
  "$FXT" stats -j 1 $mode "$T/s.fxt" > "$T/one.out"
  for bytes in 512 4096; do
    # shellcheck disable=SC2086
    FXT_RERUN_NOTE=1 FXT_RANGE_BYTES=$bytes "$FXT" stats -j 3 $mode "$T/s.fxt" > "$T/many.out" 2> "$T/many.err"
    cmp -s "$T/one.out" "$T/many.out" || fail "'$mode': -j 3 with $bytes-byte ranges differs from -j 1"
    [ ! -s "$T/many.err" ] || fail "'$mode', $bytes-byte ranges: $(cat "$T/many.err")"
  done
done
