/* SPDX-License-Identifier: MIT */
/*
 * Snapshots while tracing (docs/manager.md#triggers), ratios in one run:
 *
 *   - the stall a traced thread sees: the latency of each event (rdtsc around the
 *     macro) while a snapshot is being taken, against the same thread's steady state
 *     in the windows between snapshots (p50, p99.9, max);
 *   - trigger to archive on disk: fxt_alert() to the snapshot file written and closed
 *     (and fsync'ed, said apart), for a full circular ring of MiB (default 64).
 *
 * A manager thread serves this process (as tests/test_manager_snapshot.c does) and saves
 * a snapshot at each alert into a file beside the output (default /tmp).
 *
 *   bench_snapshot [RING_MIB [ROUNDS [DIR]]]
 */
#define _GNU_SOURCE 1
#include <fxt/manager.h>
#include <fxt/trace.h>

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static uint64_t mono_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline uint64_t stamp(void) {
#if defined(__x86_64__)
    return __builtin_ia32_rdtsc();
#else
    return mono_ns();
#endif
}

typedef struct mgr {
    fxt_manager_t *m;
    const char *path;
    int stop, busy, done;
    uint64_t done_ns, fsync_ns, bytes, torn, copy_ns, cpu_ns;
    pthread_t th;
} mgr_t;

