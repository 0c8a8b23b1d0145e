# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# Process and thread names.
expect_eq "[type,koid,name]" "$(q '[.objects[] | [.type,.koid,.name]]')" '[["process",10,"proc"],["thread",11,"main"]]'
