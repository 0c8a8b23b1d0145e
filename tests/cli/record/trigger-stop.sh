# SPDX-License-Identifier: MIT
# --trigger NAME:stop ends the recording at the alert: CMD then gets SIGTERM (exit
# 143), the archive checks clean and holds the events up to the alert; no snapshot.
export RECORD_PROG_ALERT_EVERY=200 RECORD_PROG_PACE_US=1000
rc=0
"$FXT" record --trigger frame_drop:stop -o "$T/a.fxt" -- "$PROG" emit 100000 1 exit 2> "$T/err" || rc=$?
expect_eq "exit status" $rc 143
check_clean "$T/a.fxt"
grep -q "alert frame_drop from record_prog ([0-9]*): stopping the recording" "$T/err" || fail "$(cat "$T/err")"
ls "$T" | grep -q '\.1\.fxt' && fail "a snapshot was saved"
true
