# SPDX-License-Identifier: MIT
# Another seed gives another trace.
"$FXT" synth --seed 8 --size 300k -o "$T/c.fxt"
! cmp -s a.fxt "$T/c.fxt" || fail "seeds 7 and 8 give the same trace"
