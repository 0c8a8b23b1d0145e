# SPDX-License-Identifier: MIT
# needs: jq
# Every line of the dump parses as JSON on its own.
jq -c . le.jsonl > /dev/null || fail "a line of le.jsonl is not JSON"
