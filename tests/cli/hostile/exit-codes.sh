# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# Every subcommand, as a real process, on damaged traces: exit 0 or 1 (never a
# crash or a usage/limit error), and fxt check says the trace is damaged.
for f in cut.fxt overwritten.fxt; do
  for cmd in "dump" "dump --json" "check" "stats --json" "cut --from 1us" "merge" "json"; do
    rc=0
    # shellcheck disable=SC2086
    "$FXT" $cmd "$f" > "$T/out" 2> "$T/err" || rc=$?
    [ $rc -le 1 ] || fail "fxt $cmd $f: exit $rc: $(head -c 300 "$T/err")"
  done
  rc=0
  "$FXT" check "$f" > /dev/null || rc=$?
  expect_eq "fxt check $f" "$rc" 1
done
