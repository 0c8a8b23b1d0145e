# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: devfull python3
# A write error (disk full) ends the read at -j 1 and -j 3 alike: exit status 3, "error
# writing output", and a damaged record near the end of the input, past the first failed
# write, is never reached, so never reported.
"$FXT" synth --size 4M -o "$T/s.fxt"
last=$(damage_last_event "$T/s.fxt" "$T/d.fxt")
# the control: read whole, the damage is reported
rc=0; "$FXT" json "$T/d.fxt" -o /dev/null 2> "$T/whole.err" || rc=$?
expect_eq "control exit status" $rc 1
grep -q "$last" "$T/whole.err" || fail "the damaged record at $last is not reported when read whole"
stops_on_write_error "$last" json "$T/d.fxt"
