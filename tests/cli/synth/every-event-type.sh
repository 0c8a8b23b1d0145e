# SPDX-License-Identifier: MIT
# needs: jq
# All 11 event types.
expect_eq "event types" "$(jq -r 'select(.kind=="event") | .event' all.jsonl | sort -u | wc -l)" 11
