# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# labels: threads
# The parallel read under TSan, light (jobs-identical is the thorough comparison): -j 3 on
# 4096-byte ranges of a synth trace dumps the same JSON lines as -j 1, byte for byte.
"$FXT" synth --size 64k --providers 2 -o "$T/s.fxt"
"$FXT" dump --json -j 1 "$T/s.fxt" > "$T/one.out" 2>&1 || fail "dump -j 1"
FXT_RANGE_BYTES=4096 "$FXT" dump --json -j 3 "$T/s.fxt" > "$T/many.out" 2>&1 || fail "dump -j 3"
cmp -s "$T/one.out" "$T/many.out" || fail "-j 3 with 4096-byte ranges differs from -j 1"
[ "$(wc -l < "$T/one.out")" -gt 1000 ] || fail "too few records: $(wc -l < "$T/one.out")"
