# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# Provider 2, without an initialization record, uses the default rate (1 GHz),
# not provider 1's.
expect_eq "B event ts" "$(jq -c '[.traceEvents[] | select(.ph=="B") | .ts]' hand.json)" '[1]'
