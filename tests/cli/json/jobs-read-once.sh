# SPDX-License-Identifier: MIT
# needs: python3
# Under -j, flows and asyncs are bound and matched by the merges of the ranges that read them:
# the input is read once (FXT_RERUN_NOTE puts a note on stderr whenever json reads it again)
# and the output is -j 1's, with chains crossing ranges and providers. Only nesting past 4096
# begins on a thread reads again, and says so.
"$FXT" synth --providers 3 --size 300k -o "$T/s.fxt"
"$FXT" json -j 1 "$T/s.fxt" > "$T/one.out" 2> "$T/one.err"
[ "$(grep -c '"ph":"[stfbne]"' "$T/one.out")" -gt 100 ] || fail "the synth trace has too few flow and async events"
for bytes in 8 4096; do
  FXT_RERUN_NOTE=1 FXT_RANGE_BYTES=$bytes "$FXT" json -j 3 "$T/s.fxt" > "$T/many.out" 2> "$T/many.err"
  cmp -s "$T/one.out" "$T/many.out" || fail "-j 3 with $bytes-byte ranges differs from -j 1"
  cmp -s "$T/one.err" "$T/many.err" || fail "$bytes-byte ranges: stderr differs: $(cat "$T/many.err")"
done
"$PYTHON" - "$T" <<'PY'
import os, sys; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
d = magic() + provider_info(1, "p") + thread(1, 5, 6) + string(1, "c") + string(2, "n")
d += b"".join(event(BEGIN, 1000 + k, 1, 1, 2) for k in range(4100))
d += b"".join(event(END, 9000 + k, 1, 1, 2) for k in range(4100))
write(sys.argv[1] + "/d.fxt", d)
PY
FXT_RERUN_NOTE=1 FXT_RANGE_BYTES=4096 "$FXT" json -j 3 "$T/d.fxt" > /dev/null 2> "$T/deep.err"
grep -q "note: reading again from offset" "$T/deep.err" || fail "nesting past 4096: no note of the second read"
