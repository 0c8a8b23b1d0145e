# SPDX-License-Identifier: MIT
# needs: python3
# -j 3 is -j 1 byte for byte (jobs_same) where state crosses ranges or folds inside one:
# nesting deeper than a range worker tracks (64) and than fxt cut tracks (256) with kept
# begins inside dropped ones; a thread whose first pair is dropped in a later range and whose
# kept begins are closed at the end (the order of the closing ends); async and flow chains
# begun before the window, continuations read before their begins (waiting), reused ids; a
# relative window whose base (the first event) lies past the first ranges.
"$PYTHON" - "$T" <<'PY'
import os, sys; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
T1, T2, TA, TB = (1, 10), (1, 11), (1, 12), (1, 13)
c = sref("c")
head = magic() + provider_info(1, "one") + init(1000000000)
t = b""
ts = 1000
for k in range(300):  # padding: what follows starts in a later 4096-byte range
    t += event(INSTANT, ts, T2, c, sref("pad")); ts += 1
for rep in range(3):  # 300 levels; kept begins (names keep*) at depths around 64 and 256
    for d in range(300):
        t += event(BEGIN, ts, T1, c, sref("keep%d" % d if d in (10, 63, 64, 65, 200, 255, 256, 257) else "o%d" % d)); ts += 1
    for d in reversed(range(300)):
        t += event(END, ts, T1, c, sref("o%d" % d)); ts += 1
t += event(BEGIN, ts, TA, c, sref("a0")) + event(END, ts + 1, TA, c, sref("a0")); ts += 2
t += event(BEGIN, ts, TB, c, sref("keepB")); ts += 1   # left open: closed at the end
t += event(BEGIN, ts, TA, c, sref("keepA")); ts += 1   # left open, after TB's
for i in range(40):  # chains: begun before / in the window, continuations before their begins
    t += event(ASYNC_BEGIN, ts, T2, c, sref("keep-as"), ident=i % 7); ts += 1
    t += event(ASYNC_INSTANT, ts, T1, c, sref("x"), ident=i % 7); ts += 1
    if i % 3 == 0:
        t += event(ASYNC_END, ts, T1, c, sref("x"), ident=i % 7); ts += 1
    t += event(FLOW_END, ts + 5, T1, sref("f"), sref("x"), ident=i)  # before its begin in the file
    t += event(FLOW_BEGIN, ts, T2, c, sref("keep-fl" if i % 2 else "fl"), ident=i); ts += 6
write(sys.argv[1] + "/p.fxt", head + t)
# the first timed record (the relative window's base) 6 KB in, past the first ranges
write(sys.argv[1] + "/late.fxt", head + b"".join(string(1 + k % 100, "s%05d" % k) for k in range(400)) + t)
PY
n=$("$FXT" stats "$T/p.fxt" | sed -n 's/^time span: \([0-9]*\) ns.*/\1/p')
[ "$n" -gt 2000 ] || fail "p.fxt too short: $n ns"
jobs_same "$T/p.fxt" --from 0ns
jobs_same "$T/p.fxt" --name 'keep*'
jobs_same "$T/p.fxt" --from 700ns --to 2200ns
jobs_same "$T/p.fxt" --to 2300ns --name 'keep*'
jobs_same "$T/late.fxt" --from 700ns --to 2200ns
# The name filter keeps a begin at depth 255 but not at 256 (fxt cut's limit), and closes the
# begins left open in the order their threads were first seen: TA (its first pair dropped) first.
"$FXT" cut --name 'keep*' "$T/p.fxt" -o "$T/k.fxt" 2> "$T/k.err"
"$FXT" dump "$T/k.fxt" > "$T/k.txt"
grep -q 'name="keep255"' "$T/k.txt" || fail "keep255 not kept"
! grep -q 'name="keep256"' "$T/k.txt" || fail "keep256 kept past the depth limit"
expect_eq "closing ends" "$(grep 'duration_end.*name="keep[AB]"' "$T/k.txt" | sed 's/.*name=//' | tr -d '\n')" '"keepA""keepB"'
