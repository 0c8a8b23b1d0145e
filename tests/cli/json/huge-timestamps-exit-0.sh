# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# Timestamps near 2^63 and 2^64: exit 0, valid JSON.
expect_eq "exit status" "$(< big.rc)" 0
jq . big.json > /dev/null || fail "not valid JSON"
