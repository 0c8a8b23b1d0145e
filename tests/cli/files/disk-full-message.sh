# SPDX-License-Identifier: MIT
# needs: devfull
# A full disk says so: "No space left on device" (before: "input/output error"; json: no
# reason at all), exit 3.
for c in "cut a.fxt" "merge a.fxt b.fxt" "synth --events 20000" "json a.fxt" "json -j 1 a.fxt"; do
  rc=0; "$FXT" $c -o /dev/full 2> "$T/err" || rc=$?
  expect_eq "$c: exit status" $rc 3
  expect_eq "$c: message" "$(cat "$T/err")" "fxt ${c%% *}: error writing output: No space left on device"
done
