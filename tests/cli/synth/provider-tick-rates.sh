# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# Three providers, provider k at k times the base tick rate.
expect_eq "init [provider,ticks_per_second]" \
  "$(jq -c 'select(.kind=="init") | [.provider,.ticks_per_second]' all.jsonl | tr -d '\n')" \
  '[1,1000000000][2,2000000000][3,3000000000]'
