# SPDX-License-Identifier: MIT
# needs: python3
# An exec chain (issue 24.2): each image stops its session, then execs the next
# one, same pid, same environment. Standalone, every image writes a file of its
# own (the n-th image of a pid: "<path>-<n>"), none over another; under fxt record
# every image's events are in the archive.
unset FXT_TRACE_MANAGER
FXT_TRACE_OUTPUT="$T/x.fxt" "$PROG" exec 30 3
expect_eq "files" "$(ls "$T" | grep -E '^x\.fxt' | sort | tr '\n' ' ')" "x.fxt x.fxt-2 x.fxt-3 x.fxt-4 "
n=3
for f in x.fxt x.fxt-2 x.fxt-3 x.fxt-4; do
  check_clean "$T/$f"
  expect_eq "$f: events" "$("$FXT" dump --json "$T/$f" | grep -c '"name":"ev"')" 30
  expect_eq "$f: image" "$("$FXT" dump --json "$T/$f" | grep '"name":"ev"' | grep -c "\"name\":\"thread\",\"type\":\"int64\",\"value\":$n}")" 30
  n=$((n - 1))
done
"$FXT" record -o "$T/r.fxt" -- "$PROG" exec 30 3 2> "$T/err"
check_clean "$T/r.fxt"
expect_eq "events under fxt record" "$("$FXT" dump --json "$T/r.fxt" | grep -c '"name":"ev"')" 120
