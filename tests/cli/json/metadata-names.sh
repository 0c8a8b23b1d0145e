# SPDX-License-Identifier: MIT
# needs: python3 jq
# Process and thread names become M events.
expect_eq "M events [name,pid,tid,args.name]" \
  "$(jq -c '[.traceEvents[] | select(.ph=="M") | [.name,.pid,.tid,.args.name]]' hand.json)" \
  '[["process_name",5,0,"proc"],["thread_name",5,6,"thr"]]'
