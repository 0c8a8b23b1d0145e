# SPDX-License-Identifier: MIT
# needs: python3
# -j 3 gives the output, error lines (same offsets, the first 20 in full, then the count)
# and exit status of -j 1 on damaged traces: many damaged event records, a size-0 record
# mid-trace (reading stops), a trace cut inside a record; the fuzz corpus's flipped trace.
"$PYTHON" - s.fxt s.jsonl "$T" <<'PY'
import json, os, sys; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
s, t = bytearray(open(sys.argv[1], "rb").read()), sys.argv[3]
# event records' offsets, from fxt dump --json (the setup's s.jsonl)
ev = [r["offset"] for r in map(json.loads, open(sys.argv[2])) if r["kind"] == "event"]
d = bytearray(s)
# every 9th event record: 15 arguments (header bits 20..23) run past its size; reading goes on
for n, off in enumerate(ev):
    if n % 9 == 4:
        d[off + 2] |= 0xf0
open(t + "/d.fxt", "wb").write(bytes(d))
cut = ev[len(ev) // 2]
open(t + "/z.fxt", "wb").write(bytes(s[:cut]) + word(0x4) + bytes(s[cut:]))
open(t + "/c.fxt", "wb").write(bytes(s[:ev[-10] + 12]))
PY
for f in "$T/d.fxt" "$T/z.fxt" "$T/c.fxt"; do
  same_any_jobs "$f"
  expect_eq "$f exit status" "$(cat "$T/one.rc")" 1
done
same_any_jobs "$SRC/fuzz/corpus/reader/all_records_flipped.fxt"
same_any_jobs "$T/d.fxt" --time-base=trace-start --system-events=fuchsia
grep -q "further damaged records are only counted" "$T/one.err" || fail "fewer than 21 damaged records"
[ "$(grep -c ': offset [0-9]*: ' "$T/one.err")" = 20 ] || fail "not 20 error lines"
