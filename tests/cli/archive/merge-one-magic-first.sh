# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# The merged archive has one magic record, the first.
expect_eq "magic records" "$(jq -r .kind m.jsonl | grep -c magic)" 1
expect_eq "first record" "$(head -1 m.jsonl | jq -r .kind)" magic
