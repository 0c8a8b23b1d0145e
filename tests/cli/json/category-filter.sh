# SPDX-License-Identifier: MIT
# needs: jq
# --category keeps only that category.
"$FXT" json --category gfx s.fxt > "$T/gfx.json" 2> /dev/null
expect_eq "categories" "$(jq -r '[.traceEvents[] | select(.ph != "M") | .cat] | unique | join(",")' "$T/gfx.json")" gfx
