# SPDX-License-Identifier: MIT
# Two conversions of a trace give the same bytes.
"$FXT" json s.fxt > "$T/again.json" 2> /dev/null
cmp s.json "$T/again.json" || fail "second conversion differs"
