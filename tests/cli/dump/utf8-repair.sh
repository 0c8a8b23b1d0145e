# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# Ill-formed UTF-8 is replaced per maximal subpart and control characters are
# escaped: string 1 = "a" FF E0 80 "b" TAB 01 (length 8).
printf '\x22\x00\x01\x00\x08\x00\x00\x00a\xff\xe0\x80b\t\x01"' > "$T/utf.fxt"
"$FXT" dump --json "$T/utf.fxt" > "$T/utf.jsonl"
expect_eq "value bytes" "$(jq -r .value "$T/utf.jsonl" | od -An -tx1 | tr -d ' \n')" 61efbfbdefbfbdefbfbd620901220a
grep -q '\\u0001' "$T/utf.jsonl" || fail "U+0001 not escaped as \\u0001"
