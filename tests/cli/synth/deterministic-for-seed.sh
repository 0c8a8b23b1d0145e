# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# The same seed gives the same bytes.
"$FXT" synth --seed 7 --size 300k -o "$T/b.fxt"
cmp a.fxt "$T/b.fxt" || fail "two runs with seed 7 differ"
