# SPDX-License-Identifier: MIT
# needs: sqlite
# not under ASan: tests/tools/cover_select.py finds none of its lines that unit.sql, unit.sql_hostile, the hostile driver and the other sql cases do not run there
# A trace that cannot be read: one line, exit status 3, no query run.
"$FXT" sql --csv s.fxt "$T/nope.fxt" "select 1"
