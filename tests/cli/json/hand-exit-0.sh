# SPDX-License-Identifier: MIT
# needs: python3 jq
# The hand-built trace converts with exit status 0 to valid JSON.
expect_eq "exit status" "$(< hand.rc)" 0
jq . hand.json > /dev/null || fail "not valid JSON"
