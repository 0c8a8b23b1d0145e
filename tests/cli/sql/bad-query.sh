# SPDX-License-Identifier: MIT
# needs: sqlite
# A bad query is exit status 2 with SQLite's message; the statements before it have run.
printf "select 7 as x; selec 1; select 8;" | "$FXT" sql --csv s.fxt
