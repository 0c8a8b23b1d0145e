/* SPDX-License-Identifier: MIT */
/*
 * The trace engine's clock: the TSC when it is invariant (x86-64), else
 * CLOCK_MONOTONIC. The TSC's rate is never measured with a sleep in the traced
 * program: under a trace manager it comes from the manager (one calibration
 * for all processes); standalone it is computed from (TSC, CLOCK_MONOTONIC)
 * pairs taken at session start and when the trace is written.
 *
 * One rate per boot: TSC values count from boot, so two processes converting
 * them with rates 4e-5 apart disagree by seconds. The first measurement of a
 * boot (>= 50 ms long) is kept in a small file (the rate cache, below) that
 * every later process and manager of the same user uses as is.
 */
#define _GNU_SOURCE 1 /* mkstemp, O_NOFOLLOW */
#include "trace_internal.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CACHE_MIN_NS 50000000u /* a measurement kept for the whole boot spans >= 50 ms */

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

/* ---- the rate cache: "<boot id> <ticks per second>\n" in $XDG_RUNTIME_DIR/fxt-tsc-rate,
 * else /tmp/fxt-tsc-rate-<uid>; read only when owned by the user, replaced by rename ---- */

static int cache_path(char *out, size_t cap) {
    const char *d = getenv("XDG_RUNTIME_DIR");
    int n = d != NULL && d[0] == '/' ? snprintf(out, cap, "%s/fxt-tsc-rate", d)
                                     : snprintf(out, cap, "/tmp/fxt-tsc-rate-%ld", (long)getuid());
    return n > 0 && (size_t)n < cap ? 0 : -1;
}

static int boot_id(char *out, size_t cap) {
    int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return -1;
    }
    ssize_t n = read(fd, out, cap - 1);
    close(fd);
    if (n < 8) {
        return -1;
    }
    out[n] = '\0';
    out[strcspn(out, "\n")] = '\0';
    return 0;
}

uint64_t fxt__trace_tsc_cached(void) {
    char path[4096], id[64], buf[160];
    if (cache_path(path, sizeof path) != 0 || boot_id(id, sizeof id) != 0) {
        return 0;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        return 0;
    }
    struct stat st;
    ssize_t n = fstat(fd, &st) == 0 && st.st_uid == getuid() ? read(fd, buf, sizeof buf - 1) : -1;
    close(fd);
    if (n <= 0) {
        return 0;
    }
    buf[n] = '\0';
    char fid[64];
    uint64_t tps = 0;
    if (sscanf(buf, "%63s %" SCNu64, fid, &tps) != 2 || strcmp(fid, id) != 0 || tps < 100000000u ||
        tps > UINT64_C(100000000000)) {
        return 0; /* another boot, or not ours */
    }
    return tps;
}

uint64_t fxt__trace_tsc_publish(uint64_t tps) {
    char path[4096], tmp[4200], id[64], line[160];
    if (cache_path(path, sizeof path) != 0 || boot_id(id, sizeof id) != 0) {
        return tps;
    }
    snprintf(tmp, sizeof tmp, "%s.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        return tps;
    }
    int n = snprintf(line, sizeof line, "%s %" PRIu64 "\n", id, tps);
    int ok = n > 0 && write(fd, line, (size_t)n) == (ssize_t)n;
    close(fd);
    /* link() elects one writer among processes that measured at the same time: the
     * others take its rate. A file of another boot (or a planted link) is replaced by
     * rename, which never writes through the name. */
    if (ok && link(tmp, path) != 0) {
        uint64_t theirs = fxt__trace_tsc_cached();
        if (theirs != 0) {
            tps = theirs;
        } else if (rename(tmp, path) == 0) {
            return tps;
        }
    }
    unlink(tmp);
    return tps;
}

uint64_t fxt__trace_calibrate_tsc(void) {
    uint64_t tps = fxt__trace_tsc_cached();
    if (tps != 0) {
        return tps;
    }
    uint64_t n0 = fxt__trace_mono_ns();
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    uint64_t t0 = __builtin_ia32_rdtsc();
    return fxt__trace_tsc_publish(fxt__trace_tps_from(t0, n0, CACHE_MIN_NS));
#else
    (void)n0;
    return 0;
#endif
}

uint64_t fxt__trace_tsc_settle(uint64_t tick0, uint64_t mono0, uint64_t min_ns) {
    uint64_t tps = fxt__trace_tsc_cached(); /* another process may have measured meanwhile */
    if (tps != 0) {
        return tps;
    }
    return fxt__trace_tsc_publish(
        fxt__trace_tps_from(tick0, mono0, min_ns > CACHE_MIN_NS ? min_ns : CACHE_MIN_NS));
}
