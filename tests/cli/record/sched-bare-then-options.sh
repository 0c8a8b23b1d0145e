# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# lock: tracefs
# A bare --sched takes no value: the options after it are fxt record's, CMD starts at
# "--". (With or without root: without tracefs the processes are recorded anyway.)
"$FXT" record --sched -o "$T/a.fxt" --mode circular -- "$PROG" emit 100 1 exit 2> "$T/err" ||
  fail "record: $(cat "$T/err")"
[ -s "$T/a.fxt" ] || fail "no archive at -o's path: $(cat "$T/err")"
expect_eq "events" "$("$FXT" dump --json "$T/a.fxt" | grep -c '"name":"ev"')" 100
