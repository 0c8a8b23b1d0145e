# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# All 10 argument types.
expect_eq "argument types" "$(jq -r 'select(.args) | .args[].type' all.jsonl | sort -u | wc -l)" 10
