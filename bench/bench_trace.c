/* SPDX-License-Identifier: MIT */
/*
 * Cost of the trace macros, next to floors measured in the same run:
 *   clock        reading the session clock alone (fxt_ticks)
 *   clock+store  reading the clock and storing the same number of bytes as the
 *                event into a wrapping buffer (what any tracer must at least do)
 * Cases: a disabled category, an enabled duration begin+end pair, a scoped
 * duration, an instant with 2 integer arguments, a counter; then 2 threads.
 * Circular mode, so buffers never fill up. Best of 5.
 * Then the same pair and instant under a trace manager (in-process, as
 * `fxt record` runs it: the buffer is a shared memfd mapping), next to the
 * standalone figures of the same run; and streaming throughput with the
 * manager draining (events/s, drops).
 *
 * Usage: bench_trace [N] (default 2,000,000 events per case)
 */
#include <fxt/manager.h>
#include <fxt/trace.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static volatile uint64_t sink;
static uint64_t ring[8192];

static double floor_clock(long n) {
    double t0 = now();
    uint64_t s = 0;
    for (long i = 0; i < n; i++) {
        s += fxt_ticks();
    }
    sink = s;
    return (now() - t0) / (double)n;
}

/* clock + `words` stores per event */
static double floor_store(long n, unsigned words) {
    double t0 = now();
    size_t pos = 0;
    for (long i = 0; i < n; i++) {
        uint64_t ts = fxt_ticks();
        for (unsigned k = 0; k < words; k++) {
            ring[pos] = ts + k;
            pos = (pos + 1) & 8191;
        }
    }
    sink = ring[pos];
    return (now() - t0) / (double)n;
}

static void scoped(void) { FXT_DURATION("bench", "scoped"); }

static double run_case(int c, long n) {
    double t0 = now();
    for (long i = 0; i < n; i++) {
        switch (c) {
        case 0:
            FXT_INSTANT("off", "disabled", FXT_I32("i", (int)i));
            break;
        case 1:
            FXT_DURATION_BEGIN("bench", "pair");
            FXT_DURATION_END("bench", "pair");
            break;
        case 2:
            scoped();
            break;
        case 3:
            FXT_INSTANT("bench", "instant", FXT_I32("a", (int)i), FXT_I64("b", i));
            break;
        default:
            FXT_COUNTER("bench", "counter", 1, FXT_I64("v", i));
            break;
        }
    }
    return (now() - t0) / (double)n;
}

static void *thread_main(void *arg) {
    long n = *(long *)arg;
    for (long i = 0; i < n; i++) {
        FXT_INSTANT("bench", "mt", FXT_I32("i", (int)i));
    }
    return NULL;
}

/* ---- under a trace manager ---------------------------------------------------------------- */

typedef struct mgr {
    fxt_manager_t *m;
    int stop;
    uint64_t bytes;
    pthread_t th;
} mgr_t;

static fxt_status count_sink(void *ctx, const void *data, size_t len) {
    (void)data;
    *(uint64_t *)ctx += len;
    return FXT_OK;
}

static void *mgr_main(void *arg) {
    mgr_t *x = arg;
    while (!(__atomic_load_n(&x->stop, __ATOMIC_ACQUIRE) && fxt_manager_connected(x->m) == 0)) {
        fxt_manager_poll(x->m, 5);
    }
    return NULL;
}

/* A manager thread in this process, and this process's session registered with it. */
static int managed_start(mgr_t *x, fxt_buffer_mode mode, size_t size) {
    memset(x, 0, sizeof *x);
    fxt_manager_config_t mc = FXT_MANAGER_CONFIG_INIT;
    mc.sink.write = count_sink;
    mc.sink.ctx = &x->bytes;
    mc.mode = mode;
    mc.buffer_size = size;
    mc.categories = "bench";
    if (fxt_manager_create(&mc, &x->m) != FXT_OK || pthread_create(&x->th, NULL, mgr_main, x) != 0) {
        return -1;
    }
    setenv(FXT_MANAGER_ENV, fxt_manager_socket_path(x->m), 1);
    fxt_session_config_t c = FXT_SESSION_CONFIG_INIT;
    return fxt_session_start(&c) == FXT_OK ? 0 : -1;
}

static void managed_stop(mgr_t *x) {
    fxt_session_stop();
    unsetenv(FXT_MANAGER_ENV);
    __atomic_store_n(&x->stop, 1, __ATOMIC_RELEASE);
    pthread_join(x->th, NULL);
    fxt_manager_finish(x->m);
    fxt_manager_destroy(x->m);
}

