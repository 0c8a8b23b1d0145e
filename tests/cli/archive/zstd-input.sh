# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: compression zstd
# Input compressed by the zstd command dumps like the plain trace.
"$FXT" dump --json p.fxt.zst > "$T/zst.jsonl"
cmp p.jsonl "$T/zst.jsonl" || fail "dump of p.fxt.zst differs"
