# SPDX-License-Identifier: MIT
# needs: python3 jq
# Flow and async ids follow the chain-id rule (docs/check.md#chain-ids): a flow begun in
# one provider (a parent process) and ended in another (its child) is one chain, so cut
# invents no end for it (before: an end at the provider's last event, "closed 1"); two
# providers that each number their flows from 1 stay apart; with the end read first (the
# child's provider earlier in the file) as well. Invented ends are counted apart from kept
# events.
"$PYTHON" - "$SRC" "$T" << 'PY'
import sys
sys.path.insert(0, sys.argv[1] + "/tests/tools")
from fxtgen import *
t = sys.argv[2]
def slice_with(kind, ts, ident, tid):
    th = (tid, tid)
    return (event(BEGIN, ts=ts, thread=th, cat=sref("c"), name=sref("s"))
            + event(kind, ts=ts + 1, thread=th, cat=sref("c"), name=sref("f"), ident=ident)
            + event(END, ts=ts + 2, thread=th, cat=sref("c"), name=sref("s")))
parent = provider_info(1, "parent") + slice_with(FLOW_BEGIN, 10, 5, 100)
child = provider_info(2, "child") + slice_with(FLOW_END, 20, 5, 200)
# both orders in the file: the begin first, and the end first
write(t + "/pc.fxt", magic() + parent + child)
write(t + "/cp.fxt", magic() + child + parent)
# two processes numbering flows from 1, each ended in its own process: each end matches
# the begin of its own provider
p1 = provider_info(1, "a") + slice_with(FLOW_BEGIN, 10, 1, 100) + slice_with(FLOW_END, 30, 1, 100)
p2 = provider_info(2, "b") + slice_with(FLOW_BEGIN, 12, 1, 200) + slice_with(FLOW_END, 32, 1, 200)
write(t + "/own.fxt", magic() + p1 + p2)
PY
for f in pc cp; do
  "$FXT" cut "$T/$f.fxt" -o "$T/$f.cut" 2> "$T/$f.err"
  grep -q "closed 0 " "$T/$f.err" || fail "$f: an end was invented: $(cat "$T/$f.err")"
  expect_eq "$f: flow events" "$("$FXT" dump --json "$T/$f.cut" | jq -c 'select(.kind=="event" and (.event|startswith("flow")))|.event' | sort | tr '\n' ' ')" '"flow_begin" "flow_end" '
done
"$FXT" cut "$T/own.fxt" -o "$T/own.cut" 2> "$T/own.err"
grep -q "closed 0 " "$T/own.err" || fail "own: an end was invented: $(cat "$T/own.err")"
cmp -s <("$FXT" dump "$T/own.fxt" | grep ' event ') <("$FXT" dump "$T/own.cut" | grep ' event ') ||
  fail "own: the events changed"
