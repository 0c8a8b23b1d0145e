# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# An instant event: thread and string references resolved, every argument type.
expect_eq "instant at offset 120" \
  "$(jq -c 'select(.offset==120) | [.event,.ts,.pid,.tid,.category,.name,[.args[].type]]' le.jsonl)" \
  '["instant",4096,16,32,"cat","name",["null","int32","uint32","int64","uint64","double","string","pointer","koid","bool","unknown"]]'
