# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# Around a refused record, merge keeps every event of the input.
"$FXT" merge be.fxt --offset be.fxt=10 -o "$T/be.m.fxt" 2> /dev/null || true
expect_eq "events" "$("$FXT" dump --json "$T/be.m.fxt" | jq -c 'select(.kind=="event")' | wc -l)" \
  "$("$FXT" dump --json be.fxt | jq -c 'select(.kind=="event")' | wc -l)"
