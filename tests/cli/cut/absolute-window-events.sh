# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# Window [500, 2000] ns: the events inside kept; b and as6, open at the end,
# closed at 2000; the end of outer (begun before) and the chain as5 (begun
# before) dropped; provider 2's times read at its own 2 ticks/ns.
expect_eq "events" "$(evs abs.fxt)" \
  '[1,"async_begin","as6",1300,"c"][1,"async_end","as6",2000,"c"][1,"duration_begin","a",700,"c"][1,"duration_begin","b",900,"c"][1,"duration_complete","x",1000,"c"][1,"duration_end","a",800,"c"][1,"duration_end","b",2000,"c"][1,"flow_begin","fl",1000,"c"][1,"flow_end","fl",1200,"other"][1,"flow_step","fl",1100,"other"][1,"instant","i",1500,"c"][2,"instant","p2in",2400,"c2"]'
