# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# C: durations from duration complete events.
expect_eq "C [events,count,total,min,max]" \
  "$(q '.names[] | select(.name=="C") | [.events,.count,.total_ns,.min_ns,.max_ns]')" '[2,2,2500,500,2000]'
