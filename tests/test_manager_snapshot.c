/* SPDX-License-Identifier: MIT */
/*
 * Triggers and snapshots in-process (docs/manager.md#triggers): a manager thread serves
 * this process while 4 threads trace and one raises alerts; each alert's snapshot is
 * taken while the writers keep writing (TSan, label threads: the manager copies committed
 * records while threads append to the same chunks). Each snapshot holds every event up to
 * its alert, gap-free, none after it; the final archive is complete. The buffer holds the
 * whole run: a circular buffer reusing a chunk while it is copied is a cross-process race
 * by design (detected by sequence numbers), covered by the tests/cli/record/trigger-* cases.
 * Also: fxt_alert() standalone, and the API's errors.
 */
#define _GNU_SOURCE 1
#include <fxt/manager.h>
#include <fxt/reader.h>
#include <fxt/trace.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "test.h"

#define NT 4
#define PER_THREAD 5000
#define EVERY 1000
#define MAX_SNAPS 8

typedef struct snap_thread {
    fxt_manager_t *m;
    int stop, pause, paused;
    pthread_t th;
    fxt_membuf_t snaps[MAX_SNAPS];
    fxt_manager_trigger_t why[MAX_SNAPS];
    int nsnaps, failed;
} snap_thread_t;

/* Serve, and save a snapshot at each trigger, until told to stop and every provider is collected. */
static void *serve(void *arg) {
    snap_thread_t *x = arg;
    while (!(__atomic_load_n(&x->stop, __ATOMIC_ACQUIRE) && fxt_manager_connected(x->m) == 0)) {
        if (__atomic_load_n(&x->pause, __ATOMIC_ACQUIRE)) {
            __atomic_store_n(&x->paused, 1, __ATOMIC_RELEASE);
            struct timespec d = {0, 1000000};
            nanosleep(&d, NULL);
            continue;
        }
        __atomic_store_n(&x->paused, 0, __ATOMIC_RELEASE);
        fxt_manager_poll(x->m, 2);
        fxt_manager_trigger_t t;
        while (fxt_manager_take_trigger(x->m, &t) == FXT_OK) {
            if (x->nsnaps == MAX_SNAPS) {
                x->failed++;
                continue;
            }
            fxt_snapshot_info_t info;
            x->why[x->nsnaps] = t;
            fxt_status st =
                fxt_manager_snapshot(x->m, &t, t.ticks, fxt_sink_membuf(&x->snaps[x->nsnaps]), &info);
            if (st != FXT_OK || info.torn != 0 || info.providers != 1) {
                fprintf(stderr, "snapshot %d: %s, %u providers, %llu torn\n", x->nsnaps, fxt_status_str(st),
                        info.providers, (unsigned long long)info.torn);
                x->failed++;
            }
            x->nsnaps++;
        }
    }
    return NULL;
}

static void *emitter(void *arg) {
    long j = (long)(intptr_t)arg;
    for (long i = 0; i < PER_THREAD; i++) {
        FXT_INSTANT("stress", "ev", FXT_I64("thread", j), FXT_I64("seq", i));
        if (j == 0 && i % EVERY == EVERY - 1) {
            CHECK(fxt_alert("frame_drop") == FXT_OK);
            struct timespec d = {0, 5000000}; /* the others run on meanwhile */
            nanosleep(&d, NULL);
        }
    }
    return NULL;
}

typedef struct seen {
    long n[NT], first[NT], last[NT], gaps;
    uint64_t max_ts, trigger_ts, alert_ts;
    int errors, triggers, alerts;
} seen_t;

static int is(const fxt_str_t *s, const char *want) {
    return s->len == strlen(want) && memcmp(s->ptr, want, s->len) == 0;
}

static void read_trace(const fxt_membuf_t *mem, seen_t *s) {
    memset(s, 0, sizeof *s);
    for (int j = 0; j < NT; j++) {
        s->first[j] = s->last[j] = -1;
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
        if (rec.kind != FXT_KIND_EVENT) {
            continue;
        }
        if (is(&rec.u.event.category, "fxt") && is(&rec.u.event.name, "trigger")) {
            s->triggers++;
            s->trigger_ts = rec.u.event.ts;
        }
        if (is(&rec.u.event.category, "alert") && is(&rec.u.event.name, "frame_drop")) {
            s->alerts++;
            s->alert_ts = rec.u.event.ts;
        }
        if (!is(&rec.u.event.category, "stress") || rec.nargs != 2 || rec.args[0].v.i64 < 0 ||
            rec.args[0].v.i64 >= NT) {
            continue;
        }
        long j = (long)rec.args[0].v.i64, i = (long)rec.args[1].v.i64;
        s->gaps += s->last[j] >= 0 && i != s->last[j] + 1;
        s->first[j] = s->first[j] < 0 ? i : s->first[j];
        s->last[j] = i;
        s->n[j]++;
        s->max_ts = rec.u.event.ts > s->max_ts ? rec.u.event.ts : s->max_ts;
    }
    fxt_reader_destroy(r);
}

