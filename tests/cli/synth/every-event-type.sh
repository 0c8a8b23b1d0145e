# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# All 11 event types.
expect_eq "event types" "$(jq -r 'select(.kind=="event") | .event' all.jsonl | sort -u | wc -l)" 11
