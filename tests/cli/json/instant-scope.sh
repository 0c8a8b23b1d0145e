# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# An instant's scope comes from its scope word (2: global, 1: process).
expect_eq "scopes" "$(jq -c '[.traceEvents[] | select(.ph=="I") | .s]' hand.json)" '["g","p"]'
