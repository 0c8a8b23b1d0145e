# SPDX-License-Identifier: MIT
# needs: sqlite
# not under ASan: tests/tools/cover_select.py finds none of its lines that unit.sql, unit.sql_hostile, the hostile driver and the other sql cases do not run there
# Several traces are queried together; every table's `trace` column says where a row is from.
"$FXT" sql --csv s.fxt all.fxt "select trace, count(*) > 0 from thread group by 1 order by 1"
