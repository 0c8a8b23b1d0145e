# SPDX-License-Identifier: MIT
# needs: sqlite
# Several traces are queried together; every table's `trace` column says where a row is from.
"$FXT" sql --csv s.fxt all.fxt "select trace, count(*) > 0 from thread group by 1 order by 1"
