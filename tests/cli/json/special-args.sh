# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# null, NaN, koid and pointer arguments; an argument of unknown type dropped.
expect_eq "args" "$(jq -c '[.traceEvents[] | select(.name=="inst") | .args]' hand.json)" \
  '[{"nul":null,"nan":"NaN","k":"#77","p":"0xdeadbeef"}]'
