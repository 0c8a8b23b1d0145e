# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# A duration complete event carries its end_ts.
expect_eq "duration_complete [ts,end_ts]" \
  "$(jq -c 'select(.event=="duration_complete") | [.ts,.end_ts]' le.jsonl)" '[12288,13568]'
