# SPDX-License-Identifier: MIT
# needs: sqlite
# "-" reads the trace from standard input (a pipe), with the same answer as the file.
q="select count(*), sum(dur) from slice"
expect_eq "stdin = file" "$(cat s.fxt | "$FXT" sql --csv - "$q")" "$("$FXT" sql --csv s.fxt "$q")"
