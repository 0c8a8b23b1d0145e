# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# Names are sorted by total duration.
expect_eq "names" "$(q '[.names[].name]')" '["A","C","D","B","ctr"]'
