# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: shared
# With no filter, `fxt cut` keeps every event of magic-trace's trace, including
# the duration ends whose begins precede the trace (the begins never ended get
# an end at the trace's end, as in every cut); the output passes check.
in=$SHARED/samples/foreign/magictrace_kernel_pt.fxt
"$FXT" cut "$in" -o "$T/m.fxt" 2> "$T/err"
closed=$(sed -n 's/.*closed \([0-9]*\) durations.*/\1/p' "$T/err")
ends_in=$("$FXT" dump --json "$in" | grep -c '"event":"duration_end"')
expect_eq "duration ends" "$("$FXT" dump --json "$T/m.fxt" | grep -c '"event":"duration_end"')" "$((ends_in + closed))"
expect_eq "events" "$("$FXT" dump --json "$T/m.fxt" | grep -c '"kind":"event"')" \
  "$(($("$FXT" dump --json "$in" | grep -c '"kind":"event"') + closed))"
"$FXT" check "$T/m.fxt" > /dev/null || fail "check failed on the cut trace"