static void *serve(void *arg) {
    mgr_t *x = arg;
    while (!(__atomic_load_n(&x->stop, __ATOMIC_ACQUIRE) && fxt_manager_connected(x->m) == 0)) {
        fxt_manager_poll(x->m, 1);
        fxt_manager_trigger_t t;
        while (fxt_manager_take_trigger(x->m, &t) == FXT_OK) {
            __atomic_store_n(&x->busy, 1, __ATOMIC_RELEASE);
            int fd = open(x->path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            fxt_snapshot_info_t info;
            memset(&info, 0, sizeof info);
            struct timespec c0, c1;
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
            if (fd >= 0) {
                fxt_manager_snapshot(x->m, &t, t.ticks, fxt_sink_fd(&fd), &info);
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
                x->cpu_ns = (uint64_t)((c1.tv_sec - c0.tv_sec) * 1000000000L + (c1.tv_nsec - c0.tv_nsec));
                uint64_t written = mono_ns();
                fsync(fd);
                close(fd);
                x->fsync_ns = mono_ns() - written;
                x->done_ns = written;
            }
            x->bytes = info.bytes;
            x->torn = info.torn;
            x->copy_ns = info.copy_ns;
            __atomic_store_n(&x->busy, 0, __ATOMIC_RELEASE);
            __atomic_store_n(&x->done, 1, __ATOMIC_RELEASE);
        }
    }
    return NULL;
}

/* Per-event latencies (ticks) of one kind of window. */
typedef struct lat {
    uint64_t *v;
    size_t n, cap;
} lat_t;

static void add(lat_t *l, uint64_t d) {
    if (l->n < l->cap) {
        l->v[l->n++] = d;
    }
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static double pct(const lat_t *l, double p, double ns_per_tick) {
    if (l->n == 0) {
        return 0;
    }
    size_t i = (size_t)(p * (double)(l->n - 1));
    return (double)l->v[i] * ns_per_tick;
}

static inline void one(lat_t *l, long i) {
    uint64_t a = stamp();
    FXT_INSTANT("bench", "ev", FXT_I64("seq", i));
    add(l, stamp() - a);
}

int main(int argc, char **argv) {
    size_t mib = argc > 1 ? (size_t)atol(argv[1]) : 64;
    int rounds = argc > 2 ? atoi(argv[2]) : 5;
    const char *dir = argc > 3 ? argv[3] : "/tmp";
    static char path[4096];
    snprintf(path, sizeof path, "%s/bench_snapshot.%ld.fxt", dir, (long)getpid());
    int devnull = open("/dev/null", O_WRONLY);
    fxt_manager_config_t mc = FXT_MANAGER_CONFIG_INIT;
    mc.sink = fxt_sink_fd(&devnull);
    mc.mode = FXT_MODE_CIRCULAR;
    mc.buffer_size = mib << 20;
    static mgr_t x;
    x.path = path;
    if (fxt_manager_create(&mc, &x.m) != FXT_OK ||
        fxt_manager_add_trigger(x.m, "snap", FXT_TRIGGER_SNAPSHOT)) {
        fprintf(stderr, "bench_snapshot: cannot start the manager\n");
        return 1;
    }
    pthread_create(&x.th, NULL, serve, &x);
    setenv(FXT_MANAGER_ENV, fxt_manager_socket_path(x.m), 1);
    fxt_session_config_t c = FXT_SESSION_CONFIG_INIT;
    fxt_session_start(&c);
    /* fill the ring (~48 bytes an event) and more: snapshots copy a full ring */
    long seq = 0, fill = (long)((mib << 20) / 40);
    uint64_t t0 = stamp(), n0 = mono_ns();
    for (; seq < fill; seq++) {
        FXT_INSTANT("bench", "ev", FXT_I64("seq", seq));
    }
    double ns_per_tick = (double)(mono_ns() - n0) / (double)(stamp() - t0);
    lat_t steady = {calloc(8u << 20, 8), 0, 8u << 20}, during = {calloc(8u << 20, 8), 0, 8u << 20};
    double worst_disk = 0, sum_disk = 0, worst_fsync = 0, sum_copy = 0, sum_cpu = 0;
    uint64_t torn = 0, bytes = 0;
    for (int r = 0; r < rounds; r++) {
        for (long i = 0; i < 200000; i++) {
            one(&steady, seq++);
        }
        __atomic_store_n(&x.done, 0, __ATOMIC_RELEASE);
        uint64_t trig = mono_ns();
        fxt_alert("snap");
        while (!__atomic_load_n(&x.done, __ATOMIC_ACQUIRE)) {
            lat_t *l = __atomic_load_n(&x.busy, __ATOMIC_ACQUIRE) ? &during : &steady;
            one(l, seq++);
        }
        double ms = (double)(x.done_ns - trig) / 1e6;
        worst_disk = ms > worst_disk ? ms : worst_disk;
        sum_disk += ms;
        worst_fsync = (double)x.fsync_ns / 1e6 > worst_fsync ? (double)x.fsync_ns / 1e6 : worst_fsync;
        torn += x.torn;
        sum_copy += (double)x.copy_ns / 1e6;
        sum_cpu += (double)x.cpu_ns / 1e6;
        bytes = x.bytes;
    }
    fxt_session_stop();
    unsetenv(FXT_MANAGER_ENV);
    __atomic_store_n(&x.stop, 1, __ATOMIC_RELEASE);
    pthread_join(x.th, NULL);
    fxt_manager_finish(x.m);
    fxt_manager_destroy(x.m);
    unlink(path);
    qsort(steady.v, steady.n, 8, cmp_u64);
    qsort(during.v, during.n, 8, cmp_u64);
    printf("ring %zu MiB, %d snapshots of %.1f MiB of records (%llu chunks torn in all)\n", mib, rounds,
           (double)bytes / 1048576.0, (unsigned long long)torn);
    printf("trigger to archive written: mean %.1f ms, worst %.1f ms (then fsync: worst %.1f ms more)\n",
           sum_disk / rounds, worst_disk, worst_fsync);
    printf("  of which: the copy %.1f ms (mean), the manager thread's CPU time %.1f ms (mean; the rest is "
           "waiting for a CPU or the disk)\n",
           sum_copy / rounds, sum_cpu / rounds);
    printf("event latency     %10s %10s %10s %10s %12s\n", "p50 ns", "p99 ns", "p99.9 ns", "max ns",
           "events");
    printf("  steady          %10.1f %10.1f %10.1f %10.1f %12zu\n", pct(&steady, 0.5, ns_per_tick),
           pct(&steady, 0.99, ns_per_tick), pct(&steady, 0.999, ns_per_tick), pct(&steady, 1.0, ns_per_tick),
           steady.n);
    printf("  during snapshot %10.1f %10.1f %10.1f %10.1f %12zu\n", pct(&during, 0.5, ns_per_tick),
           pct(&during, 0.99, ns_per_tick), pct(&during, 0.999, ns_per_tick), pct(&during, 1.0, ns_per_tick),
           during.n);
    printf("  ratio           %10.2f %10.2f %10.2f %10.2f\n",
           pct(&during, 0.5, ns_per_tick) / pct(&steady, 0.5, ns_per_tick),
           pct(&during, 0.99, ns_per_tick) / pct(&steady, 0.99, ns_per_tick),
           pct(&during, 0.999, ns_per_tick) / pct(&steady, 0.999, ns_per_tick),
           pct(&during, 1.0, ns_per_tick) / pct(&steady, 1.0, ns_per_tick));
    free(steady.v);
    free(during.v);
    close(devnull);
    return 0;
}
