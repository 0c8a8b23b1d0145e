# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# Percentiles are within 6.25% of the true value.
expect_eq "A p50 and p99 within 188 ns of 3000" \
  "$(q '.names[] | select(.name=="A") | [(.p50_ns-3000|fabs) < 188, (.p99_ns-3000|fabs) < 188]')" '[true,true]'
