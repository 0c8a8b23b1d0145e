# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# --args-mix string: string arguments are the most frequent type.
"$FXT" synth --events 3000 --args 6 --args-mix string -o "$T/str.fxt"
expect_eq "most frequent argument type" \
  "$("$FXT" dump --json "$T/str.fxt" | jq -r 'select(.kind=="event") | select(.args) | .args[].type' | sort | uniq -c | sort -rn | head -1 | awk '{print $2}')" string
