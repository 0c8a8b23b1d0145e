/* SPDX-License-Identifier: MIT */
/*
 * Per-event cost under a trace manager (what `fxt record` runs: the buffer is a
 * shared memfd mapping) over the in-process cost, same scenarios, same run
 * (issue 27), next to a floor (clock + the same stores into a wrapping buffer):
 *
 *   steady   circular 64 MiB buffer, written through twice first; the best
 *            20,000-event block of 30
 *   early    a new session (oneshot 64 MiB): its first 10 ms of events
 *   fresh    in-process only: a new oneshot session's first 32 MiB of events,
 *            over the steady (resident) cost
 * A block of events during which the thread was preempted is not counted
 * (see fresh()): on a loaded machine it measures the wait for a CPU.
 *
 * Cases: a duration begin+end pair, and an instant with 2 integer arguments.
 * In-process and managed runs alternate, in swapped order every round; each
 * ratio is the median over the rounds of the per-round ratio (the machine's
 * load changes between rounds, rarely within one). The manager runs on a
 * thread of this process and counts the archive's bytes. The buffer each
 * managed session obtained (resident, huge pages) is printed at the end.
 *
 * Usage: bench_manager [ROUNDS] (default 7)
 */
#define _GNU_SOURCE 1
#include <fxt/manager.h>
#include <fxt/trace.h>

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define BUF (64u << 20)
#define BLOCK 20000L
#define BLOCKS 30
#define EARLY_NS 10000000.0
#define MAX_ROUNDS 64

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static volatile uint64_t sink;
static uint64_t ring[8192];

/* clock + `words` stores per clock read, `clocks` times per event */
static double floor_ns(unsigned clocks, unsigned words) {
    double best = 1e18;
    for (int b = 0; b < BLOCKS; b++) {
        double t0 = now_ns();
        size_t pos = 0;
        for (long i = 0; i < BLOCK; i++) {
            for (unsigned c = 0; c < clocks; c++) {
                uint64_t ts = fxt_ticks();
                for (unsigned k = 0; k < words; k++) {
                    ring[pos] = ts + k;
                    pos = (pos + 1) & 8191;
                }
            }
        }
        sink = ring[pos];
        double t = (now_ns() - t0) / (double)BLOCK;
        best = t < best ? t : best;
    }
    return best;
}

static void events(int c, long n) {
    for (long i = 0; i < n; i++) {
        if (c == 0) {
            FXT_DURATION_BEGIN("bench", "pair");
            FXT_DURATION_END("bench", "pair");
        } else {
            FXT_INSTANT("bench", "instant", FXT_I32("a", (int)i), FXT_I64("b", i));
        }
    }
}

/* ---- sessions: in-process, or under a manager on a thread of this process ------------------- */

static fxt_status count_sink(void *ctx, const void *data, size_t len) {
    (void)data;
    *(uint64_t *)ctx += len;
    return FXT_OK;
}

typedef struct mgr {
    fxt_manager_t *m;
    int stop;
    uint64_t bytes;
    pthread_t th;
} mgr_t;

static mgr_t g_mgr;
static uint64_t g_out_bytes;

static void *mgr_main(void *arg) {
    mgr_t *x = arg;
    while (!__atomic_load_n(&x->stop, __ATOMIC_ACQUIRE)) {
        fxt_manager_poll(x->m, 5);
    }
    return NULL;
}

/* managed: a manager of that mode (a new one when the mode changes) */
static fxt_buffer_mode g_mgr_mode = FXT_MODE_CIRCULAR;

static void mgr_destroy(void) {
    if (g_mgr.m == NULL) {
        return;
    }
    __atomic_store_n(&g_mgr.stop, 1, __ATOMIC_RELEASE);
    pthread_join(g_mgr.th, NULL);
    fxt_manager_stop(g_mgr.m);
    fxt_manager_finish(g_mgr.m);
    fxt_manager_destroy(g_mgr.m);
    memset(&g_mgr, 0, sizeof g_mgr);
}

