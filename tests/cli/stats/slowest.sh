# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# The slowest events with start, thread and arguments; ties by start, then by position.
expect_eq "slowest [name,duration,ts,tid]" "$(q '[.slowest[] | [.name,.duration_ns,.ts_ns,.tid]]')" \
  '[["A",3000,3000,11],["C",2000,8000,11],["A",1000,1000,11],["D",1000,1000,21],["C",500,7000,11],["B",300,3100,11]]'
"$FXT" stats --top 2 known.fxt > "$T/top2.txt"
grep -A2 '^slowest events' "$T/top2.txt" > "$T/slow.txt"
expect_eq "text rows" "$(sed 1d "$T/slow.txt" | awk '{print $1, $2, $3, $4}')" "$(printf '3000 3.000 10/11 cat/A\n2000 8.000 10/11 cat/C')"
