# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: shared jq
# A damaged foreign trace: exit 1, all 1996 damaged records counted in the
# summary, the first 100 printed.
rc=0
"$FXT" check --json "$SHARED/samples/foreign/ftr_counter_malformed.fxt" > "$T/mal.jsonl" || rc=$?
expect_eq "exit status" $rc 1
expect_eq "damaged records counted" "$(tail -1 "$T/mal.jsonl" | jq .summary.rules.damaged)" 1996
expect_eq "damaged records printed" "$(grep -c '"rule":"damaged"' "$T/mal.jsonl")" 100
