# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# Async and flow events carry their ids.
expect_eq "async/flow ids" \
  "$(jq -c 'select(.event != null and (.event|test("async|flow"))) | .id' le.jsonl | tr -d '\n')" 101010151515
