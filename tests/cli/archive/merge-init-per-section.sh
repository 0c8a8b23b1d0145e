# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# Every section keeps its initialization record (its tick rate).
expect_eq "init [provider,ticks_per_second]" \
  "$(jq -c 'select(.kind=="init") | [.provider,.ticks_per_second]' m.jsonl | tr -d '\n')" \
  '[1,1000000000][2,19200000][3,3000000000][4,6000000000][5,2595382466]'
