# SPDX-License-Identifier: MIT
# The flight recorder's usage errors (exit 2, nothing started, no file made).
for args in "--mode streaming --trigger x" "--mode streaming --on-crash" "--trigger x:later" "--trigger :snapshot" \
  "--snapshot-on-signal TERM" "--snapshot-on-signal NOPE" "--max-snapshots 0 --trigger x" "--post 5parsecs"; do
  rc=0
  # shellcheck disable=SC2086
  "$FXT" record $args -o "$T/a.fxt" -- true 2> "$T/err" || rc=$?
  expect_eq "$args: exit status" $rc 2
  [ ! -e "$T/a.fxt" ] || fail "$args: made the archive"
done
rc=0
"$FXT" record --trigger x -o - -- true > "$T/out" 2> "$T/err" || rc=$?
expect_eq "-o -: exit status" $rc 2
