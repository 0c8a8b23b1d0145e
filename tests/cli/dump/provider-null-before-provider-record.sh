# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# Before any provider record, "provider" is null.
expect_eq "provider of the record at offset 0" "$(jq -c 'select(.offset==0) | .provider' le.jsonl)" null
