# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# Around a refused record, cut keeps every event of the input.
"$FXT" cut be.fxt -o "$T/be.c.fxt" 2> /dev/null || true
expect_eq "events" "$("$FXT" dump --json "$T/be.c.fxt" | jq -c 'select(.kind=="event")' | wc -l)" \
  "$("$FXT" dump --json be.fxt | jq -c 'select(.kind=="event")' | wc -l)"
