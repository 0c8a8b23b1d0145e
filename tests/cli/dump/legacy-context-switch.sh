# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# A legacy context switch: both threads and priorities.
expect_eq "legacy_context_switch" \
  "$(jq -c 'select(.kind=="legacy_context_switch") | [.out_pid,.out_tid,.in_pid,.in_tid,.out_prio,.in_prio]' le.jsonl)" \
  '[16,32,65,66,10,20]'
