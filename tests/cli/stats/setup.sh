# SPDX-License-Identifier: MIT
# fxt stats. known.fxt: a hand-built trace with known durations, per-provider
# tick rates, names, counters and a dropped-record report; its JSON summary is
# made once here (known.json, known.err, known.rc). s.fxt: a synth trace.
if have python3; then
  "$PYTHON" - <<'PY'
import os, sys; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
t = magic() + provider_info(1, "first") + init(1000000000) + string(1, "cat") + string(2, "A") + string(3, "B") + string(4, "C")
t += thread(1, 10, 11) + kernel_object(10, 1, sref("proc")) + kernel_object(11, 2, sref("main"), args=[arg(8, sref("process"), 10)])
t += event(BEGIN, 1000, 1, 1, 2) + event(END, 2000, 1, 1, 2)
t += event(BEGIN, 3000, 1, 1, 2) + event(BEGIN, 3100, 1, 1, 3) + event(END, 3400, 1, 1, 3) + event(END, 6000, 1, 1, 2)
t += event(COMPLETE, 7000, 1, 1, 4, end_ts=7500) + event(COMPLETE, 8000, 1, 1, 4, end_ts=10000)
for v, d in ((5, 0.5), (-2, 2.25), (3, 1.0)):
    t += event(COUNTER, 4000, 1, 1, sref("ctr"), args=[arg(3, sref("v"), v), arg(5, sref("d"), d), arg(6, sref("s"), sref("str"))], ident=1)
t += provider_event(1, 0)
t += provider_info(2, "second") + init(2000000000) + event(COMPLETE, 2000, (20, 21), sref("cat"), sref("D"), end_ts=4000)
t += string(1, "x") + string(1, "y")
write("known.fxt", t)
PY
  record known "$FXT" stats --json known.fxt > known.json
fi
"$FXT" synth --events 5000 --providers 2 -o s.fxt
