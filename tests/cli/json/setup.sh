# SPDX-License-Identifier: MIT
# fxt json. s.fxt: a synth trace (3 providers at an odd tick rate, every record
# kind), converted once here (s.json, s.err, s.rc) and dumped (s.jsonl).
# Hand-built traces (tests/tools/fxtgen.py), each converted once here:
# hand.fxt (scope word, special arguments, per-provider rates), big.fxt
# (timestamps near 2^63 and 2^64, ids above 2^53), sys.fxt (system events,
# log, blobs, invalid UTF-8).
"$FXT" synth --providers 3 --ticks-per-second 999999937 --all-records --events 5000 -o s.fxt
record s "$FXT" json s.fxt -o s.json
record sobj "$FXT" json --system-events=fuchsia s.fxt -o sobj.json
"$FXT" dump --json s.fxt > s.jsonl

if have python3; then
  "$PYTHON" - <<'PY'
import os, sys; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
# scope word, null/NaN args, koid/pointer, unknown types, per-provider rates
t = magic() + provider_info(1, "a") + init(3) + string(1, "c") + thread(1, 5, 6)
t += event(INSTANT, 7, 1, 1, sref("inst"), args=[arg(0, sref("nul")), arg(5, sref("nan"), float("nan")), arg(8, sref("k"), 77), arg(7, sref("p"), 0xdeadbeef), arg(12, sref("u"))], extra=word(2))
t += event(INSTANT, 8, 1, 1, sref("inst2"), extra=word(1))
t += provider_info(2, "b") + event(BEGIN, 1000, (5, 6), sref("c"), sref("x"))
t += kernel_object(5, 1, sref("proc")) + kernel_object(6, 2, sref("thr"), args=[arg(8, sref("process"), 5)])
t += event(COUNTER, 1001, (5, 6), sref("c"), sref("ctr"), args=[arg(3, sref("v"), -3)], ident=2**63 + 5)
t += unknown_record(11, 3)
write("hand.fxt", t)

# exactness at the extremes: 3 ticks per microsecond, timestamps near 2^63 and 2^64,
# ids above 2^53
t = magic() + provider_info(1, "big") + init(3000000) + string(1, "c") + thread(1, 7, 8)
t += event(BEGIN, 2**63 - 1, 1, 1, sref("b"))
t += event(COMPLETE, 2**63 + 2, 1, 1, sref("x"), end_ts=2**64 - 1)
t += event(ASYNC_BEGIN, 2**63 + 4, 1, 1, sref("a"), ident=2**53 + 1)
t += event(FLOW_STEP, 2**63 + 5, 1, 1, sref("f"), ident=2**64 - 1)
t += event(INSTANT, 10, 1, 1, sref("small"), args=[arg(4, sref("u"), 2**64 - 1), arg(3, sref("i"), -2**63)])
write("big.fxt", t)

# system events, log, fidl:blob large blob, invalid UTF-8
t = magic() + provider_info(1, "sys") + init(2000000000) + thread(1, 100, 101) + thread(2, 100, 102)
t += context_switch(3000, 2, 3, 101, 102, args=[arg(1, sref("outgoing_weight"), 7), arg(1, sref("incoming_weight"), 9)])
t += thread_wakeup(4000, 1, 102, args=[arg(1, sref("weight"), 5)])
t += legacy_context_switch(5000, 3, 2, 1, (200, 201), 20, 31)
t += log(6000, 2, "hello \"world\"")
t += large_blob0(7000, 1, sref("fidl:blob"), sref("msg"), b"hello")
t += large_blob0(7001, 1, sref("other"), sref("skipped"), b"x")
t += event(INSTANT, 8000, 1, sref(b"c\xff"), sref(b"bad\xe2\x82"), args=[arg(6, sref("s"), sref(b"\xc0\xafok"))])
write("sys.fxt", t)

# duration pairs of two threads interleaved in the file; arguments on begins and ends;
# an end with no begin (thread 7's first event); a begin never ended; a flow inside a slice
t = magic() + provider_info(1, "p") + thread(1, 5, 6) + thread(2, 5, 7)
t += event(END, 900, 2, sref("c"), sref("early"))
t += event(BEGIN, 1000, 1, sref("c"), sref("outer"))
t += event(BEGIN, 1100, 2, sref("c"), sref("other"), args=[arg(3, sref("a"), 1)])
t += event(BEGIN, 1200, 1, sref("c"), sref("inner"))
t += event(FLOW_BEGIN, 1250, 1, sref("c"), sref("fl"), ident=3)
t += event(END, 1300, 2, sref("c"), sref("other"), args=[arg(3, sref("b"), 2)])
t += event(END, 1400, 1, sref("c"), sref("inner"), args=[arg(3, sref("e"), 3)])
t += event(FLOW_END, 1500, 2, sref("c"), sref("fl"), ident=3)
t += event(END, 2000, 1, sref("c"), sref("outer"))
t += event(BEGIN, 2500, 1, sref("c"), sref("open"))
write("pairs.fxt", t)
PY
  record hand "$FXT" json hand.fxt > hand.json
  record big "$FXT" json big.fxt > big.json
  record sys "$FXT" json sys.fxt > sys.json
  record pairs "$FXT" json pairs.fxt > pairs.json
  record sysobj "$FXT" json --system-events=fuchsia sys.fxt > sysobj.json
fi
