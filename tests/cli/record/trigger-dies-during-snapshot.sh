# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3
# Fault injection: the provider SIGKILLs itself right after its alert, while the manager
# copies its buffer: the snapshot is whole (it holds the buffer as the process left it)
# and the final archive says the provider was killed by signal 9.
export RECORD_PROG_ALERT_EVERY=2000 RECORD_PROG_ALERT_KILL=1
rc=0
"$FXT" record --mode circular --buffer-size 4M --trigger frame_drop --on-crash -o "$T/k-%n.fxt" -- \
  "$PROG" emit 5000 2 exit 2> "$T/err" || rc=$?
expect_eq "exit status" $rc 137
snap_check "$T/k-1.fxt" alert 1999 0
check_clean "$T/k-final.fxt"
grep -q "killed by signal 9" "$T/err" || fail "summary: $(cat "$T/err")"
# --on-crash: the death joins the alert's snapshot when it was still being taken, else it
# makes a second one, holding the dead provider as it was left
[ ! -e "$T/k-2.fxt" ] || snap_check "$T/k-2.fxt" crash -1 0
[ ! -e "$T/k-3.fxt" ] || fail "a third snapshot"
