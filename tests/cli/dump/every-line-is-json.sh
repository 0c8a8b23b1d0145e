# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# Every line of the dump parses as JSON on its own.
jq -c . le.jsonl > /dev/null || fail "a line of le.jsonl is not JSON"
