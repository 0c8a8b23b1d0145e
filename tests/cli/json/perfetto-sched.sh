# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# Perfetto's JSON importer sees the scheduling of the systrace text: a wakeup
# (sched_waking, the event it reads; sched_wakeup lines were dropped) makes the
# blocked thread runnable, and every state keeps its nanoseconds.
need_tp
"$PYTHON" - "$T/w.fxt" <<'PY'
import os, sys; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
t = magic() + provider_info(1, "p") + thread(1, 100, 101) + thread(2, 100, 102)
t += context_switch(1001, 0, 3, 101, 102)   # 101 blocks, 102 runs
t += thread_wakeup(2002, 0, 101)            # 101 runnable
t += context_switch(3003, 0, 3, 102, 101)   # 101 runs again
write(sys.argv[1], t)
PY
"$FXT" json "$T/w.fxt" -o "$T/w.json" 2> /dev/null
expect_eq "thread states of 101 from the JSON" \
  "$(tp_q "$T/w.json" "select s.ts, s.state from thread_state s join thread using (utid) where tid = 101 order by s.ts;" | tr '\n' ' ')" \
  '1001,"S" 2002,"R" 3003,"Running" '
