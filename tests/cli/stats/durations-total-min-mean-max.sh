# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# A: 4 events, 2 durations (1000 and 3000 ns): total, min, mean, max.
expect_eq "A [events,count,total,min,mean,max]" \
  "$(q '.names[] | select(.name=="A") | [.events,.count,.total_ns,.min_ns,.mean_ns,.max_ns]')" '[4,2,4000,1000,2000,3000]'
