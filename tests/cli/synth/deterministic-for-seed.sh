# SPDX-License-Identifier: MIT
# The same seed gives the same bytes.
"$FXT" synth --seed 7 --size 300k -o "$T/b.fxt"
cmp a.fxt "$T/b.fxt" || fail "two runs with seed 7 differ"
