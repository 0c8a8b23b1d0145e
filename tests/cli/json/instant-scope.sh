# SPDX-License-Identifier: MIT
# needs: python3 jq
# An instant's scope comes from its scope word (2: global, 1: process).
expect_eq "scopes" "$(jq -c '[.traceEvents[] | select(.ph=="I") | .s]' hand.json)" '["g","p"]'
