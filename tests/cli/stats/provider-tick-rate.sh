# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# D is converted with its own provider's 2 GHz rate.
expect_eq "D [total]" "$(q '.names[] | select(.name=="D") | [.total_ns]')" '[1000]'
