# SPDX-License-Identifier: MIT
# needs: python3
# labels: slow
# (slow: under the sanitizers jobs-threads is the -j comparison of this area)
# -j 3 gives the same stdout, stderr and exit status as -j 1 byte for byte, with ranges forced
# small (FXT_RANGE_BYTES: 8 = every record its own range; 4096): synth traces, --all-records,
# damaged traces (errors at the same offsets), a size-0 record mid-trace, an oversized record
# cut by the end of input.
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
# Damage every 7th event record: 15 arguments (header bits 20..23) run past its size, an error;
# the size is kept, so reading goes on.
for n, off in enumerate([o for o in starts(s) if s[o] & 15 == 4]):
    if n % 7 == 3:
        s[off + 2] |= 0xf0
open(t + "/d.fxt", "wb").write(bytes(s))
z = bytearray(open(t + "/a.fxt", "rb").read())
cut = [o for o in starts(z) if o >= 4096][0]
open(t + "/cut", "w").write(str(cut))
open(t + "/z.fxt", "wb").write(bytes(z[:cut]) + word(0x1) + bytes(z[cut:]))
write(t + "/l.fxt", magic() + word(15 | ((1 << 31) << 4)) + word(0) * 4)
PY
c=$SRC/fuzz/corpus/reader
for f in "$T/s.fxt" "$T/a.fxt" "$T/d.fxt" "$T/z.fxt" "$T/l.fxt" "$c/all_records_flipped.fxt" \
         "$c/all_records_cut.fxt" "$c/all_records_be.fxt"; do
  for mode in "" "--json"; do
    rc1=0
    # shellcheck disable=SC2086
    "$FXT" dump -j 1 $mode "$f" > "$T/one.out" 2> "$T/one.err" || rc1=$?
    for bytes in 8 4096; do
      rcn=0
      # shellcheck disable=SC2086
      FXT_RANGE_BYTES=$bytes "$FXT" dump -j 3 $mode "$f" > "$T/many.out" 2> "$T/many.err" || rcn=$?
      cmp -s "$T/one.out" "$T/many.out" || fail "$f $mode: -j 3 with $bytes-byte ranges differs from -j 1"
      cmp -s "$T/one.err" "$T/many.err" || fail "$f $mode: stderr differs"
      expect_eq "$f $mode exit status" $rcn $rc1
    done
  done
done
# The inputs do exercise what they are for: records, errors at offsets, the stop at size 0.
[ "$(wc -l < "$T/one.out")" -gt 20 ] || fail "too few lines"
rc=0; "$FXT" dump --json "$T/d.fxt" > "$T/d.jsonl" 2> /dev/null || rc=$?
expect_eq "damaged exit" $rc 1
[ "$(grep -c '"kind":"error"' "$T/d.jsonl")" -ge 3 ] || fail "damaged records not reported"
rc=0; "$FXT" dump --json "$T/z.fxt" > "$T/z.jsonl" 2> /dev/null || rc=$?
expect_eq "size-0 exit" $rc 1
expect_eq "size-0 stops" "$(tail -n 1 "$T/z.jsonl" | cut -d, -f1-2)" "{\"offset\":$(cat "$T/cut"),\"kind\":\"error\""
