/* SPDX-License-Identifier: MIT */
/*
 * Events emitted while a session starts (issue 24.1): several threads make the
 * process's first trace calls while one of them starts the session from the
 * environment, slowed by a getenv() interposer (this program's getenv() wins
 * over libc's, for the statically linked engine too). Every event is recorded
 * or counted as dropped, in each mode. And events emitted by other threads
 * while fxt_session_start() runs are recorded. Each case runs in a forked
 * child (one process, one first event); the parent reads the trace its exit wrote.
 */
#include "test.h"
#include "trace_read.h"

#include <fxt/trace.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static int g_slow;     /* 1: getenv() sleeps in the session start */
static int g_in_start; /* the slowed getenv() is running */
static const char *g_slow_name = "FXT_TRACE_CATEGORIES";
static int g_slow_nth = 1; /* sleep at this call of getenv(g_slow_name) */
static int g_slow_calls;

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

/* The interposer: libc's lookup (environ), 30 ms slower at the chosen call. */
char *getenv(const char *name) {
    size_t n = strlen(name);
    if (__atomic_load_n(&g_slow, __ATOMIC_SEQ_CST) && strcmp(name, g_slow_name) == 0 &&
        __atomic_add_fetch(&g_slow_calls, 1, __ATOMIC_SEQ_CST) == g_slow_nth) {
        __atomic_store_n(&g_in_start, 1, __ATOMIC_SEQ_CST);
        sleep_ms(30);
    }
    for (char **e = environ; e != NULL && *e != NULL; e++) {
        if (strncmp(*e, name, n) == 0 && (*e)[n] == '=') {
            return *e + n + 1;
        }
    }
    return NULL;
}

#define NT 4
#define K 300

static pthread_barrier_t g_bar;

/* Each thread's first trace calls, all at once: K sequence-numbered events. */
static void *burst(void *arg) {
    long j = (long)(intptr_t)arg;
    pthread_barrier_wait(&g_bar);
    for (long i = 0; i < K; i++) {
        FXT_INSTANT("race", "ev", FXT_I64("seq", i), FXT_I64("thread", j));
    }
    return NULL;
}

static void trace_path(char *path, size_t cap, const char *what) {
    snprintf(path, cap, "%s/trace-race-%s-%d.fxt", FXT_BINARY_DIR, what, (int)getpid());
    unlink(path);
}

static void env_child(const char *mode) {
    setenv("FXT_TRACE_MODE", mode, 1);
    setenv("FXT_TRACE_CATEGORIES", "race", 1);
    setenv("FXT_TRACE_BUFFER_SIZE", "4M", 1);
    __atomic_store_n(&g_slow, 1, __ATOMIC_SEQ_CST);
    pthread_t th[NT];
    pthread_barrier_init(&g_bar, NULL, NT);
    for (long j = 0; j < NT; j++) {
        pthread_create(&th[j], NULL, burst, (void *)(intptr_t)j);
    }
    for (long j = 0; j < NT; j++) {
        pthread_join(th[j], NULL);
    }
    if (!fxt_session_active()) {
        _Exit(3);
    }
}

static void env_race(const char *mode) {
    char path[512];
    trace_path(path, sizeof path, mode);
    setenv("FXT_TRACE_OUTPUT", path, 1);
    CHECK_EQ_U64(tr_in_child(env_child, mode), 0);
    unsetenv("FXT_TRACE_OUTPUT");
    unsetenv("FXT_TRACE_OUTPUT_OWNER");
    static tr_summary_t s;
    tr_read(path, 0, &s);
    CHECK(s.ok);
    /* recorded or counted: with 4 MiB nothing should need to be dropped */
    CHECK_EQ_U64(s.ev + s.dropped, NT * K);
    CHECK_EQ_U64(s.dropped, 0);
    CHECK_EQ_U64(tr_missing(&s, NT, K), 0);
    unlink(path);
}

static void test_env_start_race_oneshot(void) { env_race("oneshot"); }
static void test_env_start_race_circular(void) { env_race("circular"); }
static void test_env_start_race_streaming(void) { env_race("streaming"); }

