# SPDX-License-Identifier: MIT
# needs: devfull
# A full disk says so: "No space left on device" (before: "input/output error"; json: no
# reason at all; dump, stats, check: none either), exit 3.
for c in "cut a.fxt" "merge a.fxt b.fxt" "synth --events 20000" "json a.fxt" "json -j 1 a.fxt"; do
  rc=0; "$FXT" $c -o /dev/full 2> "$T/err" || rc=$?
  expect_eq "$c: exit status" $rc 3
  expect_eq "$c: message" "$(cat "$T/err")" "fxt ${c%% *}: error writing output: No space left on device"
done
# the tools that print to stdout say it too
for c in "dump a.fxt" "dump --json a.fxt" "dump -j 1 a.fxt" "stats a.fxt" "stats --json a.fxt" "check --json a.fxt"; do
  rc=0; "$FXT" $c > /dev/full 2> "$T/err" || rc=$?
  expect_eq "$c > /dev/full: exit status" $rc 3
  expect_eq "$c > /dev/full: message" "$(cat "$T/err")" "fxt ${c%% *}: error writing output: No space left on device"
done
