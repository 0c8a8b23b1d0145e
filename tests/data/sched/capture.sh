#!/bin/sh
# SPDX-License-Identifier: MIT
# How the fixtures of tests/test_record_sched.c were made (as root, tracefs mounted):
# a private instance with the sched events on the mono clock, a short workload
# (fork, exec, sleep, exit), then the formats (events/), the text rendering (trace.log, for
# hand-checking) and the raw per-CPU sub-buffers (cpuN.raw, as trace_pipe_raw gives them).
set -eu
out=$(cd "$(dirname "$0")" && pwd)
t=/sys/kernel/tracing
i=$t/instances/fxt-fixture
mkdir "$i"
trap 'echo 0 > "$i/tracing_on"; rmdir "$i"' EXIT
echo mono > "$i/trace_clock"
# the formats in tracefs's layout: the directory is a "tracing dir" for sched_tep_load()
for e in sched_switch sched_wakeup sched_wakeup_new sched_process_fork sched_process_exec sched_process_exit; do
    echo 1 > "$i/events/sched/$e/enable"
    mkdir -p "$out/events/sched/$e"
    cat "$t/events/sched/$e/format" > "$out/events/sched/$e/format"
done
cat "$t/events/header_page" > "$out/events/header_page"
echo 1 > "$i/tracing_on"
taskset -c 0 sh -c 'sleep 0.01; /bin/true' 
echo 0 > "$i/tracing_on"
cat "$i/trace" > "$out/trace.log"
for c in 0 1; do
    dd if="$i/per_cpu/cpu$c/trace_pipe_raw" of="$out/cpu$c.raw" bs=4096 iflag=nonblock 2>/dev/null || true
done
