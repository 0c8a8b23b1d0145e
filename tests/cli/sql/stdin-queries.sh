# SPDX-License-Identifier: MIT
# needs: sqlite
# Without a QUERY argument the queries come from standard input, `;`-separated (a `;` inside a
# string is not a separator); each result prints in turn, a blank line between them.
printf "select count(*) as n from thread;\n-- a comment\nselect 'a;b' as s;\n" | "$FXT" sql --csv s.fxt
