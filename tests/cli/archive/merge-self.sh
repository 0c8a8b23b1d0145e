# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# Merging a trace with itself: ids renumbered, strings resolved per provider.
"$FXT" merge a.fxt a.fxt -o "$T/aa.fxt" 2> /dev/null
"$FXT" check "$T/aa.fxt" > "$T/aa.check" || true
expect_eq "lines saying 0 errors" "$(grep -c " 0 errors" "$T/aa.check")" 1
expect_eq "events without a name" "$("$FXT" dump --json "$T/aa.fxt" | jq -r 'select(.kind=="event" and .name==null) | .kind' | wc -l)" 0