static double best_of(int c, long n) {
    double best = 1e9;
    for (int rep = 0; rep < 5; rep++) {
        double t = run_case(c, n);
        best = t < best ? t : best;
    }
    return best;
}

static void bench_managed(long n, const double standalone[5]) {
    mgr_t x;
    if (managed_start(&x, FXT_MODE_CIRCULAR, 64u << 20) != 0) {
        printf("under a manager: cannot start (%s)\n", "Linux only");
        return;
    }
    static const int cases[2] = {1, 3};
    static const char *const names[2] = {"duration begin+end", "instant, 2 int args"};
    for (int k = 0; k < 2; k++) {
        double t = best_of(cases[k], n);
        printf("%-22s %10.2f ns under a manager, %.2f standalone: ratio %.2f\n", names[k], t * 1e9,
               standalone[cases[k]] * 1e9, t / standalone[cases[k]]);
    }
    managed_stop(&x);
    /* streaming: one thread as fast as it can, the manager draining 256 KiB chunks of an 8 MiB buffer */
    if (managed_start(&x, FXT_MODE_STREAMING, 8u << 20) != 0) {
        return;
    }
    long m = 4 * n;
    double t0 = now();
    for (long i = 0; i < m; i++) {
        FXT_INSTANT("bench", "stream", FXT_I32("i", (int)i));
    }
    double el = now() - t0;
    fxt_session_stats_t st;
    fxt_session_get_stats(&st);
    managed_stop(&x);
    printf("streaming, manager draining: %.1f M events/s emitted, %.1f%% dropped, %.0f MB/s drained\n",
           (double)m / el / 1e6, 100.0 * (double)st.dropped / (double)m, (double)x.bytes / el / 1e6);
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 2000000;
    fxt_membuf_t mem = {0};
    fxt_session_config_t cfg = FXT_SESSION_CONFIG_INIT;
    cfg.sink = fxt_sink_membuf(&mem);
    cfg.mode = FXT_MODE_CIRCULAR;
    cfg.buffer_size = 64u << 20;
    cfg.categories = "bench";
    if (fxt_session_start(&cfg) != FXT_OK) {
        return 1;
    }
    fxt_session_stats_t st;
    fxt_session_get_stats(&st);
    /* bytes per event: pair = 2 x 16, scoped = 24, instant 2 args = 40, counter = 40 */
    static const char *const names[5] = {"disabled category", "duration begin+end", "scoped duration",
                                         "instant, 2 int args", "counter"};
    static const unsigned words[5] = {0, 4, 3, 5, 5};
    static const unsigned clocks[5] = {0, 2, 2, 1, 1};
    printf("%-22s %10s %12s %16s %8s\n", "case", "ns/call", "floor ns", "floor", "ratio");
    double standalone[5];
    for (int c = 0; c < 5; c++) {
        double best = 1e9, fl = 1e9;
        for (int rep = 0; rep < 5; rep++) {
            double t = run_case(c, n);
            best = t < best ? t : best;
            double f = c == 0 ? 0 : clocks[c] * floor_store(n, words[c] / clocks[c]);
            if (c != 0) {
                fl = f < fl ? f : fl;
            }
        }
        standalone[c] = best;
        if (c == 0) {
            printf("%-22s %10.2f %12s %16s %8s\n", names[c], best * 1e9, "-", "(target <= 1 ns)", "-");
        } else {
            printf("%-22s %10.2f %12.2f %16s %8.2f\n", names[c], best * 1e9, fl * 1e9, "clock+stores",
                   best / fl);
        }
    }
    double fc = 1e9;
    for (int rep = 0; rep < 5; rep++) {
        double f = floor_clock(n);
        fc = f < fc ? f : fc;
    }
    printf("%-22s %10.2f   (the clock read alone; ticks/s %llu)\n", "floor: clock", fc * 1e9,
           (unsigned long long)st.ticks_per_second);
    long per = n;
    pthread_t th[2];
    double t0 = now();
    for (int i = 0; i < 2; i++) {
        pthread_create(&th[i], NULL, thread_main, &per);
    }
    for (int i = 0; i < 2; i++) {
        pthread_join(th[i], NULL);
    }
    double el = now() - t0;
    printf("2 threads: %.1f M events/s total (%.2f ns per event per thread)\n", 2.0 * (double)per / el / 1e6,
           el * 1e9 / (double)per);
    fxt_session_stop();
    fxt_membuf_free(&mem);
    bench_managed(n, standalone);
    return 0;
}
