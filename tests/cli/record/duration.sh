# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# --duration ends the recording while CMD runs: its committed events are in the
# archive, CMD then gets SIGTERM and fxt record exits with 128+15.
rc=0
"$FXT" record --duration 0.6s -o "$T/a.fxt" -- "$PROG" emit 100 1 hang > /dev/null 2> "$T/err" || rc=$?
expect_eq "exit status" $rc 143
check_clean "$T/a.fxt"
expect_eq "events" "$("$FXT" dump --json "$T/a.fxt" | grep -c '"name":"ev"')" 100
grep -q "still running when recording stopped" "$T/err" || fail "summary: $(cat "$T/err")"
