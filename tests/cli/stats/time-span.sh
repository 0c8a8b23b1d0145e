# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# The time span in ns, across providers of different rates.
expect_eq "[first,last,span]" "$(q '[.first_ns,.last_ns,.span_ns]')" '[1000,10000,9000]'
