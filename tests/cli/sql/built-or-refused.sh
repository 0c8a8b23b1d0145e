# SPDX-License-Identifier: MIT
# not under ASan: tests/tools/cover_select.py finds none of its lines that unit.sql, unit.sql_hostile, the hostile driver and the other sql cases do not run there
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
