# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# Process and thread names become M events, each with a sort index in the order
# the names appear.
expect_eq "M events [name,pid,tid,args.name]" \
  "$(jq -c '[.traceEvents[] | select(.ph=="M") | [.name,.pid,.tid,.args.name]]' hand.json)" \
  '[["process_name",5,0,"proc"],["process_sort_index",5,0,null],["thread_name",5,6,"thr"],["thread_sort_index",5,6,null]]'
expect_eq "sort indices" "$(jq -c '[.traceEvents[] | select(.name|endswith("sort_index")) | .args.sort_index]' hand.json)" '[0,0]'
expect_eq "metadata category" "$(jq -r '[.traceEvents[] | select(.ph=="M") | .cat] | unique | join(",")' hand.json)" '__metadata'
expect_eq "sort indices" "$(jq -c '[.traceEvents[] | select(.name|endswith("sort_index")) | .args.sort_index]' hand.json)" '[0,0]'
expect_eq "metadata category" "$(jq -r '[.traceEvents[] | select(.ph=="M") | .cat] | unique | join(",")' hand.json)" '__metadata'
