# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3
# The issue's example: a circular recording with --trigger frame_drop -o drop-%n.fxt,
# a program raising the alert 3 times while it runs on: one archive per alert, each
# holding every event up to the alert (gap-free per thread, none after it), a summary
# line each; the final archive (drop-final.fxt) is complete as without triggers.
export RECORD_PROG_ALERT_EVERY=1000 RECORD_PROG_PACE_US=20
"$FXT" record --mode circular --buffer-size 1M --trigger frame_drop -o "$T/drop-%n.fxt" -- \
  "$PROG" emit 3000 2 exit 2> "$T/err" || fail "fxt record: $(cat "$T/err")"
for n in 1 2 3; do
  snap_check "$T/drop-$n.fxt" alert $((n * 1000 - 1)) 0
done
[ ! -e "$T/drop-4.fxt" ] || fail "a fourth snapshot"
expect_eq "summary lines" "$(grep -c '^fxt record: snapshot [123] (alert frame_drop from record_prog' "$T/err")" 3
grep -q "^fxt record: 3 snapshots saved$" "$T/err" || fail "no total line: $(cat "$T/err")"
check_clean "$T/drop-final.fxt"
verify "$T/drop-final.fxt" threads circular 3000 2
ls -a "$T" | grep -q partial && fail "a temporary snapshot file was left"
true
