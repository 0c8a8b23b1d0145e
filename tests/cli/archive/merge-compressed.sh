# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: compression gzip
# merge reads a zstd input and writes a gzip archive (by the names): the
# archive passes fxt check and is the plain merge (m.fxt) compressed.
"$FXT" synth --seed 2 --events 1000 --ticks-per-second 19200000 -o "$T/b.fxt.zst"
"$FXT" merge a.fxt "$T/b.fxt.zst" c.fxt ftr.fxt --offset a.fxt=1500 -o "$T/m.fxt.gz"
"$FXT" check "$T/m.fxt.gz" > "$T/check"
grep -q " 0 errors" "$T/check" || fail "fxt check: $(cat "$T/check")"
gzip -dc "$T/m.fxt.gz" | cmp - m.fxt || fail "not the plain merge"
