# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# Every async and flow id keeps one category from begin to end (viewers match
# chains by category and id).
expect_eq "ids with several categories" \
  "$(jq -r 'select(.kind=="event" and (.event|test("^(async|flow)_"))) | "\(.provider) \(.event|split("_")[0]) \(.id) \(.category)"' all.jsonl |
    sort -u | awk '{print $1, $2, $3}' | uniq -d | head -3)" ""
expect_eq "chain events seen" "$(jq -r 'select(.kind=="event" and (.event|test("^(async|flow)_"))) | .id' all.jsonl | wc -l | awk '{print ($1 > 100)}')" "1"
