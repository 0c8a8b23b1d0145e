# SPDX-License-Identifier: MIT
# needs: jq
# Every event's strings and thread resolve (string tables reused past their size).
expect_eq "events with a null name, category or pid" \
  "$(jq -c 'select(.kind=="event" and (.name==null or .category==null or .pid==null))' all.jsonl)" ""
