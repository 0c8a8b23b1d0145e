# SPDX-License-Identifier: MIT
# needs: jq
# Before any provider record, "provider" is null.
expect_eq "provider of the record at offset 0" "$(jq -c 'select(.offset==0) | .provider' le.jsonl)" null
