# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# labels: threads
# The parallel read under TSan, light (jobs-identical is the thorough comparison): -j 3 on
# 4096-byte ranges of a synth trace gives -j 1's summary, with --tree, byte for byte.
"$FXT" stats -j 1 --tree s.fxt > "$T/one.out" 2>&1 || fail "stats -j 1: $(tail -2 "$T/one.out")"
FXT_RANGE_BYTES=4096 "$FXT" stats -j 3 --tree s.fxt > "$T/many.out" 2>&1 || fail "stats -j 3"
cmp -s "$T/one.out" "$T/many.out" || fail "-j 3 with 4096-byte ranges differs from -j 1"
grep -q "worker-0" "$T/one.out" || fail "no thread in the summary"
