# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# Counter series: min, max and last value per numeric argument.
expect_eq "[name,samples,min,max,last]" "$(q '[.counters[].series[] | [.name,.samples,.min,.max,.last]]')" \
  '[["v",3,-2,5,3],["d",3,0.5,2.25,1]]'
