# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# Keys outside the contract's list start with x_.
extra=$(jq -r 'keys[]' le.jsonl | sort -u |
  grep -vxE 'offset|kind|provider|id|name|event|info_type|ticks_per_second|index|value|pid|tid|ts|category|args|end_ts|blob_type|size|ptr|koid|obj_type|cpu|out_state|out_tid|in_tid|out_pid|in_pid|out_prio|in_prio|message|format|type|subtype|size_words|x_.*' || true)
expect_eq "keys outside the contract" "$extra" ""
