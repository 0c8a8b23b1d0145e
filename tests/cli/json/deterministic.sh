# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# Two conversions of a trace give the same bytes.
"$FXT" json s.fxt > "$T/again.json" 2> /dev/null
cmp s.json "$T/again.json" || fail "second conversion differs"
