/* SPDX-License-Identifier: MIT */
/*
 * The trace manager in-process: a manager thread serves this process, which
 * registers as a provider (FXT_TRACE_MANAGER) and traces from 8 threads, in
 * each mode. Every thread's events are in the archive, counted exactly:
 * kept + reported drops = emitted (oneshot, streaming); circular keeps each
 * thread's newest events without gaps. Runs under TSan (label threads).
 */
#include <fxt/manager.h>
#include <fxt/reader.h>
#include <fxt/trace.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "test.h"

#define NT 8
#define MAX_SEEN 64

typedef struct mgr_thread {
    fxt_manager_t *m;
    int stop;
    pthread_t th;
} mgr_thread_t;

/* Serve until told to stop and every provider is collected. */
static void *serve(void *arg) {
    mgr_thread_t *x = arg;
    while (!(__atomic_load_n(&x->stop, __ATOMIC_ACQUIRE) && fxt_manager_connected(x->m) == 0)) {
        fxt_manager_poll(x->m, 2);
    }
    return NULL;
}

static long g_n;
static int g_pace; /* streaming: pause now and then, so that the manager drains while threads trace */

static void *emitter(void *arg) {
    long j = (long)(intptr_t)arg;
    for (long i = 0; i < g_n; i++) {
        if (i == 100) { /* renamed after its first chunk: the archive has the new name */
            char name[32];
            snprintf(name, sizeof name, "renamed-%ld", j);
            fxt_set_thread_name(name);
        }
        FXT_INSTANT("stress", "ev", FXT_I64("thread", j), FXT_I64("seq", i));
        if (g_pace && i % 250 == 249) {
            struct timespec d = {0, 1000000};
            nanosleep(&d, NULL);
        }
    }
    return NULL;
}

typedef struct seen {
    long n[NT], first[NT], last[NT], gaps;
    uint64_t dropped_reported;
    int providers, errors;
    int renamed[NT];
} seen_t;

static void read_archive(const fxt_membuf_t *mem, seen_t *s) {
    memset(s, 0, sizeof *s);
    for (int j = 0; j < NT; j++) {
        s->first[j] = -1;
        s->last[j] = -1;
    }
    fxt_reader_t *r;
    fxt_reader_create(NULL, &r);
    fxt_in_buffer_t in = {mem->data, mem->len, 0};
    fxt_record_t rec;
    for (;;) {
        fxt_status st = fxt_reader_next(r, &in, &rec);
        if (st == FXT_NEED_INPUT || st == FXT_END) {
            break;
        }
        if (st != FXT_OK) {
            s->errors++;
            continue;
        }
        if (rec.kind == FXT_KIND_PROVIDER_INFO) {
            s->providers++;
        }
        const fxt_str_t *kn = &rec.u.kernel_object.name;
        if (rec.kind == FXT_KIND_KERNEL_OBJECT && kn->len == 9 && memcmp(kn->ptr, "renamed-", 8) == 0 &&
            kn->ptr[8] >= '0' && kn->ptr[8] < '0' + NT) {
            s->renamed[kn->ptr[8] - '0'] = 1;
        }
        if (rec.kind != FXT_KIND_EVENT) {
            continue;
        }
        if (rec.u.event.name.len == 15 && memcmp(rec.u.event.name.ptr, "records_dropped", 15) == 0) {
            s->dropped_reported += rec.args[0].v.u64;
        }
        if (rec.nargs != 2 || rec.args[0].v.i64 < 0 || rec.args[0].v.i64 >= NT) {
            continue;
        }
        long j = (long)rec.args[0].v.i64, i = (long)rec.args[1].v.i64;
        if (s->last[j] >= 0 && i != s->last[j] + 1) {
            s->gaps++; /* oneshot and circular keep a thread's events without gaps */
        }
        if (s->first[j] < 0) {
            s->first[j] = i;
        }
        s->last[j] = i;
        s->n[j]++;
    }
    fxt_reader_destroy(r);
}

