# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# Counters with their samples.
expect_eq "[name,id,samples]" "$(q '[.counters[] | [.name,.id,.samples]]')" '[["ctr",1,3]]'
