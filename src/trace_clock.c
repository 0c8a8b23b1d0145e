/* SPDX-License-Identifier: MIT */
/*
 * The trace engine's clock: the TSC when it is invariant (x86-64), else
 * CLOCK_MONOTONIC. The TSC's rate is never measured with a sleep in the traced
 * program: under a trace manager it comes from the manager (one calibration
 * for all processes); standalone it is computed from (TSC, CLOCK_MONOTONIC)
 * pairs taken at session start and when the trace is written.
 */
#include "trace_internal.h"

#include <stdio.h>
#include <string.h>

uint64_t fxt_ticks(void) { return fxt__trace_now(); }

uint64_t fxt__trace_realtime_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int fxt__trace_tsc_invariant(void) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    FILE *f = fopen("/proc/cpuinfo", "re");
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

uint64_t fxt__trace_tps_from(uint64_t tick0, uint64_t mono0, uint64_t min_ns) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    uint64_t n1 = fxt__trace_mono_ns();
    if (n1 < mono0 + min_ns) {
        uint64_t left = mono0 + min_ns - n1;
        struct timespec d = {(time_t)(left / 1000000000u), (long)(left % 1000000000u)};
        nanosleep(&d, NULL);
        n1 = fxt__trace_mono_ns();
    }
    uint64_t t1 = __builtin_ia32_rdtsc();
    if (n1 <= mono0 || t1 <= tick0) {
        return 1000000000u;
    }
    __extension__ typedef unsigned __int128 u128;
    return (uint64_t)((u128)(t1 - tick0) * 1000000000u / (n1 - mono0));
#else
    (void)tick0, (void)mono0, (void)min_ns;
    return 1000000000u;
#endif
}

uint64_t fxt__trace_calibrate_tsc(void) {
    uint64_t n0 = fxt__trace_mono_ns();
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    uint64_t t0 = __builtin_ia32_rdtsc();
    return fxt__trace_tps_from(t0, n0, 20000000u);
#else
    (void)n0;
    return 0;
#endif
}
