# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# After a CPU's last context switch, the thread switched in is on that CPU up to the CPU's last
# record (a wakeup on it at 700): 12 ran 300..700 on cpu 0. What follows a CPU's last record is
# unknown and not counted (not up to the trace's end, 5000). Thread 11: 0..300.
"$PYTHON" - "$T/cs.fxt" <<'PY'
import os, sys; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
t = magic() + provider_info(1, "p") + string(1, "cat") + string(2, "work")
t += context_switch(0, 0, 0, 0, 11) + event(BEGIN, 0, (10, 11), 1, 2)
t += context_switch(300, 0, 2, 11, 12) + event(INSTANT, 500, (10, 12), 1, 2) + thread_wakeup(700, 0, 11)
t += event(END, 1000, (10, 11), 1, 2) + event(BEGIN, 2000, (10, 11), 1, 2) + event(END, 5000, (10, 11), 1, 2)
write(sys.argv[1], t)
PY
"$FXT" stats --json "$T/cs.fxt" > "$T/cs.json"
expect_eq "[tid,busy,oncpu]" "$(jq -c '[.threads[] | [.tid,.busy_ns,.oncpu_ns]]' "$T/cs.json")" '[[11,4000,300],[12,0,400]]'
FXT_RANGE_BYTES=8 "$FXT" stats -j 2 --json "$T/cs.fxt" | cmp -s - "$T/cs.json" || fail "split run differs"
