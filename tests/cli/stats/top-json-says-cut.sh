# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# --json keeps the first --top threads, names and counters, and says how many there are (known.fxt:
# threads 10/11 and 20/21; pairs cat/A, B, C, ctr, D; one counter); text says how many rows it left out.
"$FXT" stats --top 1 --json known.fxt > "$T/k.json"
expect_eq "[top, threads, names, counters] kept and total" \
  "$(jq -c '[.top, (.threads|length), .threads_total, (.names|length), .names_total, (.counters|length), .counters_total]' "$T/k.json")" \
  '[1,1,2,1,5,1,1]'
"$FXT" stats --top 1 known.fxt > "$T/k.txt"
expect_eq "text: rows left out" "$(grep -c '^  \.\.\. [0-9]* more (--top 1)$' "$T/k.txt")" 2
grep -q '^  \.\.\. 4 more (--top 1)$' "$T/k.txt" || fail "names table: 4 more"
