# SPDX-License-Identifier: MIT
# needs: jq
# A duration complete event carries its end_ts.
expect_eq "duration_complete [ts,end_ts]" \
  "$(jq -c 'select(.event=="duration_complete") | [.ts,.end_ts]' le.jsonl)" '[12288,13568]'
