# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# Large blobs of format 0 (with a timestamp) and 1 (without).
expect_eq "large_blob [format,category,name,size,ts]" \
  "$(jq -c 'select(.kind=="large_blob") | [.format,.category,.name,.size,.ts]' le.jsonl | tr -d '\n')" \
  '[0,"cat","lb",3,28672][1,"","name",9,null]'
