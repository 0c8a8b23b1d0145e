/* SPDX-License-Identifier: MIT */
/*
 * Instrumentation engine: sessions started and stopped while other threads
 * keep tracing (the flight-recorder use: stop whenever something happens).
 * Every archive must decode with no error and no unresolved reference, and
 * stopping must not race with in-flight records (run under TSan and ASan).
 */
#include "test.h"

#include <fxt/reader.h>
#include <fxt/trace.h>

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

static int stop_workers;

static void *worker(void *arg) {
    (void)arg;
    uint64_t i = 0;
    while (!__atomic_load_n(&stop_workers, __ATOMIC_RELAXED)) {
        FXT_DURATION_BEGIN("live", "work", FXT_U64("i", i));
        FXT_INSTANT("live", "tick", FXT_I32("a", 1), FXT_STR("s", "dynamic"));
        FXT_DURATION_END("live", "work");
        {
            FXT_DURATION("live", "scoped");
            FXT_COUNTER("live", "ctr", 1, FXT_U64("v", i));
        }
        i++;
    }
    return NULL;
}

static void check_archive(const uint8_t *data, size_t len, uint64_t *events) {
    fxt_reader_t *r = NULL;
    CHECK(fxt_reader_create(NULL, &r) == FXT_OK);
    fxt_in_buffer_t in = {data, len, 0};
    fxt_record_t rec;
    fxt_status st;
    int errors = 0, unresolved = 0, magic = 0;
    while ((st = fxt_reader_next(r, &in, &rec)) != FXT_NEED_INPUT && st != FXT_END) {
        if (st != FXT_OK) {
            errors++;
            continue;
        }
        magic += rec.kind == FXT_KIND_MAGIC;
        if (rec.kind != FXT_KIND_EVENT)
            continue;
        if (!rec.u.event.name.ptr || !rec.u.event.category.ptr || !rec.u.event.thread.resolved)
            unresolved++;
        (*events)++;
    }
    CHECK(fxt_reader_finish(r) == FXT_OK);
    fxt_reader_destroy(r);
    CHECK_EQ_U64(errors, 0);
    CHECK_EQ_U64(unresolved, 0);
    CHECK_EQ_U64(magic, 1);
}

static void sleep_ms(int ms) {
    struct timespec d = {0, ms * 1000000L};
    nanosleep(&d, NULL);
}

static void test_stop_while_tracing(void) {
    enum { NW = 3, ROUNDS = 12 };
    pthread_t th[NW];
    for (int i = 0; i < NW; i++)
        CHECK(pthread_create(&th[i], NULL, worker, NULL) == 0);
    uint64_t total = 0;
    for (int round = 0; round < ROUNDS; round++) {
        fxt_membuf_t mem = {0};
        fxt_session_config_t c = FXT_SESSION_CONFIG_INIT;
        c.sink = fxt_sink_membuf(&mem);
        c.mode = (fxt_buffer_mode)(round % 3);
        c.buffer_size = 256u << 10; /* small: circular wraps, oneshot fills, streaming switches */
        c.clock = FXT_CLOCK_MONOTONIC;
        CHECK(fxt_session_start(&c) == FXT_OK);
        CHECK(FXT_CATEGORY_ENABLED("live")); /* the per-site cache follows sessions */
        sleep_ms(5);
        CHECK(fxt_session_stop() == FXT_OK);
        CHECK(!FXT_CATEGORY_ENABLED("live"));
        uint64_t events = 0;
        check_archive(mem.data, mem.len, &events);
        total += events;
        fxt_membuf_free(&mem);
        sleep_ms(1);
    }
    __atomic_store_n(&stop_workers, 1, __ATOMIC_RELAXED);
    for (int i = 0; i < NW; i++)
        pthread_join(th[i], NULL);
    CHECK(total > 0);
}

/* internal (src/trace.c): thread states allocated so far */
uint64_t fxt__trace_thread_states(void);

static void *short_worker(void *arg) {
    (void)arg;
    FXT_INSTANT("live", "short");
    return NULL;
}

/* Short-lived threads: an exited thread's state is reused once its session is
 * over, so 4 sessions of 20 threads allocate ~20 states, not 80. */
static void test_short_threads_reuse_states(void) {
    uint64_t before = fxt__trace_thread_states();
    for (int round = 0; round < 4; round++) {
        fxt_membuf_t mem = {0};
        fxt_session_config_t c = FXT_SESSION_CONFIG_INIT;
        c.sink = fxt_sink_membuf(&mem);
        c.mode = (fxt_buffer_mode)(round % 3);
        c.buffer_size = 8u << 20; /* 32 chunks: every thread takes at least one */
        c.clock = FXT_CLOCK_MONOTONIC;
        CHECK(fxt_session_start(&c) == FXT_OK);
        for (int i = 0; i < 20; i++) {
            pthread_t th;
            CHECK(pthread_create(&th, NULL, short_worker, NULL) == 0);
            pthread_join(th, NULL);
        }
        CHECK(fxt_session_stop() == FXT_OK);
        fxt_session_stats_t st;
        fxt_session_get_stats(&st);
        CHECK_EQ_U64(st.threads, 20);
        uint64_t events = 0;
        check_archive(mem.data, mem.len, &events);
        CHECK_EQ_U64(events, 20);
        fxt_membuf_free(&mem);
    }
    uint64_t added = fxt__trace_thread_states() - before;
    CHECK(added <= 20);
}

int main(int argc, char **argv) {
    TEST_INIT(argc, argv);
    RUN(test_stop_while_tracing);
    RUN(test_short_threads_reuse_states);
    return TEST_EXIT();
}
