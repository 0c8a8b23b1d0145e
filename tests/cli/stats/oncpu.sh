# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# On-CPU time from context switches (per CPU, from a thread's switch-in to the next switch)
# beside the wall time of its slices; the same with ranges cut between the switches.
"$PYTHON" - <<'PY'
import os, sys; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
t = magic() + provider_info(1, "p") + string(1, "cat") + string(2, "work")
t += context_switch(0, 0, 0, 0, 11) + event(BEGIN, 0, (10, 11), 1, 2)
t += context_switch(300, 0, 2, 11, 12) + context_switch(400, 1, 0, 0, 11) + context_switch(900, 1, 2, 11, 0)
t += event(END, 1000, (10, 11), 1, 2) + context_switch(1000, 0, 0, 12, 11)
write(os.environ["T"] + "/cs.fxt", t)
PY
"$FXT" stats --json "$T/cs.fxt" > "$T/cs.json"
# thread 11: 0..300 on cpu 0, 400..900 on cpu 1 = 800 of its 1000 busy; thread 12: 300..1000 on cpu 0.
expect_eq "[tid,busy,oncpu]" "$(jq -c '[.threads[] | [.tid,.busy_ns,.oncpu_ns]]' "$T/cs.json")" '[[11,1000,800]]'
FXT_RANGE_BYTES=8 "$FXT" stats -j 2 --json "$T/cs.fxt" | cmp -s - "$T/cs.json" || fail "split run differs"
"$FXT" stats "$T/cs.fxt" | grep -q "on-cpu ns" || fail "no on-cpu column in the text"
