# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: shared jq
# A damaged trace: exit 1 (text and JSON), still a JSON summary.
rc=0
"$FXT" stats "$SHARED/samples/foreign/ftr_counter_malformed.fxt" > /dev/null 2>&1 || rc=$?
expect_eq "text: exit status" $rc 1
rc=0
"$FXT" stats --json "$SHARED/samples/foreign/ftr_counter_malformed.fxt" > "$T/mal.json" 2> /dev/null || rc=$?
expect_eq "JSON: exit status" $rc 1
jq -e .records "$T/mal.json" > /dev/null || fail "no JSON summary with records"
