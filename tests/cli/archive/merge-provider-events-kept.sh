# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# Buffer-overflow provider events are kept, with the renumbered provider ids.
expect_eq "provider_event [provider,id]" \
  "$(jq -c 'select(.kind=="provider_event") | [.provider,.id]' m.jsonl | tr -d '\n')" '[3,3][4,4]'
