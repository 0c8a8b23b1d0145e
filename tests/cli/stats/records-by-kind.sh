# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# Records counted by kind.
expect_eq "[event,string,kernel_object]" "$(q '[.kinds.event.count, .kinds.string.count, .kinds.kernel_object.count]')" '[12,6,2]'
