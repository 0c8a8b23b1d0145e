# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# A record of size 0: one error at its offset, then reading stops.
printf '\x10\x00\x04\x46\x78\x54\x16\x00\x04\x00\x00\x00\x00\x00\x00\x00\x10\x00\x04\x46\x78\x54\x16\x00' > "$T/zero.fxt"
rc=0
"$FXT" dump --json "$T/zero.fxt" > "$T/zero.jsonl" || rc=$?
expect_eq "exit status" $rc 1
expect_eq "lines" "$(wc -l < "$T/zero.jsonl")" 2
expect_eq "last line [kind,offset]" "$(tail -1 "$T/zero.jsonl" | jq -c '[.kind,.offset]')" '["error",8]'
