# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# By default scheduling records are systrace text lines in the
# systemTraceEvents string (the form Perfetto's JSON importer reads): a context
# switch with its weights as priorities and Linux's state letter, a wakeup, a
# legacy context switch with its priorities; threads without a name as tid-N.
# Times in nanoseconds (9 decimals: ftrace's 6 would round them); a wakeup as
# sched_waking, the event Perfetto's importer reads.
expect_eq "type" "$(jq -r '.systemTraceEvents | type' sys.json)" string
expect_eq "lines" "$(jq -r '.systemTraceEvents' sys.json)" \
'# tracer: nop
tid-101-101 [002] .... 0.000001500: sched_switch: prev_comm=tid-101 prev_pid=101 prev_prio=7 prev_state=S ==> next_comm=tid-102 next_pid=102 next_prio=9
<idle>-0 [001] .... 0.000002000: sched_waking: comm=tid-102 pid=102 prio=5 target_cpu=1
tid-101-101 [003] .... 0.000002500: sched_switch: prev_comm=tid-101 prev_pid=101 prev_prio=20 prev_state=T ==> next_comm=tid-201 next_pid=201 next_prio=31'
# a named thread's comm: its kernel object name, spaces replaced, at most 15
# bytes; a koid above 32 bits has no systrace line (Perfetto reads 32-bit pids)
"$PYTHON" - "$T/n.fxt" <<'PY'
import os, sys; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
t = magic() + provider_info(1, "p") + kernel_object(101, 2, sref("render thread one two"), args=[arg(8, sref("process"), 100)])
t += context_switch(3000, 2, 3, 101, 0)
t += context_switch(4000, 2, 3, 2**40, 101)
write(sys.argv[1], t)
PY
expect_eq "named" "$("$FXT" json "$T/n.fxt" 2> /dev/null | jq -r '.systemTraceEvents' | sed -n 2p)" \
  "render_thread_o-101 [002] .... 0.000003000: sched_switch: prev_comm=render_thread_o prev_pid=101 prev_prio=-1 prev_state=S ==> next_comm=<idle> next_pid=0 next_prio=-1"
expect_eq "lines with a 64-bit koid" "$("$FXT" json "$T/n.fxt" 2> "$T/n.err" | jq -r '.systemTraceEvents' | grep -c sched_switch)" 1
grep -q "1 records without a JSON form skipped" "$T/n.err" || fail "summary: $(cat "$T/n.err")"
