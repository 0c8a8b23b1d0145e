# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: shared jq
# A damaged trace: exit 1, still valid JSON, the damaged records counted on stderr.
rc=0
"$FXT" json "$SHARED/samples/foreign/ftr_counter_malformed.fxt" > "$T/mal.json" 2> "$T/err" || rc=$?
cat "$T/err" >&2
expect_eq "exit status" $rc 1
jq . "$T/mal.json" > /dev/null || fail "not valid JSON"
grep -q "1996 damaged records" "$T/err" || fail "no '1996 damaged records' on stderr"
