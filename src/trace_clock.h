/* SPDX-License-Identifier: MIT */
/*
 * The session clock's helpers (src/trace_clock.c), shared by the trace engine
 * and the trace manager (src/manager.c), which calibrates the clock of a
 * recording without the rest of the engine: the TSC when it is invariant,
 * else CLOCK_MONOTONIC nanoseconds.
 */
#ifndef FXT_TRACE_CLOCK_H
#define FXT_TRACE_CLOCK_H

#include <stdint.h>
#include <time.h>

#if !defined(CLOCK_MONOTONIC)
#error "libfxt trace engine: needs clock_gettime(CLOCK_MONOTONIC)"
#endif

/* Hidden: internal to the library (the static library still needs the fxt__ prefix). */
#pragma GCC visibility push(hidden)

int fxt__trace_tsc_invariant(void);
uint64_t fxt__trace_calibrate_tsc(void);
uint64_t fxt__trace_realtime_ns(void);
/* ticks per second from (ticks, mono ns) pairs taken at t0 and now (waits until >= min_ns apart) */
uint64_t fxt__trace_tps_from(uint64_t tick0, uint64_t mono0, uint64_t min_ns);
/* the boot's TSC rate if a process of this user measured it (0: none yet); publishing a
 * measured one returns the rate to use (another process's, if it published first) */
uint64_t fxt__trace_tsc_cached(void);
uint64_t fxt__trace_tsc_publish(uint64_t tps);
/* standalone: the cached rate, else measured from (tick0, mono0) (>= 50 ms) and cached */
uint64_t fxt__trace_tsc_settle(uint64_t tick0, uint64_t mono0, uint64_t min_ns);

#pragma GCC visibility pop

static inline uint64_t fxt__trace_mono_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif /* FXT_TRACE_CLOCK_H */
