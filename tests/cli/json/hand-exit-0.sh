# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# The hand-built trace converts with exit status 0 to valid JSON.
expect_eq "exit status" "$(< hand.rc)" 0
jq . hand.json > /dev/null || fail "not valid JSON"