#if defined(__linux__)
/* A circular manager writing to mem, served by x's thread with a snapshot trigger on
 * "frame_drop", and this process's session started under it. -1 when it cannot be. */
static int snap_start(snap_thread_t *x, fxt_membuf_t *mem, size_t buffer_size, const char *categories) {
    fxt_manager_config_t mc = FXT_MANAGER_CONFIG_INIT;
    mc.sink = fxt_sink_membuf(mem);
    mc.mode = FXT_MODE_CIRCULAR;
    mc.buffer_size = buffer_size;
    mc.categories = categories;
    mc.clock = FXT_CLOCK_MONOTONIC;
    memset(x, 0, sizeof *x);
    CHECK(fxt_manager_create(&mc, &x->m) == FXT_OK);
    if (x->m == NULL) {
        return -1;
    }
    CHECK(fxt_manager_add_trigger(x->m, "frame_drop", FXT_TRIGGER_SNAPSHOT) == FXT_OK);
    CHECK(pthread_create(&x->th, NULL, serve, x) == 0);
    setenv(FXT_MANAGER_ENV, fxt_manager_socket_path(x->m), 1);
    fxt_session_config_t c = FXT_SESSION_CONFIG_INIT;
    CHECK(fxt_session_start(&c) == FXT_OK);
    return 0;
}
#endif

static void test_snapshots_while_tracing(void) {
#if defined(__linux__)
    fxt_membuf_t mem = {0};
    static snap_thread_t x;
    /* 8 MiB: the whole run, no chunk is reused; alerts are recorded whatever the categories */
    if (snap_start(&x, &mem, 8u << 20, "stress") != 0) {
        return;
    }
    pthread_t th[NT];
    for (long j = 0; j < NT; j++) {
        pthread_create(&th[j], NULL, emitter, (void *)(intptr_t)j);
    }
    for (long j = 0; j < NT; j++) {
        pthread_join(th[j], NULL);
    }
    CHECK(fxt_session_stop() == FXT_OK);
    unsetenv(FXT_MANAGER_ENV);
    __atomic_store_n(&x.stop, 1, __ATOMIC_RELEASE);
    pthread_join(x.th, NULL);
    CHECK(fxt_manager_finish(x.m) == FXT_OK);
    fxt_snapshot_info_t info;
    CHECK(fxt_manager_snapshot(x.m, NULL, 0, fxt_sink_membuf(&mem), &info) == FXT_E_STATE);
    fxt_manager_destroy(x.m);

    CHECK_EQ_I64(x.nsnaps, PER_THREAD / EVERY);
    CHECK_EQ_I64(x.failed, 0);
    for (int k = 0; k < x.nsnaps; k++) {
        seen_t s;
        read_trace(&x.snaps[k], &s);
        CHECK_EQ_I64(s.errors, 0);
        CHECK_EQ_I64(s.gaps, 0);
        CHECK_EQ_I64(s.triggers, 1);
        CHECK_EQ_I64(s.alerts, k + 1); /* this one and the earlier ones */
        CHECK(s.trigger_ts == x.why[k].ticks && s.alert_ts == s.trigger_ts);
        CHECK(s.max_ts <= s.trigger_ts); /* cut at the alert: nothing later, in any thread */
        CHECK_EQ_I64(s.last[0], (long)(k + 1) * EVERY - 1);
        for (int j = 0; j < NT; j++) {
            CHECK(s.n[j] == 0 || s.first[j] == 0); /* everything since the start: the buffer held it */
        }
        fxt_membuf_free(&x.snaps[k]);
    }
    seen_t s;
    read_trace(&mem, &s);
    CHECK_EQ_I64(s.errors, 0);
    CHECK_EQ_I64(s.alerts, PER_THREAD / EVERY);
    for (int j = 0; j < NT; j++) {
        CHECK_EQ_I64(s.n[j], PER_THREAD); /* the final archive is complete */
    }
    fxt_membuf_free(&mem);
#else
    TEST_SKIP("the manager is Linux only");
#endif
}

#if defined(__linux__)
/* A manager served on a thread that is told to stop serving (polling, taking triggers) at once:
 * what the provider sends waits in its connection. */
