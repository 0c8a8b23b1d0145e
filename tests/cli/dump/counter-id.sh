# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# A counter's id (the word after its arguments).
expect_eq "counter at offset 296 [id,pid,tid,category,name]" \
  "$(jq -c 'select(.offset==296) | [.id,.pid,.tid,.category,.name]' le.jsonl)" '[42,49,50,"c","cnt"]'
