# SPDX-License-Identifier: MIT
# needs: python3
# -j 3 gives the same stdout, stderr and exit status as -j 1 byte for byte, with ranges forced
# small (FXT_RANGE_BYTES: 8 = every record its own range; 4096): synth traces (also
# --all-records, big-endian), a damaged one (reports at the same offsets; durations whose
# begin and end lie in different ranges, renamed ends, time going backwards, chains left
# open), one cut mid-record; with every option that changes the output.
"$FXT" synth --size 32k --providers 2 --all-records -o "$T/s.fxt"
"$FXT" synth --size 16k --big-endian --all-records --seed 5 -o "$T/be.fxt"
"$PYTHON" - "$T" <<'PY'
import sys
t = sys.argv[1]
s = bytearray(open(t + "/s.fxt", "rb").read())
def starts(b):
    off = 0
    while off + 8 <= len(b):
        yield off
        h = int.from_bytes(b[off:off + 8], "little")
        off += 8 * (((h >> 4) & 0xffffffff) if h & 15 == 15 else ((h >> 4) & 0xfff))
for n, off in enumerate([o for o in starts(s) if s[o] & 15 == 4]):
    if n % 29 == 3:
        s[off + 2] |= 0xf0  # 15 arguments past the record's size: damaged
    if n % 13 == 5:
        s[off + 2] ^= 0x01  # event type: begin <-> end, async/flow begin <-> instant/step, ...
    if n % 17 == 2:
        s[off + 8] ^= 0x40  # the timestamp jumps
open(t + "/d.fxt", "wb").write(bytes(s))
open(t + "/cut.fxt", "wb").write(bytes(s[:len(s) // 2 + 3]))
PY
# Every option that changes the output on the damaged trace, the others in text and JSON.
for f in d s be cut; do
  modes=("" "--json")
  [ $f = d ] && modes=("" "--json" "--strict" "--max-per-rule 0" "--max-per-rule 2 --json")
  for mode in "${modes[@]}"; do
    rc1=0
    # shellcheck disable=SC2086
    "$FXT" check -j 1 $mode "$T/$f.fxt" > "$T/one.out" 2> "$T/one.err" || rc1=$?
    for bytes in 8 4096; do
      rcn=0
      # shellcheck disable=SC2086
      FXT_RANGE_BYTES=$bytes "$FXT" check -j 3 $mode "$T/$f.fxt" > "$T/many.out" 2> "$T/many.err" || rcn=$?
      cmp -s "$T/one.out" "$T/many.out" || fail "$f $mode: -j 3 with $bytes-byte ranges differs from -j 1"
      cmp -s "$T/one.err" "$T/many.err" || fail "$f $mode: stderr differs"
      expect_eq "$f $mode exit status" $rcn $rc1
    done
  done
done
# The inputs hold what crosses ranges: the damaged trace reports every state-dependent rule.
"$FXT" check --max-per-rule 0 "$T/d.fxt" > "$T/d.txt" || true
for rule in damaged duration-name duration-unclosed ts-backwards async-never-ended pair-after-loss; do
  grep -q " $rule " "$T/d.txt" || fail "the damaged trace has no $rule report"
done
"$FXT" check "$T/s.fxt" > "$T/s.txt" || fail "the synth trace is not valid"
"$FXT" check "$T/cut.fxt" > "$T/cut.txt" && fail "the cut trace is valid"
grep -q " truncated " "$T/cut.txt" || fail "the cut trace is not truncated"
