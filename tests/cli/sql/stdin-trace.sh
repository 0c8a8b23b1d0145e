# SPDX-License-Identifier: MIT
# needs: sqlite
# "-" reads the trace from standard input (a pipe), with the same answers as the file.
q="select count(*), sum(dur) from slice"
expect_eq "stdin = file" "$(cat s.fxt | "$FXT" sql --csv - "$q")" "$("$FXT" sql --csv s.fxt "$q")"
# its arguments too: read again from the copy of standard input when the query first uses them
q="select count(*), count(distinct key), sum(int_value) from args"
expect_eq "args: stdin = file" "$(cat all.fxt | "$FXT" sql --csv - "$q")" "$("$FXT" sql --csv all.fxt "$q")"
