# SPDX-License-Identifier: MIT
# needs: python3 jq
# Counters with their samples.
expect_eq "[name,id,samples]" "$(q '[.counters[] | [.name,.id,.samples]]')" '[["ctr",1,3]]'
