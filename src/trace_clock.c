/* SPDX-License-Identifier: MIT */
/* The trace engine's clock: the TSC when it is invariant (x86-64), else CLOCK_MONOTONIC. */
#include "trace_internal.h"

#include <stdio.h>
#include <string.h>

uint64_t fxt_ticks(void) { return fxt__trace_now(); }

int fxt__trace_tsc_invariant(void) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f == NULL) {
        return 0;
    }
    char line[4096];
    int constant = 0, nonstop = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "flags", 5) == 0) {
            constant = strstr(line, " constant_tsc") != NULL;
            nonstop = strstr(line, " nonstop_tsc") != NULL;
            break;
        }
    }
    fclose(f);
    return constant && nonstop;
#else
    return 0;
#endif
}

uint64_t fxt__trace_calibrate_tsc(void) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    uint64_t n0 = fxt__trace_mono_ns(), t0 = __builtin_ia32_rdtsc();
    struct timespec d = {0, 20000000};
    nanosleep(&d, NULL);
    uint64_t n1 = fxt__trace_mono_ns(), t1 = __builtin_ia32_rdtsc();
    if (n1 <= n0 || t1 <= t0) {
        return 0;
    }
    __extension__ typedef unsigned __int128 u128;
    return (uint64_t)((u128)(t1 - t0) * 1000000000u / (n1 - n0));
#else
    return 0;
#endif
}
