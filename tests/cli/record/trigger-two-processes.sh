# SPDX-License-Identifier: MIT
# needs: python3
# Two processes, one raising the alert: the snapshot cuts both at the alert's moment
# (no event after it in either; both have events just before it).
export RECORD_PROG_PACE_US=100
"$FXT" record --mode circular --buffer-size 1M --trigger frame_drop --max-snapshots 1 -o "$T/p-%n.fxt" -- \
  sh -c "RECORD_PROG_ALERT_EVERY=800 '$PROG' emit 1500 1 exit & '$PROG' emit 1500 1 exit; wait" \
  2> "$T/err" || fail "fxt record: $(cat "$T/err")"
snap_check "$T/p-1.fxt" alert 799 0 2
check_clean "$T/p-final.fxt"
