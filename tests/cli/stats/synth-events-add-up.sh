# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# A synth trace: events per category add up to the events of its dump.
"$FXT" stats --json s.fxt > "$T/s.json"
expect_eq "events" "$(jq '[.categories[]] | add' "$T/s.json")" \
  "$("$FXT" dump --json s.fxt | jq -n 'reduce (inputs | select(.kind=="event")) as $e (0; . + 1)')"
