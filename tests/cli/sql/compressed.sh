# SPDX-License-Identifier: MIT
# needs: sqlite compression gzip zstd
# gzip and zstd traces are read as they are, with the answers of the plain trace.
q="select count(*), sum(dur), count(distinct name) from slice; select count(*) from args"
gzip -c s.fxt > "$T/s.fxt.gz"
zstd -q -c s.fxt > "$T/s.fxt.zst"
want=$("$FXT" sql --csv s.fxt "$q")
expect_eq gzip "$("$FXT" sql --csv "$T/s.fxt.gz" "$q")" "$want"
expect_eq zstd "$("$FXT" sql --csv "$T/s.fxt.zst" "$q")" "$want"
