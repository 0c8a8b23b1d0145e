# SPDX-License-Identifier: MIT
# needs: sqlite
# not under ASan: tests/tools/cover_select.py finds none of its lines that unit.sql, unit.sql_hostile, the hostile driver and the other sql cases do not run there
# The default output: an aligned table (numbers right, text left, NULL shown), header and rule.
"$FXT" sql s.fxt "select tid, name, upid, null as n from thread order by tid"