static int snap_start_paused(snap_thread_t *x, fxt_membuf_t *mem) {
    if (snap_start(x, mem, 1u << 20, NULL) != 0) {
        return -1;
    }
    __atomic_store_n(&x->pause, 1, __ATOMIC_RELEASE);
    while (!__atomic_load_n(&x->paused, __ATOMIC_ACQUIRE)) {
        struct timespec d = {0, 1000000};
        nanosleep(&d, NULL);
    }
    return 0;
}
#endif

/*
 * A provider that alerts twice and ends its session at once: the manager reads the alerts,
 * the BYE and the end of the connection in one poll round, collects the provider, then takes
 * the triggers one by one. Both snapshots hold the provider (its buffer stays mapped while
 * a snapshot is due), each cut at its alert.
 */
static void test_alert_then_exit(void) {
#if defined(__linux__)
    fxt_membuf_t mem = {0};
    static snap_thread_t x;
    if (snap_start_paused(&x, &mem) != 0) {
        return;
    }
    for (long i = 0; i < 100; i++) {
        FXT_INSTANT("stress", "ev", FXT_I64("thread", 0), FXT_I64("seq", i));
        if (i == 49 || i == 99) {
            CHECK(fxt_alert("frame_drop") == FXT_OK);
        }
    }
    CHECK(fxt_session_stop() == FXT_OK); /* BYE, and the connection closes */
    unsetenv(FXT_MANAGER_ENV);
    __atomic_store_n(&x.stop, 1, __ATOMIC_RELEASE);
    __atomic_store_n(&x.pause, 0, __ATOMIC_RELEASE);
    pthread_join(x.th, NULL);
    CHECK(fxt_manager_finish(x.m) == FXT_OK);
    fxt_manager_destroy(x.m);
    CHECK_EQ_I64(x.nsnaps, 2); /* taken one by one: the first leaves the buffer for the second */
    CHECK_EQ_I64(x.failed, 0);
    for (int k = 0; k < x.nsnaps; k++) {
        seen_t s;
        read_trace(&x.snaps[k], &s);
        CHECK_EQ_I64(s.errors, 0);
        CHECK_EQ_I64(s.alerts, k + 1);
        CHECK_EQ_I64(s.n[0], 50 * (k + 1)); /* cut at its alert */
        fxt_membuf_free(&x.snaps[k]);
    }
    fxt_membuf_free(&mem);
#else
    TEST_SKIP("the manager is Linux only");
#endif
}

/* 70 alerts while the manager is not taking triggers: 64 wait, 6 are dropped and counted. */
static void test_triggers_lost(void) {
#if defined(__linux__)
    fxt_membuf_t mem = {0};
    static snap_thread_t x;
    if (snap_start_paused(&x, &mem) != 0) {
        return;
    }
    for (int i = 0; i < 70; i++) {
        CHECK(fxt_alert("frame_drop") == FXT_OK);
    }
    CHECK(fxt_session_stop() == FXT_OK);
    unsetenv(FXT_MANAGER_ENV);
    while (fxt_manager_connected(x.m) > 0) { /* the served thread is paused: polled from here */
        fxt_manager_poll(x.m, 2);
    }
    int taken = 0;
    fxt_manager_trigger_t t;
    while (fxt_manager_take_trigger(x.m, &t) == FXT_OK) {
        taken++;
    }
    uint64_t lost = 99;
    CHECK(fxt_manager_triggers_lost(x.m, &lost) == FXT_OK);
    CHECK_EQ_I64(taken, 64);
    CHECK_EQ_U64(lost, 6);
    CHECK(fxt_manager_triggers_lost(x.m, NULL) == FXT_E_INVALID_ARG);
    fxt_manager_hold(x.m, 0);
    __atomic_store_n(&x.stop, 1, __ATOMIC_RELEASE);
    __atomic_store_n(&x.pause, 0, __ATOMIC_RELEASE);
    pthread_join(x.th, NULL);
    CHECK(fxt_manager_finish(x.m) == FXT_OK);
    fxt_manager_destroy(x.m);
    CHECK_EQ_I64(x.nsnaps, 0);
    fxt_membuf_free(&mem);
#else
    TEST_SKIP("the manager is Linux only");
#endif
}

