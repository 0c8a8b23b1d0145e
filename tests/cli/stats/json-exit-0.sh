# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# fxt stats --json on the hand-built trace: exit 0, valid JSON.
cat known.err
expect_eq "exit status" "$(< known.rc)" 0
jq . known.json > /dev/null || fail "not valid JSON"
