# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# Self time excludes children: A (1000 + 3000 with B's 300 inside) has 3700 ns of its own.
expect_eq "[A self, B self, C self]" \
  "$(q '[(.names[] | select(.name=="A") | .self_ns), (.names[] | select(.name=="B") | .self_ns), (.names[] | select(.name=="C") | .self_ns)]')" \
  '[3700,300,2500]'
expect_eq "A mean = total / count" "$(q '.names[] | select(.name=="A") | [.count, .total_ns / .count, .mean_ns]')" '[2,2000,2000]'
