# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# A provider info record makes its id the current provider.
expect_eq "provider_info [provider,id,name]" \
  "$(jq -c 'select(.kind=="provider_info") | [.provider,.id,.name]' le.jsonl)" '[7,7,"prov"]'
