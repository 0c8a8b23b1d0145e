# SPDX-License-Identifier: MIT
# needs: python3
# --folded: one line per call path with self time (flamegraph.pl, speedscope); --tree: the same as text.
"$FXT" stats --folded known.fxt > "$T/folded.txt"
expect_eq "folded" "$(cat "$T/folded.txt")" "$(printf '10/11 main;A 3700\n10/11 main;A;B 300\n10/11 main;C 2500\n20/21;D 1000')"
"$FXT" stats --tree known.fxt > "$T/tree.txt"
grep -q '^    A (cat)  total 4000  self 3700  count 2$' "$T/tree.txt" || fail "tree row of A"
grep -q '^      B (cat)  total 300  self 300  count 1$' "$T/tree.txt" || fail "tree row of B under A"
