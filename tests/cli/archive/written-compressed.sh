# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: compression gzip zstd
# fxt writes gzip for a name ending in .gz, zstd for --compress zstd; the gzip
# and zstd commands read them back to the plain trace.
"$FXT" synth --seed 9 --events 3000 -o "$T/w.fxt.gz"
"$FXT" synth --seed 9 --events 3000 --compress zstd -o "$T/w.zz"
gzip -dc "$T/w.fxt.gz" | cmp - p.fxt || fail "gzip output differs"
zstd -q -dc "$T/w.zz" | cmp - p.fxt || fail "zstd output differs"
