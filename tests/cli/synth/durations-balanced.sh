# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# Duration begins and ends balance on every thread, never going negative.
problems=$(jq -r 'select(.kind=="event" and (.event=="duration_begin" or .event=="duration_end")) | "\(.provider) \(.tid) \(.event)"' all.jsonl |
  awk '{k=$1" "$2; if ($3=="duration_begin") d[k]++; else d[k]--; if (d[k]<0) print "end without begin on " k} END {for (k in d) if (d[k]) print "open at the end on " k}')
expect_eq "imbalances" "$problems" ""
