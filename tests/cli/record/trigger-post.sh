# SPDX-License-Identifier: MIT
# needs: python3
# --post 40ms: the snapshot also holds the 40 ms after the alert (the alerting thread
# went on past it), and nothing after the alert + 40 ms; an unnumbered -o names
# snapshots NAME.N.fxt and keeps NAME.fxt for the final archive.
export RECORD_PROG_ALERT_EVERY=500 RECORD_PROG_ALERT_SLEEP_MS=0 RECORD_PROG_PACE_US=50
"$FXT" record --mode circular --buffer-size 1M --trigger frame_drop --post 40ms --max-snapshots 1 \
  -o "$T/run.fxt" -- "$PROG" emit 3000 2 exit 2> "$T/err" || fail "fxt record: $(cat "$T/err")"
snap_check "$T/run.1.fxt" alert 499 40000000
[ ! -e "$T/run.2.fxt" ] || fail "--max-snapshots 1 saved a second snapshot"
grep -q "1 snapshot saved, [0-9]* triggers\? ignored past --max-snapshots 1" "$T/err" || fail "summary: $(cat "$T/err")"
check_clean "$T/run.fxt"
