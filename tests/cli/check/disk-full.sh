# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: devfull
# A write error (disk full) on the text report: exit status 3 and a message.
rc=0
"$FXT" check synth.fxt > /dev/full 2> "$T/err" || rc=$?
cat "$T/err" >&2
expect_eq "exit status" $rc 3
grep -q "error writing output" "$T/err" || fail "no 'error writing output' message"
