/* SPDX-License-Identifier: MIT */
/*
 * Instructions per trace macro, for callgrind (which counts instructions,
 * not seconds, so the figure is the same on a loaded machine):
 *
 *   for n in 100000 300000; do
 *     valgrind --tool=callgrind --callgrind-out-file=/dev/null build/bench/bench_trace_instr CASE $n
 *   done
 *
 * and divide the difference of the two totals ("refs") by 200000. CASE:
 * instant (2 int args), counter (1 arg), pair (begin + end). Circular mode,
 * so the buffer never fills. docs/trace.md quotes the figures.
 */
#include <fxt/trace.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: bench_trace_instr instant|counter|pair N\n");
        return 2;
    }
    long n = atol(argv[2]);
    int c = strcmp(argv[1], "instant") == 0 ? 0 : strcmp(argv[1], "counter") == 0 ? 1 : 2;
    fxt_session_config_t cfg = FXT_SESSION_CONFIG_INIT;
    cfg.output_path = "/dev/null";
    cfg.mode = FXT_MODE_CIRCULAR;
    if (fxt_session_start(&cfg) != FXT_OK) {
        return 1;
    }
    for (long i = 0; i < n; i++) {
        if (c == 0) {
            FXT_INSTANT("bench", "instant", FXT_I32("a", (int)i), FXT_I32("b", 2));
        } else if (c == 1) {
            FXT_COUNTER("bench", "counter", 1, FXT_I64("v", i));
        } else {
            FXT_DURATION_BEGIN("bench", "d");
            FXT_DURATION_END("bench", "d");
        }
    }
    return fxt_session_stop() == FXT_OK ? 0 : 1;
}
