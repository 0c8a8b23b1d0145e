# SPDX-License-Identifier: MIT
# needs: python3 jq
# Names are sorted by total duration.
expect_eq "names" "$(q '[.names[].name]')" '["A","C","D","B","ctr"]'
