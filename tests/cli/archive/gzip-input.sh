# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: compression gzip
# Input compressed by the gzip command dumps like the plain trace.
"$FXT" dump --json p.fxt.gz > "$T/gz.jsonl"
cmp p.jsonl "$T/gz.jsonl" || fail "dump of p.fxt.gz differs"
