# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# A trace cut short (on a pipe): exit 1, still valid JSON.
rc=0
head -c 1000 s.fxt | "$FXT" json > "$T/cut.json" 2> /dev/null || rc=$?
expect_eq "exit status" $rc 1
jq . "$T/cut.json" > /dev/null || fail "not valid JSON"
