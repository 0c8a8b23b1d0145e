# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# fxt cut drops a record that cannot be re-encoded and reports it with its
# offset and in its summary; exit status 1.
rc=0
"$FXT" cut be.fxt -o "$T/be.c.fxt" 2> "$T/err" || rc=$?
cat "$T/err" >&2
expect_eq "exit status" $rc 1
grep -q "offset $(< be.at): record not re-encodable" "$T/err" || fail "refused record not reported with its offset"
grep -q "1 records not re-encodable" "$T/err" || fail "summary does not count the refused record"
