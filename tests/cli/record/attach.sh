# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3
# fxt record --attach: a process started independently joins the recording
# with FXT_TRACE_MANAGER; SIGTERM ends the recording with its events.
"$FXT" record --attach -o "$T/a.fxt" 2> "$T/err" &
rec=$!
while ! grep -q "processes join with" "$T/err"; do sleep 0.01; done
sock=$(sed -n 's/.*processes join with FXT_TRACE_MANAGER=//p' "$T/err")
FXT_TRACE_MANAGER=$sock "$PROG" emit 500 2 exit
kill -TERM $rec
rc=0
wait $rec || rc=$?
expect_eq "exit status" $rc 0
[ ! -e "$sock" ] || fail "socket $sock left behind"
check_clean "$T/a.fxt"
verify "$T/a.fxt" threads oneshot 500 2
grep -q "total: 1 processes, 1001 events" "$T/err" || fail "summary: $(cat "$T/err")"
