# SPDX-License-Identifier: MIT
# needs: python3 jq
# Histograms are kept per decoding thread, not per range, and added up after the read: none may
# leak across ranges or into the re-read that a split-dependent limit asks for. Every record its
# own range (FXT_RANGE_BYTES=8) and 300 nested durations make -j 2 and -j 3 read again with one
# thread (more than 256 open across a boundary), on the main thread, which decodes some of the
# first read's ~1000 ranges itself (too many in flight).
# Percentiles sit on a bucket boundary (983040 is the bucket of 1 ms): one duration counted twice
# or lost moves them.
"$PYTHON" - "$T/deep.fxt" <<'PY'
import os, sys; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
t = magic() + init(1000000000) + string(1, "c") + string(2, "a") + string(3, "b") + string(4, "deep")
t += thread(1, 10, 11)
ts = 1000
# a: 100 of 1000 ns then 100 of 1 ms (p50 is the first long one); b: 101 short, 99 long (p50 short)
for name, short, long in ((2, 100, 100), (3, 101, 99)):
    for d in [1000] * short + [1000000] * long:
        t += event(COMPLETE, ts, 1, 1, name, end_ts=ts + d)
        ts += d + 10
for i in range(300):
    t += event(BEGIN, ts + i, 1, 1, 4)
for i in range(300):
    t += event(END, ts + 1000 + i, 1, 1, 4)
write(sys.argv[1], t)
PY
"$FXT" stats -j 1 --json "$T/deep.fxt" > "$T/one.json" 2> "$T/one.err" || fail "stats -j 1"
for j in 2 3; do
  FXT_RANGE_BYTES=8 "$FXT" stats -j $j --json "$T/deep.fxt" > "$T/many.json" 2> "$T/many.err" || fail "stats -j $j"
  cmp -s "$T/one.json" "$T/many.json" || fail "-j $j with 8-byte ranges differs from -j 1"
  cmp -s "$T/one.err" "$T/many.err" || fail "-j $j: stderr differs"
done
p() { jq -c "[.names[] | select(.name==\"$1\") | .p50_ns, .p90_ns, .count]" "$T/one.json"; }
expect_eq "a: p50, p90 long" "$(p a)" '[983040,983040,200]'
expect_eq "b: p50 short, p90 long" "$(p b)" '[1000,983040,200]'
