# SPDX-License-Identifier: MIT
# needs: python3 jq
# --top 1 keeps one name in the table.
expect_eq "names" "$("$FXT" stats --top 1 --json known.fxt | jq '.names | length')" 1
