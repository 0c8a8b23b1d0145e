# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# The big-endian trace of a seed dumps like the little-endian one.
"$FXT" synth --seed 7 --size 300k --big-endian -o "$T/be.fxt"
"$FXT" dump --json a.fxt > "$T/le.jsonl"
"$FXT" dump --json "$T/be.fxt" > "$T/be.jsonl"
cmp "$T/le.jsonl" "$T/be.jsonl" || fail "dumps differ"