/* ---- fxt_session_start() while other threads trace ------------------------------------ */

static int g_stop;
static long g_first_after[NT]; /* first seq each thread emitted once the start was under way */

static void *spin(void *arg) {
    long j = (long)(intptr_t)arg;
    g_first_after[j] = -1;
    pthread_barrier_wait(&g_bar);
    for (long i = 0; i < TR_MAX_SEQ && !__atomic_load_n(&g_stop, __ATOMIC_SEQ_CST); i++) {
        if (g_first_after[j] < 0 && __atomic_load_n(&g_in_start, __ATOMIC_SEQ_CST)) {
            g_first_after[j] = i;
        }
        FXT_INSTANT("race", "ev", FXT_I64("seq", i), FXT_I64("thread", j));
        sleep_ms(1);
    }
    return NULL;
}

static void explicit_child(const char *path) {
    /* the start reads FXT_TRACE_MANAGER twice: before it takes the session lock and
     * once it holds it (whether to register with a manager); the second is slowed */
    g_slow_name = "FXT_TRACE_MANAGER";
    g_slow_nth = 2;
    pthread_t th[NT];
    pthread_barrier_init(&g_bar, NULL, NT + 1);
    for (long j = 0; j < NT; j++) {
        pthread_create(&th[j], NULL, spin, (void *)(intptr_t)j);
    }
    pthread_barrier_wait(&g_bar);
    sleep_ms(20); /* the threads' sites are evaluated (no session: off) */
    __atomic_store_n(&g_slow, 1,
                     __ATOMIC_SEQ_CST); /* only now: the sites' first evaluation read FXT_TRACE_MANAGER too */
    fxt_session_config_t cfg = FXT_SESSION_CONFIG_INIT;
    cfg.output_path = path;
    cfg.categories = "race";
    cfg.buffer_size = 1 << 20;
    if (fxt_session_start(&cfg) != FXT_OK) {
        _Exit(5);
    }
    sleep_ms(20);
    __atomic_store_n(&g_stop, 1, __ATOMIC_SEQ_CST);
    for (long j = 0; j < NT; j++) {
        pthread_join(th[j], NULL);
    }
    if (fxt_session_stop() != FXT_OK) {
        _Exit(6);
    }
    /* hand the first sequence numbers to the parent through the trace's side file */
    char side[600];
    snprintf(side, sizeof side, "%s.first", path);
    FILE *f = fopen(side, "w");
    if (f == NULL) {
        _Exit(7);
    }
    for (int j = 0; j < NT; j++) {
        fprintf(f, "%ld\n", g_first_after[j]);
    }
    fclose(f);
}

static void test_explicit_start_while_tracing(void) {
    char path[512], side[600];
    trace_path(path, sizeof path, "explicit");
    snprintf(side, sizeof side, "%s.first", path);
    CHECK_EQ_U64(tr_in_child(explicit_child, path), 0);
    static tr_summary_t s;
    tr_read(path, 0, &s);
    CHECK(s.ok);
    FILE *f = fopen(side, "r");
    CHECK(f != NULL);
    if (f == NULL) {
        return;
    }
    uint64_t missing = 0;
    for (int j = 0; j < NT; j++) {
        long first = -1;
        CHECK(fscanf(f, "%ld", &first) == 1);
        CHECK(first >= 0); /* the thread saw the start under way */
        /* from there on, every event up to the last one kept is in the trace */
        long last = -1;
        for (long q = 0; q < TR_MAX_SEQ; q++) {
            if (s.seen[j][q]) {
                last = q;
            }
        }
        for (long q = first; q >= 0 && q <= last; q++) {
            missing += s.seen[j][q] != 1;
        }
        CHECK(last >= first);
    }
    fclose(f);
    CHECK_EQ_U64(missing, 0);
    unlink(path);
    unlink(side);
}

int main(int argc, char **argv) {
    TEST_INIT(argc, argv);
    RUN(test_env_start_race_oneshot);
    RUN(test_env_start_race_circular);
    RUN(test_env_start_race_streaming);
    RUN(test_explicit_start_while_tracing);
    return TEST_EXIT();
}
