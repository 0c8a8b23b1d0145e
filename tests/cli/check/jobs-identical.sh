# SPDX-License-Identifier: MIT
# needs: python3 jq
# -j 3 gives the same stdout, stderr and exit status as -j 1 byte for byte, with ranges forced
# small (FXT_RANGE_BYTES: 8 = every record its own range; 4096): synth traces (also
# --all-records, big-endian), a damaged one (reports at the same offsets; durations whose
# begin and end lie in different ranges, renamed ends, time going backwards, chains left
# open), one cut mid-record; with every option that changes the output.
"$FXT" synth --size 32k --providers 2 --all-records -o "$T/s.fxt"
"$FXT" synth --size 16k --big-endian --all-records --seed 5 -o "$T/be.fxt"
# The event records' offsets, from fxt dump.
"$FXT" dump --json "$T/s.fxt" | jq -r 'select(.kind == "event") | .offset' > "$T/events"
"$PYTHON" - "$T" <<'PY'
import sys
t = sys.argv[1]
s = bytearray(open(t + "/s.fxt", "rb").read())
for n, off in enumerate(int(line) for line in open(t + "/events")):
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
for mode in "" "--json" "--strict" "--max-per-rule 0" "--max-per-rule 2 --json"; do
  # shellcheck disable=SC2086
  same_jobs "$T/d.fxt" 8 4096 -- $mode
done
for f in s be cut; do
  same_jobs "$T/$f.fxt" 8 4096 --
  same_jobs "$T/$f.fxt" 8 4096 -- --json
done
# The inputs hold what crosses ranges: the damaged trace reports every state-dependent rule.
"$FXT" check --max-per-rule 0 "$T/d.fxt" > "$T/d.txt" || true
for rule in damaged duration-name duration-unclosed ts-backwards async-never-ended pair-after-loss; do
  grep -q " $rule " "$T/d.txt" || fail "the damaged trace has no $rule report"
done
"$FXT" check "$T/s.fxt" > "$T/s.txt" || fail "the synth trace is not valid"
"$FXT" check "$T/cut.fxt" > "$T/cut.txt" && fail "the cut trace is valid"
grep -q " truncated " "$T/cut.txt" || fail "the cut trace is not truncated"
