# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: shared jq
# A damaged foreign trace: exit 1; each bad counter is an error record and
# reading goes on to the end.
rc=0
"$FXT" dump --json "$SHARED/samples/foreign/ftr_counter_malformed.fxt" > "$T/mal.jsonl" || rc=$?
expect_eq "exit status" $rc 1
expect_eq "error records" "$(jq -r 'select(.kind=="error") | .kind' "$T/mal.jsonl" | wc -l)" 1996
expect_eq "last record's kind" "$(tail -1 "$T/mal.jsonl" | jq -r .kind)" error
expect_eq "records that are not errors" "$(jq -r .kind "$T/mal.jsonl" | grep -vc error)" 4
