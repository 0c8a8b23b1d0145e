# SPDX-License-Identifier: MIT
# needs: jq
# The merged archive has one magic record, the first.
expect_eq "magic records" "$(jq -r .kind m.jsonl | grep -c magic)" 1
expect_eq "first record" "$(head -1 m.jsonl | jq -r .kind)" magic
