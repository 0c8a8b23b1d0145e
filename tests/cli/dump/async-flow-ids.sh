# SPDX-License-Identifier: MIT
# needs: jq
# Async and flow events carry their ids.
expect_eq "async/flow ids" \
  "$(jq -c 'select(.event != null and (.event|test("async|flow"))) | .id' le.jsonl | tr -d '\n')" 101010151515