static int start(int managed, fxt_buffer_mode mode) {
    fxt_session_config_t c = FXT_SESSION_CONFIG_INIT;
    if (managed) {
        if (g_mgr.m != NULL && g_mgr_mode != mode) {
            mgr_destroy();
        }
        if (g_mgr.m == NULL) {
            g_mgr_mode = mode;
            fxt_manager_config_t mc = FXT_MANAGER_CONFIG_INIT;
            mc.sink.write = count_sink;
            mc.sink.ctx = &g_mgr.bytes;
            mc.mode = mode;
            mc.buffer_size = BUF;
            mc.categories = "bench";
            if (fxt_manager_create(&mc, &g_mgr.m) != FXT_OK ||
                pthread_create(&g_mgr.th, NULL, mgr_main, &g_mgr) != 0) {
                return -1;
            }
        }
        setenv(FXT_MANAGER_ENV, fxt_manager_socket_path(g_mgr.m), 1);
    } else {
        unsetenv(FXT_MANAGER_ENV);
        c.sink.write = count_sink;
        c.sink.ctx = &g_out_bytes;
        c.mode = mode;
        c.buffer_size = BUF;
        c.categories = "bench";
    }
    return fxt_session_start(&c) == FXT_OK ? 0 : -1;
}

/* Stop, and let the manager collect the session before the next measure starts. */
static void stop(int managed) {
    fxt_session_stop();
    if (managed) {
        for (int i = 0; i < 2000 && fxt_manager_connected(g_mgr.m) > 0; i++) {
            struct timespec ts = {0, 1000000};
            nanosleep(&ts, NULL);
        }
    }
}

/* What the last managed steady session's buffer obtained (fxt_manager_provider_t). */
static fxt_manager_provider_t g_steady_buf;

static void note_buffer(void) {
    size_t n = fxt_manager_provider_count(g_mgr.m);
    if (n > 0) {
        fxt_manager_get_provider(g_mgr.m, n - 1, &g_steady_buf);
    }
}

/* ---- scenarios --------------------------------------------------------------------------------- */

static double steady(int managed, int c) {
    if (start(managed, FXT_MODE_CIRCULAR) != 0) {
        return -1;
    }
    events(c, 2 * (long)(BUF / 32)); /* the whole ring written at least once */
    double best = 1e18;
    for (int b = 0; b < BLOCKS; b++) {
        double t0 = now_ns();
        events(c, BLOCK);
        double t = (now_ns() - t0) / (double)BLOCK;
        best = t < best ? t : best;
    }
    stop(managed);
    if (managed) {
        note_buffer();
    }
    return best;
}

/* The calling thread's involuntary context switches and minor page faults so far. */
static void usage_now(long *preempted, long *faults) {
    *preempted = *faults = 0;
#if defined(RUSAGE_THREAD)
    struct rusage ru;
    if (getrusage(RUSAGE_THREAD, &ru) == 0) {
        *preempted = ru.ru_nivcsw;
        *faults = ru.ru_minflt;
    }
#endif
}

/* page faults taken by the traced thread in fresh(), per scenario: [managed] */
static double g_faults[2], g_fault_events[2];

/*
 * ns per event of a new session: blocks of 256 events from the start on, until the blocks
 * took `limit_ns` or `max_events` were written. A block during which the thread was
 * preempted (an involuntary context switch: on a loaded machine, a wait of several ms for
 * a CPU) measured the machine, not the buffer: it is not counted (its events still moved
 * the session on). Page faults and waits on the kernel's locks are voluntary: counted.
 */
