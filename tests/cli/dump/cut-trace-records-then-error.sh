# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# A trace cut inside a record: exit 1, the records before the cut, then one
# error record at the offset of the cut record.
rc=0
"$FXT" dump --json "$SRC/fuzz/corpus/reader/all_records_cut.fxt" > "$T/cut.jsonl" || rc=$?
expect_eq "exit status" $rc 1
expect_eq "lines" "$(wc -l < "$T/cut.jsonl")" 35
expect_eq "last line [kind,offset]" "$(tail -1 "$T/cut.jsonl" | jq -c '[.kind,.offset]')" '["error",952]'
