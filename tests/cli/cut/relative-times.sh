# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3
# Times relative to the first event (100 ns), with units, give the same output
# as the absolute window.
"$FXT" cut in.fxt --from 400ns --to 1.9us -o "$T/rel.fxt"
cmp abs.fxt "$T/rel.fxt" || fail "relative cut differs from the absolute one"