static double fresh(int managed, int c, double limit_ns, long max_events) {
    if (start(managed, FXT_MODE_ONESHOT) != 0) {
        return -1;
    }
    long n = 0, counted = 0, p0, f0, p1, f1, faults = 0;
    double took = 0;
    while (took < limit_ns && n < max_events) {
        usage_now(&p0, &f0);
        double t0 = now_ns();
        events(c, 256);
        double t = now_ns() - t0;
        usage_now(&p1, &f1);
        n += 256;
        faults += f1 - f0;
        if (p1 == p0) {
            took += t;
            counted += 256;
        }
    }
    stop(managed);
    g_faults[managed] += (double)faults;
    g_fault_events[managed] += (double)n;
    return counted > 0 ? took / (double)counted : -1;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void describe_buffer(void) {
#if defined(FXT_SHM_PAGES_RESIDENT)
    const fxt_manager_provider_t *p = &g_steady_buf;
    printf("managed buffer (steady): %" PRIu64 " bytes, %s, %u huge pages of 2 MiB%s\n", p->buffer_bytes,
           p->buffer_pages & FXT_SHM_PAGES_RESIDENT ? "resident (populated off the traced thread)"
           : p->buffer_pages & FXT_SHM_PAGES_DONE   ? "populating stopped early"
                                                    : "still populating at the stop",
           p->buffer_pages >> FXT_SHM_PAGES_HUGE_SHIFT,
           p->buffer_pages & FXT_SHM_PAGES_HUGETLB ? " (hugetlb)" : "");
#endif
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 7;
    if (rounds < 1 || rounds > MAX_ROUNDS) {
        fprintf(stderr, "usage: bench_manager [ROUNDS (1-%d)]\n", MAX_ROUNDS);
        return 2;
    }
    static const char *const names[2] = {"duration begin+end", "instant, 2 int args"};
    static const unsigned clocks[2] = {2, 1}, words[2] = {2, 5};
    printf("%d rounds; ratios: median over rounds of the round's ratio (min in brackets)\n", rounds);
    for (int c = 0; c < 2; c++) {
        double r_steady[MAX_ROUNDS], r_early[MAX_ROUNDS], r_fresh[MAX_ROUNDS], r_early_res[MAX_ROUNDS];
        double i_st[MAX_ROUNDS], m_st[MAX_ROUNDS], i_ea[MAX_ROUNDS], m_ea[MAX_ROUNDS], fl[MAX_ROUNDS];
        for (int r = 0; r < rounds; r++) {
            double v[2][3];
            for (int k = 0; k < 2; k++) {
                int managed = (k + r) % 2; /* alternate, swapping the order each round */
                v[managed][0] = steady(managed, c);
                v[managed][1] = fresh(managed, c, EARLY_NS, 1L << 40);
                v[managed][2] = managed ? 0 : fresh(0, c, 1e18, (long)(BUF / 2 / (c == 0 ? 32 : 40)));
            }
            if (v[0][0] <= 0 || v[1][0] <= 0 || v[0][1] <= 0 || v[1][1] <= 0) {
                fprintf(stderr, "bench_manager: cannot start a session (the manager needs Linux)\n");
                return 1;
            }
            fl[r] = floor_ns(clocks[c], words[c]);
            i_st[r] = v[0][0];
            m_st[r] = v[1][0];
            i_ea[r] = v[0][1];
            m_ea[r] = v[1][1];
            r_steady[r] = v[1][0] / v[0][0];
            r_early[r] = v[1][1] / v[0][1];
            r_early_res[r] = v[1][1] / v[0][0];
            r_fresh[r] = v[0][2] / v[0][0];
        }
        double mins[5] = {1e18, 1e18, 1e18, 1e18, 1e18};
        for (int r = 0; r < rounds; r++) {
            double x[5] = {r_steady[r], r_early[r], r_early_res[r], r_fresh[r], i_st[r] / fl[r]};
            for (int k = 0; k < 5; k++) {
                mins[k] = x[k] < mins[k] ? x[k] : mins[k];
            }
        }
        double ratio_floor[MAX_ROUNDS];
        for (int r = 0; r < rounds; r++) {
            ratio_floor[r] = i_st[r] / fl[r];
        }
        printf("%s: in-process %.2f ns steady, %.2f ns early; managed %.2f / %.2f ns; floor %.2f ns\n",
               names[c], median(i_st, rounds), median(i_ea, rounds), median(m_st, rounds),
               median(m_ea, rounds), median(fl, rounds));
        printf("  managed / in-process, steady:            %.2f (%.2f)   goal <= 1.05\n",
               median(r_steady, rounds), mins[0]);
        printf("  managed / in-process, first 10 ms:       %.2f (%.2f)   goal <= 1.2\n",
               median(r_early, rounds), mins[1]);
        printf("  managed first 10 ms / in-process steady: %.2f (%.2f)\n", median(r_early_res, rounds),
               mins[2]);
        printf("  fresh oneshot / resident, in-process:    %.2f (%.2f)   goal <= 1.2\n",
               median(r_fresh, rounds), mins[3]);
        printf("  in-process steady / floor:               %.2f (%.2f)\n", median(ratio_floor, rounds),
               mins[4]);
    }
    printf("page faults in the traced thread, new sessions: %.1f per 1,000 events in-process, %.1f managed\n",
           1000.0 * g_faults[0] / g_fault_events[0], 1000.0 * g_faults[1] / g_fault_events[1]);
    describe_buffer();
    unsetenv(FXT_MANAGER_ENV);
    mgr_destroy();
    return 0;
}
