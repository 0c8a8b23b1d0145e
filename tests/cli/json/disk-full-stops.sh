# SPDX-License-Identifier: MIT
# needs: devfull python3 jq
# A write error (disk full) ends the read at -j 1 and -j 3 alike: exit status 3, "error
# writing output", and a damaged record near the end of the input, past the first failed
# write, is never reached, so never reported.
"$FXT" synth --size 4M -o "$T/s.fxt"
last=$("$FXT" dump --json "$T/s.fxt" | jq -r 'select(.kind=="event") | .offset' | tail -1)
"$PYTHON" - "$T/s.fxt" "$last" "$T/d.fxt" <<'PY'
import sys
s = bytearray(open(sys.argv[1], "rb").read())
s[int(sys.argv[2]) + 2] |= 0xf0  # 15 arguments: they run past the record's size
open(sys.argv[3], "wb").write(bytes(s))
PY
# the control: read whole, the damage is reported
rc=0; "$FXT" json "$T/d.fxt" -o /dev/null 2> "$T/whole.err" || rc=$?
expect_eq "control exit status" $rc 1
grep -q "$last" "$T/whole.err" || fail "the damaged record at $last is not reported when read whole"
for j in 1 3; do
  rc=0; FXT_RANGE_BYTES=65536 "$FXT" json -j $j "$T/d.fxt" -o /dev/full 2> "$T/err$j" || rc=$?
  cat "$T/err$j" >&2
  expect_eq "-j $j exit status" $rc 3
  grep -q "error writing output" "$T/err$j" || fail "-j $j: no 'error writing output' message"
  if grep -q "$last" "$T/err$j"; then
    fail "-j $j: read on to the end after the write error"
  fi
done
