# SPDX-License-Identifier: MIT
# needs: python3 jq
# -j 3 is -j 1 byte for byte (jobs_same) on damaged traces: errors at the same offsets and
# in the same order among the kept records' messages, a size-0 record mid-trace (reading
# stops), a trace cut inside a record.
"$FXT" synth --size 32k --providers 2 -o "$T/s.fxt"
"$FXT" synth --size 32k --all-records --seed 3 -o "$T/a.fxt"
# Record offsets from the dump; every 7th event record gets 15 arguments (header bits 20..23),
# which run past its size: an error, and reading goes on.
"$FXT" dump --json "$T/s.fxt" | jq -r 'select(.kind=="event") | .offset' > "$T/s.offsets"
"$FXT" dump --json "$T/a.fxt" | jq -r '.offset' > "$T/a.offsets"
"$PYTHON" - "$T" <<'PY'
import sys
t = sys.argv[1]
s = bytearray(open(t + "/s.fxt", "rb").read())
for n, off in enumerate(int(l) for l in open(t + "/s.offsets")):
    if n % 7 == 3:
        s[off + 2] |= 0xf0
open(t + "/d.fxt", "wb").write(bytes(s))
a = open(t + "/a.fxt", "rb").read()
cut = min(o for o in (int(l) for l in open(t + "/a.offsets")) if o >= 4096)
open(t + "/z.fxt", "wb").write(a[:cut] + (1).to_bytes(8, "little") + a[cut:])  # a record of size 0
open(t + "/c.fxt", "wb").write(a[:len(a) - 12])
PY
jobs_same "$T/d.fxt" --from 0ns
jobs_same "$T/d.fxt" --category gfx --to 500us
jobs_same "$T/z.fxt" --from 200us --to 600us
jobs_same "$T/c.fxt" --from 200us
# The damage is seen: more than 10 errors (only 10 reported), exit status 1.
rc=0; "$FXT" cut -j 3 "$T/d.fxt" > /dev/null 2> "$T/d.err" || rc=$?
expect_eq "damaged exit status" $rc 1
expect_eq "errors reported" "$(grep -c '(skipped)' "$T/d.err")" 10
