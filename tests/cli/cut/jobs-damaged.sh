# SPDX-License-Identifier: MIT
# needs: python3
# -j 3 is -j 1 byte for byte (jobs_same) on damaged traces: errors at the same offsets and
# in the same order among the kept records' messages, a size-0 record mid-trace (reading
# stops), a trace cut inside a record.
"$FXT" synth --size 32k --providers 2 -o "$T/s.fxt"
"$FXT" synth --size 32k --all-records --seed 3 -o "$T/a.fxt"
"$PYTHON" - "$T" <<'PY'
import os, sys; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
t = sys.argv[1]
s = bytearray(open(t + "/s.fxt", "rb").read())
def starts(b):
    off = 0
    while off + 8 <= len(b):
        yield off
        h = int.from_bytes(b[off:off + 8], "little")
        off += 8 * (((h >> 4) & 0xffffffff) if h & 15 == 15 else ((h >> 4) & 0xfff))
# Every 7th event record gets 15 arguments (header bits 20..23), running past its size: an error.
for n, off in enumerate([o for o in starts(s) if s[o] & 15 == 4]):
    if n % 7 == 3:
        s[off + 2] |= 0xf0
open(t + "/d.fxt", "wb").write(bytes(s))
z = bytearray(open(t + "/a.fxt", "rb").read())
cut = [o for o in starts(z) if o >= 4096][0]
open(t + "/z.fxt", "wb").write(bytes(z[:cut]) + word(0x1) + bytes(z[cut:]))
open(t + "/c.fxt", "wb").write(bytes(z[:len(z) - 12]))
PY
jobs_same "$T/d.fxt"
jobs_same "$T/d.fxt" --category gfx --to 500us
jobs_same "$T/z.fxt" --from 200us --to 600us
jobs_same "$T/c.fxt" --from 200us
# The damage is seen: more than 10 errors (only 10 reported), exit status 1.
rc=0; "$FXT" cut -j 3 "$T/d.fxt" > /dev/null 2> "$T/d.err" || rc=$?
expect_eq "damaged exit status" $rc 1
expect_eq "errors reported" "$(grep -c '(skipped)' "$T/d.err")" 10