/* Standalone: the alert is an instant alert/NAME in the trace, whatever the categories. */
static void test_alert_standalone(void) {
    CHECK(fxt_alert("early") == FXT_E_STATE); /* no session: nothing */
    fxt_membuf_t mem = {0};
    fxt_session_config_t c = FXT_SESSION_CONFIG_INIT;
    c.sink = fxt_sink_membuf(&mem);
    c.categories = "other";
    CHECK(fxt_session_start(&c) == FXT_OK);
    CHECK(fxt_alert(NULL) == FXT_E_INVALID_ARG);
    CHECK(fxt_alert("") == FXT_E_INVALID_ARG);
    CHECK(fxt_alert("0123456789012345678901234567890123456789012345678901234567890123") == FXT_E_INVALID_ARG);
    CHECK(fxt_alert("frame_drop") == FXT_OK);
    FXT_ALERT("frame_drop");
    CHECK(fxt_session_stop() == FXT_OK);
    seen_t s;
    read_trace(&mem, &s);
    CHECK_EQ_I64(s.errors, 0);
    CHECK_EQ_I64(s.alerts, 2);
    fxt_membuf_free(&mem);
}

typedef struct src_seen {
    int calls;
    uint32_t id;
    uint64_t from, cut;
} src_seen_t;

/* A snapshot source (fxt_manager_set_snapshot_source): one instant in a section of its own. */
static fxt_status source(void *ctx, fxt_writer_t *w, uint32_t provider_id, uint64_t from, uint64_t cut) {
    src_seen_t *x = ctx;
    x->calls++;
    x->id = provider_id;
    x->from = from;
    x->cut = cut;
    fxt_write_provider_info(w, provider_id, fxt_cstr("source"));
    return fxt_write_instant(w, cut, fxt_thread_inline(1, 1), fxt_cstr("src"), fxt_cstr("mark"), NULL, 0);
}

static void test_api_errors(void) {
#if defined(__linux__)
    fxt_membuf_t mem = {0};
    fxt_manager_config_t mc = FXT_MANAGER_CONFIG_INIT;
    mc.sink = fxt_sink_membuf(&mem);
    mc.clock = FXT_CLOCK_MONOTONIC;
    fxt_manager_t *m = NULL;
    CHECK(fxt_manager_create(&mc, &m) == FXT_OK);
    if (m == NULL) {
        return;
    }
    CHECK(fxt_manager_add_trigger(m, NULL, FXT_TRIGGER_SNAPSHOT) == FXT_E_INVALID_ARG);
    CHECK(fxt_manager_add_trigger(m, "", FXT_TRIGGER_SNAPSHOT) == FXT_E_INVALID_ARG);
    CHECK(fxt_manager_add_trigger(m, "x", (fxt_trigger_action)7) == FXT_E_INVALID_ARG);
    CHECK(fxt_manager_add_trigger(NULL, "x", FXT_TRIGGER_STOP) == FXT_E_INVALID_ARG);
    fxt_manager_trigger_t t;
    CHECK(fxt_manager_take_trigger(m, &t) == FXT_E_NOT_FOUND);
    CHECK(fxt_manager_take_trigger(m, NULL) == FXT_E_INVALID_ARG);
    fxt_sink_t none = {NULL, NULL};
    CHECK(fxt_manager_snapshot(m, NULL, 0, none, NULL) == FXT_E_INVALID_ARG);
    /* no provider: a valid archive with the trigger alone */
    fxt_membuf_t snap = {0};
    memset(&t, 0, sizeof t);
    t.kind = FXT_TRIGGER_SIGNAL;
    t.signal = 10;
    t.ticks = fxt_manager_now(m);
    fxt_snapshot_info_t info;
    src_seen_t src = {0, 0, 0, 0};
    CHECK(fxt_manager_set_snapshot_source(NULL, source, &src) == FXT_E_INVALID_ARG);
    CHECK(fxt_manager_set_snapshot_source(m, source, &src) == FXT_OK);
    CHECK(fxt_manager_snapshot(m, &t, t.ticks, fxt_sink_membuf(&snap), &info) == FXT_OK);
    CHECK_EQ_U64(info.providers, 0);
    /* the source's section, after the providers', cut where they are (no provider: an empty window) */
    CHECK_EQ_I64(src.calls, 1);
    CHECK(src.cut == t.ticks && src.from == t.ticks && src.id > 0);
    seen_t s;
    read_trace(&snap, &s);
    CHECK_EQ_I64(s.errors, 0);
    CHECK_EQ_I64(s.triggers, 1);
    fxt_membuf_free(&snap);
    fxt_manager_destroy(m);
    fxt_membuf_free(&mem);
#else
    TEST_SKIP("the manager is Linux only");
#endif
}

int main(int argc, char **argv) {
    TEST_INIT(argc, argv);
    RUN(test_alert_standalone);
    RUN(test_api_errors);
    RUN(test_snapshots_while_tracing);
    RUN(test_alert_then_exit);
    RUN(test_triggers_lost);
    return TEST_EXIT();
}
