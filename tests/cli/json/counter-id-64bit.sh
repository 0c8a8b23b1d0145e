# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# A 64-bit counter id is written as a hex string.
expect_eq "counter id" "$(jq -r '.traceEvents[] | select(.ph=="C") | .id' hand.json)" 0x8000000000000005
