# SPDX-License-Identifier: MIT
# needs: python3 jq
# Past 65536 durations given up by the nesting limit on a thread, the oldest are coalesced
# (docs/stats.md): a scope X that starts between two of them coalesced together cannot take part
# of the block (counted, and said in text), while the whole-program scope M around everything still
# takes it all: busy time is M's duration exactly. 140000 complete events L(i) [100+10i, 105+10i],
# X [10107, 10+10*140000+96] (starts between L(1000) and L(1001)), M [0, 10*140000+200].
"$PYTHON" - "$T/c.fxt" <<'PY'
import os, sys; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
n = 140000
t = magic() + init(1000000000) + string(1, "c") + string(2, "M") + string(3, "L") + string(4, "X")
t += thread(1, 10, 11)
t += b"".join(event(COMPLETE, 100 + 10 * i, 1, 1, 3, end_ts=105 + 10 * i) for i in range(n))
t += event(COMPLETE, 10107, 1, 1, 4, end_ts=10 * n + 106)
t += event(COMPLETE, 0, 1, 1, 2, end_ts=10 * n + 200)
write(sys.argv[1], t)
PY
"$FXT" stats --json "$T/c.fxt" > "$T/c.json"
expect_eq "busy" "$(jq -c '[.threads[].busy_ns]' "$T/c.json")" '[1400200]'
expect_eq "not enclosing all" "$(jq -c '.nesting.complete_not_enclosing_all' "$T/c.json")" '1'
# X misses part of its children (its self time is more than its duration minus theirs), nothing else
expect_eq "self X > exact" "$(jq -c '[.names[] | select(.name == "X") | .self_ns > 1389999 - 138999 * 5] | all' \
  "$T/c.json")" 'true'
"$FXT" stats "$T/c.fxt" | grep -q '^note: 1 complete events do not enclose every duration inside them' ||
  fail "text note"
"$FXT" stats -j 1 --json "$T/c.fxt" > "$T/one.json"
FXT_RERUN_NOTE=1 FXT_RANGE_BYTES=65536 "$FXT" stats -j 3 --json "$T/c.fxt" > "$T/many.json" 2> "$T/many.err"
cmp -s "$T/one.json" "$T/many.json" || fail "-j 3 differs from -j 1"
