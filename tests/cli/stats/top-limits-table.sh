# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# --top 1 keeps one name in the table.
expect_eq "names" "$("$FXT" stats --top 1 --json known.fxt | jq '.names | length')" 1