static void run_mode(fxt_buffer_mode mode, size_t buffer, long n) {
    fxt_membuf_t mem = {0};
    fxt_manager_config_t mc = FXT_MANAGER_CONFIG_INIT;
    mc.sink = fxt_sink_membuf(&mem);
    mc.mode = mode;
    mc.buffer_size = buffer;
    mc.categories = "stress";
    mc.clock = FXT_CLOCK_MONOTONIC;
    mgr_thread_t x = {NULL, 0, 0};
    CHECK(fxt_manager_create(&mc, &x.m) == FXT_OK);
    if (x.m == NULL) {
        return;
    }
    struct stat st;
    CHECK(stat(fxt_manager_socket_path(x.m), &st) == 0 && (st.st_mode & 0777) == 0600);
    CHECK(pthread_create(&x.th, NULL, serve, &x) == 0);
    setenv(FXT_MANAGER_ENV, fxt_manager_socket_path(x.m), 1);
    /* under a manager the manager's configuration wins: no output needed */
    fxt_session_config_t c = FXT_SESSION_CONFIG_INIT;
    CHECK(fxt_session_start(&c) == FXT_OK);
    g_n = n;
    g_pace = mode == FXT_MODE_STREAMING;
    pthread_t th[NT];
    for (long j = 0; j < NT; j++) {
        pthread_create(&th[j], NULL, emitter, (void *)(intptr_t)j);
    }
    for (long j = 0; j < NT; j++) {
        pthread_join(th[j], NULL);
    }
    CHECK(fxt_session_stop() == FXT_OK);
    fxt_session_stats_t ss;
    fxt_session_get_stats(&ss);
    unsetenv(FXT_MANAGER_ENV);
    __atomic_store_n(&x.stop, 1, __ATOMIC_RELEASE);
    pthread_join(x.th, NULL);
    CHECK(fxt_manager_finish(x.m) == FXT_OK);
    fxt_manager_provider_t p;
    CHECK_EQ_U64(fxt_manager_provider_count(x.m), 1);
    fxt_manager_get_provider(x.m, 0, &p);
    CHECK(p.end == FXT_PROVIDER_CLEAN);
    CHECK_EQ_U64(p.pid, (uint64_t)getpid());
    fxt_manager_destroy(x.m);

    seen_t s;
    read_archive(&mem, &s);
    CHECK_EQ_I64(s.errors, 0);
    CHECK_EQ_I64(s.providers, 1);
    long kept = 0;
    for (int j = 0; j < NT; j++) {
        kept += s.n[j];
        CHECK(s.renamed[j] || s.last[j] < 100); /* a thread with events after the rename */
        if (mode == FXT_MODE_CIRCULAR) {
            CHECK(s.n[j] > 0 && s.last[j] == n - 1); /* the newest, up to the last */
        } else if (mode == FXT_MODE_ONESHOT && s.n[j] > 0) {
            CHECK_EQ_I64(s.first[j], 0); /* the first ones */
        }
    }
    printf("mode %d: %ld kept, %llu dropped\n", (int)mode, kept, (unsigned long long)s.dropped_reported);
    CHECK(kept > 0);
    if (mode == FXT_MODE_STREAMING) {
        /* more than the buffer holds (~21.8k of these events in 1 MiB): drained while tracing */
        CHECK(kept > 22000);
    }
    if (mode != FXT_MODE_STREAMING) {
        CHECK_EQ_I64(s.gaps, 0);
    }
    if (mode != FXT_MODE_CIRCULAR) {
        /* every emitted event is kept or reported dropped, per the archive and the summary */
        CHECK_EQ_U64((uint64_t)kept + s.dropped_reported, (uint64_t)NT * (uint64_t)n);
        CHECK_EQ_U64(p.dropped, ss.dropped);
        CHECK_EQ_U64(p.events, (uint64_t)kept);
    }
    fxt_membuf_free(&mem);
}

static void test_stress_oneshot(void) { run_mode(FXT_MODE_ONESHOT, 1u << 20, 20000); }
static void test_stress_circular(void) { run_mode(FXT_MODE_CIRCULAR, 1u << 20, 20000); }
static void test_stress_streaming(void) { run_mode(FXT_MODE_STREAMING, 1u << 20, 20000); }

int main(int argc, char **argv) {
    TEST_INIT(argc, argv);
    RUN(test_stress_oneshot);
    RUN(test_stress_circular);
    RUN(test_stress_streaming);
    return TEST_EXIT();
}
