# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# --category and --name together: only that category left; the output is valid.
"$FXT" cut big.fxt --category gfx --name "Poll*" -o "$T/cat.fxt"
expect_eq "categories" "$("$FXT" dump --json "$T/cat.fxt" | jq -r 'select(.kind=="event") | .category' | sort -u | tr '\n' ' ')" "gfx "
"$FXT" check "$T/cat.fxt" > /dev/null || fail "fxt check rejects the output"
