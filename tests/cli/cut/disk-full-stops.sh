# SPDX-License-Identifier: MIT
# needs: devfull python3
# A write error (disk full) ends the read at -j 1 and -j 3 alike: exit status 3, "error
# writing output", and a damaged record near the end of the input, past the first failed
# write (the writer flushes 1 MiB at a time), is never reached, so never reported.
"$FXT" synth --size 4M -o "$T/s.fxt"
last=$(damage_last_event "$T/s.fxt" "$T/d.fxt")
# the control: read whole, the damage is reported (logic, checked in the plain phase: under the
# sanitizers, which need the write-error path below, a whole read of 4 MB is some 0.9 s)
if ! sanitized; then
  rc=0; "$FXT" cut --from 0ns "$T/d.fxt" -o /dev/null 2> "$T/whole.err" || rc=$?
  expect_eq "control exit status" $rc 1
  grep -q "offset $last" "$T/whole.err" || fail "the damaged record at $last is not reported when read whole"
fi
stops_on_write_error "$last" cut --from 0ns "$T/d.fxt"
