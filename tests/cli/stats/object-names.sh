# SPDX-License-Identifier: MIT
# needs: python3 jq
# Process and thread names.
expect_eq "[type,koid,name]" "$(q '[.objects[] | [.type,.koid,.name]]')" '[["process",10,"proc"],["thread",11,"main"]]'
