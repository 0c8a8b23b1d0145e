# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# Another seed gives another trace.
"$FXT" synth --seed 8 --size 300k -o "$T/c.fxt"
! cmp -s a.fxt "$T/c.fxt" || fail "seeds 7 and 8 give the same trace"
