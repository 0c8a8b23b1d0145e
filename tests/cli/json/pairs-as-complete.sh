# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# Duration begin/end pairs of two threads interleaved in the file become one X
# event each, paired per thread, written where the end is read, with the
# begin's arguments followed by the end's; an end with no begin is dropped and
# a begin never ended stays B (both counted on stderr); flow events come after
# the other events, each at the start of the innermost slice enclosing it on
# its thread (the flow end: no slice on its thread, its own time).
expect_eq "events" "$(jq -c '.traceEvents[] | select(.ph!="M") | [.ph,.name,.tid,.ts,.dur,.args]' pairs.json)" \
'["X","other",7,1.1,0.2,{"a":1,"b":2}]
["X","inner",6,1.2,0.2,{"e":3}]
["X","outer",6,1,1,{}]
["s","fl",6,1.2,null,{}]
["f","fl",7,1.5,null,{}]
["B","open",6,2.5,null,{}]'
grep -q "1 duration ends without a begin dropped; 1 duration begins never ended (kept as B)" pairs.err ||
  fail "summary: $(cat pairs.err)"
