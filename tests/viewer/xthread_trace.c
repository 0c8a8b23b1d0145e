/* SPDX-License-Identifier: MIT */
/*
 * A trace written by libfxt's engine where chains cross threads: the main
 * thread begins async operations and flows, worker threads end them. The
 * engine writes one thread's chunks after another, so in the file an end can
 * come before its begin: the input for the time-order tests of fxt check, cut
 * and json (tests/cli/check, tests/cli/cut, tests/viewer). Linux/POSIX only
 * (pthreads), like the engine.
 *
 *     fxt_xthread_trace OUT.fxt [JOBS]
 */
#include <fxt/trace.h>

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define WORKERS 3

static unsigned jobs = 50;
static pthread_barrier_t started;

/* Each worker ends the chains of its share of the jobs, inside durations of its own. */
static void *worker(void *arg) {
    unsigned id = (unsigned)(uintptr_t)arg;
    fxt_set_thread_name(id == 0 ? "worker-0" : id == 1 ? "worker-1" : "worker-2");
    pthread_barrier_wait(&started);
    for (unsigned j = id; j < jobs; j += WORKERS) {
        FXT_DURATION_BEGIN("job", "run", FXT_U32("job", j));
        FXT_ASYNC_INSTANT("job", "queued", j + 1);
        FXT_FLOW_STEP("job", "handoff", j + 1);
        FXT_INSTANT("job", "working", FXT_U32("job", j));
        FXT_COUNTER("job", "done", 1, FXT_I64("jobs", (int64_t)j));
        FXT_ASYNC_END("job", "queued", j + 1);
        FXT_FLOW_END("job", "handoff", j + 1);
        FXT_DURATION_END("job", "run");
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: fxt_xthread_trace OUT.fxt [JOBS]\n");
        return 2;
    }
    if (argc > 2) {
        jobs = (unsigned)strtoul(argv[2], NULL, 10);
    }
    fxt_session_config_t cfg = FXT_SESSION_CONFIG_INIT;
    cfg.output_path = argv[1];
    if (fxt_session_start(&cfg) != FXT_OK) {
        fprintf(stderr, "fxt_xthread_trace: cannot start a session writing %s\n", argv[1]);
        return 1;
    }
    fxt_set_thread_name("main");
    pthread_t t[WORKERS];
    pthread_barrier_init(&started, NULL, WORKERS + 1);
    for (unsigned i = 0; i < WORKERS; i++) {
        pthread_create(&t[i], NULL, worker, (void *)(uintptr_t)i);
    }
    /* every chain is begun before any worker runs: its ends are later in time */
    FXT_DURATION_BEGIN("job", "submit");
    for (unsigned j = 0; j < jobs; j++) {
        FXT_ASYNC_BEGIN("job", "queued", j + 1, FXT_U32("job", j));
        FXT_FLOW_BEGIN("job", "handoff", j + 1);
    }
    FXT_DURATION_END("job", "submit");
    pthread_barrier_wait(&started);
    for (unsigned i = 0; i < WORKERS; i++) {
        pthread_join(t[i], NULL);
    }
    pthread_barrier_destroy(&started);
    return fxt_session_stop() == FXT_OK ? 0 : 1;
}
