# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# merge stops reading an input at a fatal error (a record of size 0: nothing after it can be
# located): /dev/zero ends at once (before: read forever), reported as damage (exit 1), and
# the next inputs are still merged.
rc=0; timeout 20 "$FXT" merge /dev/zero a.fxt -o "$T/m.fxt" 2> "$T/err" || rc=$?
expect_eq "exit status" $rc 1
grep -q "/dev/zero: 1 damaged record" "$T/err" || fail "message: $(cat "$T/err")"
expect_eq "a.fxt's events merged" "$("$FXT" dump "$T/m.fxt" | grep -c ' event ')" "$("$FXT" dump a.fxt | grep -c ' event ')"
