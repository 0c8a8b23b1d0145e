# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# --name glob without a window: the matching async chains kept, the open one
# closed at the provider's last time; the output passes fxt check.
"$FXT" cut in.fxt --name 'as*' -o "$T/names.fxt"
expect_eq "events" "$(evs "$T/names.fxt")" \
  '[1,"async_begin","as5",200,"c"][1,"async_begin","as6",1300,"c"][1,"async_end","as5",1200,"c"][1,"async_end","as6",3000,"c"]'
"$FXT" check "$T/names.fxt" || fail "fxt check rejects the output"
