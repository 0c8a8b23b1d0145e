# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# Unknown record types and subtypes: type, subtype and size in words.
expect_eq "unknown [type,subtype,size_words]" \
  "$(jq -c 'select(.kind=="unknown") | [.type,.subtype,.size_words]' le.jsonl | tr -d '\n')" \
  '[10,null,2][4,11,2][8,3,1][0,5,1][15,1,1][15,2,1]'
