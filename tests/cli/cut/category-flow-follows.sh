# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# --category selects begins; a kept flow's continuations in other categories
# follow it, and its end outside the window is synthesized at the window's end.
"$FXT" cut in.fxt --category c --from 500 --to 1150 --absolute -o "$T/catf.fxt"
expect_eq "events" "$(evs "$T/catf.fxt")" \
  '[1,"duration_begin","a",700,"c"][1,"duration_begin","b",900,"c"][1,"duration_complete","x",1000,"c"][1,"duration_end","a",800,"c"][1,"duration_end","b",1150,"c"][1,"flow_begin","fl",1000,"c"][1,"flow_end","fl",1150,"c"][1,"flow_step","fl",1100,"other"]'
"$FXT" check "$T/catf.fxt" || fail "fxt check rejects the output"
