# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# Every event's strings and thread resolve (string tables reused past their size).
expect_eq "events with a null name, category or pid" \
  "$(jq -c 'select(.kind=="event" and (.name==null or .category==null or .pid==null))' all.jsonl)" ""
