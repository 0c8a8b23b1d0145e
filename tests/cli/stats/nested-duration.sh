# SPDX-License-Identifier: MIT
# needs: python3 jq
# B, nested inside A, is measured on its own.
expect_eq "B [count,durations,total]" "$(q '.names[] | select(.name=="B") | [.count,.durations,.total_ns]')" '[2,1,300]'
