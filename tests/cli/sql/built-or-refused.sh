# SPDX-License-Identifier: MIT
# fxt sql is there in every build: built without SQLite it says in one line what it lacks
# (exit 2); with it, it answers. (One case for both builds, so neither skips.)
if ! have sqlite; then
  rc=0
  "$FXT" sql s.fxt "select 1" 2> "$T/err" || rc=$?
  expect_eq "without SQLite" "$rc $(cat "$T/err")" \
    "2 fxt sql: this fxt was built without SQLite (install libsqlite3-dev and rebuild)"
else
  expect_eq "with SQLite" "$("$FXT" sql --csv s.fxt "select 1 as x")" "x
1"
fi
