# SPDX-License-Identifier: MIT
# needs: jq
# All 10 argument types.
expect_eq "argument types" "$(jq -r 'select(.args) | .args[].type' all.jsonl | sort -u | wc -l)" 10
