# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# B, nested inside A, is measured on its own.
expect_eq "B [events,count,total]" "$(q '.names[] | select(.name=="B") | [.events,.count,.total_ns]')" '[2,1,300]'
