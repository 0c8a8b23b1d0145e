/* SPDX-License-Identifier: MIT */
/*
 * Instrumentation engine: every macro produces the expected records; oneshot,
 * circular and streaming buffering under several threads; drop accounting;
 * configuration from the environment. Run under ThreadSanitizer in CI.
 */
#include "test.h"

#include <fxt/reader.h>
#include <fxt/trace.h>

#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct ev {
    uint32_t type;
    uint64_t tid;
    int64_t value; /* first argument as an integer */
    int named;     /* category and name resolved */
} ev_t;

typedef struct trace {
    ev_t *ev;
    size_t n, cap;
    unsigned kinds[FXT_KIND_COUNT_];
    int errors, unresolved, thread_names;
    uint64_t dropped_reported, overwritten_reported;
} trace_t;

static void decode(const uint8_t *data, size_t len, trace_t *t) {
    memset(t, 0, sizeof *t);
    fxt_reader_t *r;
    fxt_reader_create(NULL, &r);
    fxt_in_buffer_t in = {data, len, 0};
    fxt_record_t rec;
    fxt_status st;
    while ((st = fxt_reader_next(r, &in, &rec)) != FXT_NEED_INPUT && st != FXT_END) {
        if (st != FXT_OK) {
            t->errors++;
            continue;
        }
        t->kinds[rec.kind]++;
        if (rec.kind == FXT_KIND_KERNEL_OBJECT && rec.u.kernel_object.obj_type == FXT_OBJ_THREAD &&
            rec.nargs == 1 && rec.args[0].type == FXT_ARG_KOID) {
            t->thread_names++;
        }
        if (rec.kind != FXT_KIND_EVENT) {
            continue;
        }
        if (rec.u.event.name.ptr == NULL || rec.u.event.category.ptr == NULL ||
            !rec.u.event.thread.resolved) {
            t->unresolved++;
        }
        if (rec.u.event.name.ptr && rec.u.event.name.len == 15 &&
            memcmp(rec.u.event.name.ptr, "records_dropped", 15) == 0) {
            t->dropped_reported = rec.args[0].v.u64;
            continue;
        }
        if (rec.u.event.name.ptr && rec.u.event.name.len == 18 &&
            memcmp(rec.u.event.name.ptr, "chunks_overwritten", 18) == 0) {
            t->overwritten_reported = rec.args[0].v.u64;
            continue;
        }
        if (t->n == t->cap) {
            t->cap = t->cap ? t->cap * 2 : 1024;
            t->ev = realloc(t->ev, t->cap * sizeof *t->ev);
        }
        ev_t *e = &t->ev[t->n++];
        e->type = rec.u.event.type;
        e->tid = rec.u.event.thread.tid;
        e->value =
            rec.nargs ? (rec.args[0].type == FXT_ARG_INT32 ? rec.args[0].v.i32 : rec.args[0].v.i64) : -1;
        e->named = rec.u.event.name.ptr != NULL;
    }
    if (fxt_reader_finish(r) != FXT_OK) {
        t->errors++;
    }
    fxt_reader_destroy(r);
}

static fxt_session_config_t mem_config(fxt_membuf_t *mem, fxt_buffer_mode mode, size_t size) {
    fxt_session_config_t c = FXT_SESSION_CONFIG_INIT;
    c.sink = fxt_sink_membuf(mem);
    c.mode = mode;
    c.buffer_size = size;
    c.categories = "test*,other";
    c.clock = FXT_CLOCK_MONOTONIC;
    return c;
}

static int side_effects;
static int bump(void) { return ++side_effects; }

static void scoped(void) {
    FXT_DURATION("test", "scoped");
    FXT_INSTANT("test", "inside");
}

static void test_every_macro(void) {
    fxt_membuf_t mem = {0};
    fxt_session_config_t c = mem_config(&mem, FXT_MODE_ONESHOT, 1 << 20);
    CHECK(fxt_session_start(&c) == FXT_OK);
    CHECK(fxt_session_start(&c) == FXT_E_STATE);
    CHECK(fxt_category_enabled("test.sub") && fxt_category_enabled("other") && !fxt_category_enabled("nope"));
    fxt_set_thread_name("main-thread");
    FXT_INSTANT("test", "instant", FXT_I32("i32", -7), FXT_U32("u32", 7), FXT_I64("i64", -1),
                FXT_U64("u64", 2), FXT_F64("f64", 0.5), FXT_STR("str", "hello"), FXT_PTR("ptr", &mem),
                FXT_KOID("koid", 42), FXT_BOOL("bool", 1), FXT_NULL("null"));
    FXT_DURATION_BEGIN("test", "begin", FXT_I32("n", 1));
    FXT_DURATION_END("test", "begin");
    FXT_COUNTER("other", "counter", 3, FXT_I64("value", 10));
    FXT_ASYNC_BEGIN("test", "async", 77);
    FXT_ASYNC_INSTANT("test", "async", 77);
    FXT_ASYNC_END("test", "async", 77);
    FXT_FLOW_BEGIN("test", "flow", 88);
    FXT_FLOW_STEP("test", "flow", 88);
    FXT_FLOW_END("test", "flow", 88);
    FXT_LOG("test", "log %d %s", 5, "five");
    FXT_BLOB("test", "blob", "abc", 3);
    scoped();
    /* disabled: nothing written, arguments not evaluated */
    FXT_INSTANT("nope", "x", FXT_I32("side", bump()));
    FXT_COUNTER("nope", "x", 1, FXT_I32("side", bump()));
    CHECK_EQ_U64(side_effects, 0);
    CHECK(fxt_session_stop() == FXT_OK);
    CHECK(fxt_session_stop() == FXT_E_STATE);
    FXT_INSTANT("test", "after stop");

    fxt_reader_t *r;
    fxt_reader_create(NULL, &r);
    fxt_in_buffer_t in = {mem.data, mem.len, 0};
    fxt_record_t rec;
    int seen[FXT_EVENT_TYPE_COUNT] = {0}, log = 0, blob = 0, init = 0, process = 0, thread = 0, errors = 0;
    uint64_t tps = 0;
    while (1) {
        fxt_status st = fxt_reader_next(r, &in, &rec);
        if (st == FXT_NEED_INPUT) {
            break;
        }
        if (st != FXT_OK) {
            errors++;
            continue;
        }
        if (rec.kind == FXT_KIND_INIT) {
            init++;
            tps = rec.u.init.ticks_per_second;
        }
        if (rec.kind == FXT_KIND_KERNEL_OBJECT) {
            process += rec.u.kernel_object.obj_type == FXT_OBJ_PROCESS;
            if (rec.u.kernel_object.obj_type == FXT_OBJ_THREAD) {
                thread++;
                CHECK_STR(rec.u.kernel_object.name, "main-thread");
                CHECK(rec.nargs == 1 && rec.args[0].type == FXT_ARG_KOID &&
                      rec.args[0].v.koid == (uint64_t)getpid());
            }
        }
        if (rec.kind == FXT_KIND_LOG) {
            log++;
            CHECK_STR(rec.u.log.message, "log 5 five");
        }
        if (rec.kind == FXT_KIND_BLOB) {
            blob++;
            CHECK_STR(rec.u.blob.name, "blob");
            CHECK_MEM_STR(rec.u.blob.payload, rec.u.blob.size, "abc");
        }
        if (rec.kind != FXT_KIND_EVENT) {
            continue;
        }
        seen[rec.u.event.type]++;
        CHECK(rec.u.event.thread.resolved && rec.u.event.thread.pid == (uint64_t)getpid());
        CHECK(rec.u.event.category.ptr != NULL && rec.u.event.name.ptr != NULL);
        if (rec.u.event.type == FXT_EVENT_INSTANT && rec.nargs == 10) {
            CHECK_STR(rec.u.event.name, "instant");
            CHECK(rec.args[0].type == FXT_ARG_INT32 && rec.args[0].v.i32 == -7);
            CHECK(rec.args[1].type == FXT_ARG_UINT32 && rec.args[1].v.u32 == 7);
            CHECK(rec.args[2].type == FXT_ARG_INT64 && rec.args[2].v.i64 == -1);
            CHECK(rec.args[3].type == FXT_ARG_UINT64 && rec.args[3].v.u64 == 2);
            CHECK(rec.args[4].type == FXT_ARG_DOUBLE && rec.args[4].v.f64 == 0.5);
            CHECK(rec.args[5].type == FXT_ARG_STRING);
            CHECK_STR(rec.args[5].str, "hello");
            CHECK(rec.args[6].type == FXT_ARG_POINTER && rec.args[6].v.pointer == (uint64_t)(uintptr_t)&mem);
            CHECK(rec.args[7].type == FXT_ARG_KOID && rec.args[7].v.koid == 42);
            CHECK(rec.args[8].type == FXT_ARG_BOOL && rec.args[8].v.boolean == 1);
            CHECK(rec.args[9].type == FXT_ARG_NULL);
            CHECK_STR(rec.args[9].name, "null");
        }
        if (rec.u.event.type == FXT_EVENT_COUNTER) {
            CHECK(rec.u.event.id == 3 && rec.nargs == 1 && rec.args[0].v.i64 == 10);
            CHECK_STR(rec.u.event.category, "other");
        }
        if (rec.u.event.type >= FXT_EVENT_ASYNC_BEGIN && rec.u.event.type <= FXT_EVENT_ASYNC_END) {
            CHECK_EQ_U64(rec.u.event.id, 77);
        }
        if (rec.u.event.type >= FXT_EVENT_FLOW_BEGIN) {
            CHECK_EQ_U64(rec.u.event.id, 88);
        }
        if (rec.u.event.type == FXT_EVENT_DURATION_COMPLETE) {
            CHECK_STR(rec.u.event.name, "scoped");
            CHECK(rec.u.event.end_ts >= rec.u.event.ts);
        }
    }
    CHECK_EQ_U64(errors, 0);
    CHECK(init == 1 && tps == 1000000000u && process == 1 && thread == 1 && log == 1 && blob == 1);
    CHECK(seen[FXT_EVENT_INSTANT] == 2); /* "instant" and "inside"; not "x" nor "after stop" */
    for (unsigned t = 1; t < FXT_EVENT_TYPE_COUNT; t++) {
        CHECK(seen[t] == (t == FXT_EVENT_DURATION_COMPLETE ? 1 : 1));
    }
    fxt_reader_destroy(r);
    fxt_membuf_free(&mem);
}

/* ---- steady state ------------------------------------------------------------------------- */

/* Each event twice from the same call site: the first registers its strings in
 * the chunk (general path), the second finds them registered (one-pass fast
 * path). Both must decode to the same event but for the timestamps. */
static char long_value[300];
static char huge_value[2300];

static void steady_events(void) {
    FXT_INSTANT("test", "every", FXT_I32("i32", -7), FXT_U32("u32", 7), FXT_I64("i64", -1), FXT_U64("u64", 2),
                FXT_F64("f64", 0.5), FXT_STR("str", "hello"), FXT_PTR("ptr", &long_value),
                FXT_KOID("koid", 42), FXT_BOOL("bool", 1), FXT_NULL("null"), FXT_STR("long", long_value),
                FXT_STR("nullstr", NULL), FXT_STR("empty", ""));
    FXT_COUNTER("other", "counter", 3, FXT_I64("value", 10), FXT_F64("d", -2.25));
    FXT_DURATION_BEGIN("test", "pair");
    FXT_DURATION_END("test", "pair", FXT_U32("n", 5));
    { FXT_DURATION("test", "scope", FXT_I32("k", 9), FXT_STR("s", "v")); }
    { FXT_DURATION("test", "bare"); }
    static fxt__site_t site = {"test", 0, 0};
    if (fxt__site_on(&site)) {
        /* what the macros cannot express: a runtime-flagged argument name (written
         * inline), a list cut by an invalid type, a complete event without arguments */
        fxt__targ_t a[4] = {fxt__targ_make(FXT_ARG_STRING, "sval", 0, 5, "value"),
                            fxt__targ_make(FXT_ARG_INT32, "inline name", FXT__DYN, 1, NULL),
                            fxt__targ_make(FXT_ARG_INT32, "x", 0, 2, NULL),
                            fxt__targ_make(FXT_ARG_INT32, "cut", 0, 3, NULL)};
        a[3].type = 0xee;
        fxt__event_args_n(&site, FXT_EVENT_ASYNC_BEGIN, "direct", 6, 1, 99, a, 4);
        fxt__event_args_n(&site, FXT_EVENT_INSTANT, "direct2", 7, 0, 0, a, 1);
        fxt__complete_args(&site, "complete", 8, fxt_ticks(), NULL, 0);
        /* too big for a record (> 4095 words): dropped */
        fxt__targ_t big[FXT_MAX_ARGS];
        for (unsigned i = 0; i < FXT_MAX_ARGS; i++) {
            big[i] = fxt__targ_make(FXT_ARG_STRING, "big", 0, sizeof huge_value - 1, huge_value);
        }
        fxt__event_args_n(&site, FXT_EVENT_INSTANT, "huge", 4, 0, 0, big, FXT_MAX_ARGS);
    }
}

/* An event as text: what it decodes to (string indexes may differ between
 * the two passes when two strings share a slot of the intern cache). */
static void event_text(const fxt_record_t *rec, char *out, size_t cap) {
    uint32_t type = rec->u.event.type;
    uint64_t id = type == FXT_EVENT_COUNTER || type >= FXT_EVENT_ASYNC_BEGIN ? rec->u.event.id : 0;
    size_t k = (size_t)snprintf(out, cap, "%u %.*s/%.*s id=%llu size=%llu:", (unsigned)type,
                                (int)rec->u.event.category.len, rec->u.event.category.ptr,
                                (int)rec->u.event.name.len, rec->u.event.name.ptr, (unsigned long long)id,
                                (unsigned long long)rec->size);
    for (unsigned i = 0; i < rec->nargs && k < cap; i++) {
        const fxt_arg_t *x = &rec->args[i];
        uint64_t v = 0; /* only the bytes the type defines */
        switch (x->type) {
        case FXT_ARG_INT32:
        case FXT_ARG_UINT32:
            v = x->v.u32;
            break;
        case FXT_ARG_BOOL:
            v = (uint64_t)x->v.boolean;
            break;
        case FXT_ARG_NULL:
        case FXT_ARG_STRING:
            break;
        default:
            v = x->v.u64;
            break;
        }
        k += (size_t)snprintf(out + k, cap - k, " %u:%.*s=%llx/%.*s", (unsigned)x->type, (int)x->name.len,
                              x->name.ptr ? x->name.ptr : "", (unsigned long long)v,
                              x->type == FXT_ARG_STRING ? (int)x->str.len : 0, x->str.ptr ? x->str.ptr : "");
    }
}

static void test_steady_state_same_events(void) {
    memset(long_value, 'L', sizeof long_value - 1);
    memset(huge_value, 'H', sizeof huge_value - 1);
    fxt_membuf_t mem = {0};
    fxt_session_config_t c = mem_config(&mem, FXT_MODE_ONESHOT, 1 << 20);
    CHECK(fxt_session_start(&c) == FXT_OK);
    for (int rep = 0; rep < 2; rep++) {
        steady_events();
    }
    fxt_session_stats_t st;
    fxt_session_get_stats(&st);
    CHECK_EQ_U64(st.dropped, 2); /* the huge event, both times */
    CHECK(fxt_session_stop() == FXT_OK);

    fxt_reader_t *r;
    fxt_reader_create(NULL, &r);
    fxt_in_buffer_t in = {mem.data, mem.len, 0};
    fxt_record_t rec;
    static char text[32][2048];
    size_t n = 0;
    int errors = 0;
    fxt_status s;
    while ((s = fxt_reader_next(r, &in, &rec)) != FXT_NEED_INPUT && s != FXT_END) {
        if (s != FXT_OK) {
            errors++;
            continue;
        }
        /* the session's own events (e.g. records_dropped) have another category */
        if (rec.kind != FXT_KIND_EVENT || n == 32 || rec.u.event.category.ptr == NULL ||
            (rec.u.event.category.len != 4 && rec.u.event.category.len != 5) ||
            (memcmp(rec.u.event.category.ptr, "test", 4) != 0 &&
             memcmp(rec.u.event.category.ptr, "other", 5) != 0)) {
            continue;
        }
        CHECK(rec.u.event.thread.resolved);
        event_text(&rec, text[n++], sizeof text[0]);
        if (rec.u.event.type == FXT_EVENT_ASYNC_BEGIN) {
            /* the list stops at the invalid type; the inline name is kept */
            CHECK(rec.nargs == 3 && rec.u.event.id == 99);
            CHECK_STR(rec.args[0].str, "value");
            CHECK_STR(rec.args[1].name, "inline name");
        }
    }
    CHECK_EQ_U64(errors, 0);
    CHECK_EQ_U64(n, 18); /* 9 events (the huge one dropped), twice */
    for (size_t i = 0; i < 9 && i + 9 < n; i++) {
        if (strcmp(text[i], text[i + 9]) != 0) {
            fprintf(stderr, "first:  %s\nsecond: %s\n", text[i], text[i + 9]);
            CHECK(0);
        }
    }
    fxt_reader_destroy(r);
    fxt_membuf_free(&mem);
}

/* Names formatted into a reused buffer (not literals): each event keeps the text it had
 * when it was recorded. Interned by content, so a repeated name is registered once per
 * chunk; past the content table's capacity names are written inline, still right. */
static void test_runtime_names_by_content(void) {
    fxt_membuf_t mem = {0};
    fxt_session_config_t c = mem_config(&mem, FXT_MODE_ONESHOT, 4 << 20);
    CHECK(fxt_session_start(&c) == FXT_OK);
    char name[32], arg[32];
    enum { DISTINCT = 1500 };
    for (int rep = 0; rep < 2; rep++) {
        for (int i = 0; i < 6; i++) {
            snprintf(name, sizeof name, "file%02d", i);
            snprintf(arg, sizeof arg, "arg%d", i);
            FXT_INSTANT("test", name, FXT_I32(arg, i));
            FXT_BLOB("test", name, "abcd", 4);
            { FXT_DURATION("test", name); }
        }
    }
    for (int i = 0; i < DISTINCT; i++) {
        snprintf(name, sizeof name, "many%04d", i);
        FXT_INSTANT("test", name, FXT_I32("i", i));
    }
    CHECK(fxt_session_stop() == FXT_OK);

    fxt_reader_t *r;
    fxt_reader_create(NULL, &r);
    fxt_in_buffer_t in = {mem.data, mem.len, 0};
    fxt_record_t rec;
    fxt_status st;
    unsigned instants = 0, completes = 0, blobs = 0, many = 0, file_registrations = 0;
    char want[32];
    while ((st = fxt_reader_next(r, &in, &rec)) != FXT_NEED_INPUT && st != FXT_END) {
        CHECK(st == FXT_OK);
        if (rec.kind == FXT_KIND_STRING && rec.u.string.value.len == 6 &&
            memcmp(rec.u.string.value.ptr, "file", 4) == 0) {
            file_registrations++;
        }
        if (rec.kind == FXT_KIND_BLOB) {
            snprintf(want, sizeof want, "file%02u", blobs++ % 6);
            CHECK_STR(rec.u.blob.name, want);
        }
        if (rec.kind != FXT_KIND_EVENT || rec.u.event.category.len != 4) {
            continue;
        }
        if (rec.u.event.type == FXT_EVENT_INSTANT && rec.nargs == 1 && rec.args[0].name.len == 4) {
            snprintf(want, sizeof want, "file%02u", instants % 6);
            CHECK_STR(rec.u.event.name, want);
            snprintf(want, sizeof want, "arg%u", instants % 6);
            CHECK_STR(rec.args[0].name, want);
            instants++;
        } else if (rec.u.event.type == FXT_EVENT_DURATION_COMPLETE) {
            snprintf(want, sizeof want, "file%02u", completes++ % 6);
            CHECK_STR(rec.u.event.name, want);
        } else if (rec.u.event.type == FXT_EVENT_INSTANT) {
            snprintf(want, sizeof want, "many%04u", many++);
            CHECK_STR(rec.u.event.name, want);
            CHECK_EQ_U64(rec.args[0].v.i32, many - 1);
        }
    }
    CHECK_EQ_U64(instants, 12);
    CHECK_EQ_U64(completes, 12);
    CHECK_EQ_U64(blobs, 12);
    CHECK_EQ_U64(many, DISTINCT);
    CHECK_EQ_U64(file_registrations, 6); /* by content: once each in the one chunk */
    CHECK(fxt_reader_finish(r) == FXT_OK);
    fxt_reader_destroy(r);
    fxt_membuf_free(&mem);
}

/* ---- threads ------------------------------------------------------------------------------- */

typedef struct worker {
    int n;
    int slow;
} worker_t;

static void *work(void *arg) {
    worker_t *w = arg;
    for (int i = 0; i < w->n; i++) {
        FXT_INSTANT("test", "tick", FXT_I32("i", i));
    }
    return NULL;
}

static void run_threads(int nthreads, int n) {
    pthread_t th[16];
    worker_t w = {n, 0};
    for (int i = 0; i < nthreads; i++) {
        pthread_create(&th[i], NULL, work, &w);
    }
    for (int i = 0; i < nthreads; i++) {
        pthread_join(th[i], NULL);
    }
}

/* Per thread: values must be strictly increasing; returns events and checks contiguity. */
static int per_thread_ok_gaps(const trace_t *t, int contiguous_from_zero, int n_each, int *threads, int gaps);
static int per_thread_ok(const trace_t *t, int contiguous_from_zero, int n_each, int *threads) {
    return per_thread_ok_gaps(t, contiguous_from_zero, n_each, threads, 0);
}
static int per_thread_ok_gaps(const trace_t *t, int contiguous_from_zero, int n_each, int *threads,
                              int gaps) {
    uint64_t tids[64];
    int64_t last[64];
    int nt = 0, ok = 1;
    for (size_t i = 0; i < t->n; i++) {
        const ev_t *e = &t->ev[i];
        int k = 0;
        while (k < nt && tids[k] != e->tid) {
            k++;
        }
        if (k == nt) {
            if (nt == 64) {
                return 0;
            }
            tids[nt] = e->tid;
            last[nt] = contiguous_from_zero ? -1 : e->value - 1;
            nt++;
        }
        if (gaps ? e->value <= last[k] : e->value != last[k] + 1) {
            ok = 0;
        }
        last[k] = e->value;
    }
    if (contiguous_from_zero) {
        for (int k = 0; k < nt; k++) {
            ok &= last[k] == n_each - 1;
        }
    }
    *threads = nt;
    return ok;
}

static void test_oneshot_stress(void) {
    fxt_membuf_t mem = {0};
    fxt_session_config_t c = mem_config(&mem, FXT_MODE_ONESHOT, 128u << 20);
    CHECK(fxt_session_start(&c) == FXT_OK);
    const int per = TEST_SAN_SCALE(200000);
    run_threads(8, per);
    fxt_session_stats_t s;
    CHECK(fxt_session_stop() == FXT_OK);
    fxt_session_get_stats(&s);
    CHECK_EQ_U64(s.dropped, 0);
    trace_t t;
    decode(mem.data, mem.len, &t);
    int nt = 0;
    CHECK_EQ_U64(t.errors, 0);
    CHECK_EQ_U64(t.unresolved, 0);
    CHECK_EQ_U64(t.n, 8 * (uint64_t)per);
    CHECK(per_thread_ok(&t, 1, per, &nt) && nt == 8);
    CHECK_EQ_U64(t.thread_names, 8);
    free(t.ev);
    fxt_membuf_free(&mem);
}

static void test_oneshot_drops_counted(void) {
    fxt_membuf_t mem = {0};
    fxt_session_config_t c = mem_config(&mem, FXT_MODE_ONESHOT, 64u << 10);
    CHECK(fxt_session_start(&c) == FXT_OK);
    run_threads(2, 20000);
    CHECK(fxt_session_stop() == FXT_OK);
    fxt_session_stats_t s;
    fxt_session_get_stats(&s);
    trace_t t;
    decode(mem.data, mem.len, &t);
    int nt = 0;
    CHECK(s.dropped > 0);
    CHECK_EQ_U64(t.n + s.dropped, 2 * 20000);
    CHECK_EQ_U64(t.dropped_reported, s.dropped);
    CHECK(t.kinds[FXT_KIND_PROVIDER_EVENT] == 1);
    CHECK(per_thread_ok(&t, 0, 0, &nt)); /* what was kept is a prefix, in order */
    CHECK_EQ_U64(t.errors, 0);
    free(t.ev);
    fxt_membuf_free(&mem);
}

static void test_circular_keeps_newest(void) {
    fxt_membuf_t mem = {0};
    fxt_session_config_t c = mem_config(&mem, FXT_MODE_CIRCULAR, 256u << 10);
    CHECK(fxt_session_start(&c) == FXT_OK);
    run_threads(2, 100000);
    CHECK(fxt_session_stop() == FXT_OK);
    fxt_session_stats_t s;
    fxt_session_get_stats(&s);
    trace_t t;
    decode(mem.data, mem.len, &t);
    int nt = 0;
    CHECK(s.overwritten > 0);
    /* the loss is said in the trace, before the kept events */
    CHECK_EQ_U64(t.overwritten_reported, s.overwritten);
    CHECK(t.kinds[FXT_KIND_PROVIDER_EVENT] == 1);
    CHECK(t.n > 1000 && t.n < 2 * 100000);
    CHECK_EQ_U64(t.unresolved, 0);
    CHECK_EQ_U64(t.errors, 0);
    /* each thread's kept events are a contiguous run ending with its newest event */
    CHECK(per_thread_ok(&t, 0, 0, &nt) && nt == 2);
    int64_t last0 = -1;
    for (size_t i = 0; i < t.n; i++) {
        if (t.ev[i].tid == t.ev[0].tid) {
            last0 = t.ev[i].value;
        }
    }
    CHECK_EQ_U64(last0, 99999);
    CHECK_EQ_U64(t.thread_names, 2);
    free(t.ev);
    fxt_membuf_free(&mem);
}

/* Events kept per thread id, in a trace_t. */
static size_t kept_by(const trace_t *t, uint64_t tid) {
    size_t n = 0;
    for (size_t i = 0; i < t->n; i++) {
        n += t->ev[i].tid == tid;
    }
    return n;
}

/* Circular with one thread: the whole buffer holds its newest events (not a share). */
static void test_circular_lone_thread_uses_whole_buffer(void) {
    fxt_membuf_t m1 = {0}, m2 = {0};
    fxt_session_config_t c = mem_config(&m1, FXT_MODE_ONESHOT, 256u << 10);
    CHECK(fxt_session_start(&c) == FXT_OK);
    run_threads(1, 100000);
    CHECK(fxt_session_stop() == FXT_OK);
    trace_t one, circ;
    decode(m1.data, m1.len, &one);
    c = mem_config(&m2, FXT_MODE_CIRCULAR, 256u << 10);
    CHECK(fxt_session_start(&c) == FXT_OK);
    run_threads(1, 100000);
    CHECK(fxt_session_stop() == FXT_OK);
    decode(m2.data, m2.len, &circ);
    int nt = 0;
    /* oneshot keeps the first buffer-full, circular the last: the same amount */
    CHECK(one.n > 1000 && one.n < 100000);
    CHECK(circ.n >= one.n - one.n / 16);
    CHECK(per_thread_ok(&circ, 0, 0, &nt) && nt == 1);
    CHECK_EQ_U64(circ.ev[circ.n - 1].value, 99999);
    CHECK_EQ_U64(circ.unresolved, 0);
    free(one.ev);
    free(circ.ev);
    fxt_membuf_free(&m1);
    fxt_membuf_free(&m2);
}

/* A thread that filled most of the buffer early, then went quiet, keeps an equal share
 * (and its newest events) while a busy thread wraps around many times. */
typedef struct phased {
    int n;
    pthread_mutex_t *mu;
    pthread_cond_t *cv;
    int *phase;
    uint64_t tid;
} phased_t;

static void *quiet_work(void *arg) {
    phased_t *p = arg;
    for (int i = 0; i < p->n; i++) {
        FXT_INSTANT("test", "tick", FXT_I32("i", i));
    }
    pthread_mutex_lock(p->mu);
    *p->phase = 1;
    pthread_cond_broadcast(p->cv);
    while (*p->phase != 2) {
        pthread_cond_wait(p->cv, p->mu); /* stay alive while the busy thread runs */
    }
    pthread_mutex_unlock(p->mu);
    return NULL;
}

static void test_circular_shares_evenly(void) {
    fxt_membuf_t mem = {0};
    fxt_session_config_t c = mem_config(&mem, FXT_MODE_CIRCULAR, 256u << 10);
    CHECK(fxt_session_start(&c) == FXT_OK);
    pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
    int phase = 0;
    phased_t q = {6000, &mu, &cv, &phase, 0}; /* about 3/4 of the buffer */
    pthread_t th;
    pthread_create(&th, NULL, quiet_work, &q);
    pthread_mutex_lock(&mu);
    while (phase != 1) {
        pthread_cond_wait(&cv, &mu);
    }
    pthread_mutex_unlock(&mu);
    run_threads(1, 100000); /* the busy thread */
    pthread_mutex_lock(&mu);
    phase = 2;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
    pthread_join(th, NULL);
    CHECK(fxt_session_stop() == FXT_OK);
    trace_t t;
    decode(mem.data, mem.len, &t);
    int nt = 0;
    CHECK(per_thread_ok(&t, 0, 0, &nt) && nt == 2);
    CHECK_EQ_U64(t.unresolved, 0);
    /* tell the threads apart by their last value */
    uint64_t quiet = 0, busy = 0;
    for (size_t i = 0; i < t.n; i++) {
        if (t.ev[i].value == 5999) {
            quiet = t.ev[i].tid;
        }
        if (t.ev[i].value == 99999) {
            busy = t.ev[i].tid;
        }
    }
    CHECK(quiet != 0 && busy != 0 && quiet != busy);
    size_t kq = kept_by(&t, quiet), kb = kept_by(&t, busy);
    /* equal shares, give or take a chunk each (events are the same size) */
    CHECK(kq > 0 && kb > 0);
    CHECK(kq * 10 >= kb * 7 && kb * 10 >= kq * 7);
    CHECK(kq < 6000); /* the quiet thread did give up chunks */
    free(t.ev);
    fxt_membuf_free(&mem);
}

/* A slow sink: streaming must lose nothing, or report exactly what it dropped. */
static fxt_status slow_write(void *ctx, const void *data, size_t len) {
    struct timespec d = {0, 200000};
    nanosleep(&d, NULL);
    fxt_membuf_t *m = ctx;
    return fxt_sink_membuf(m).write(m, data, len);
}

static void test_streaming_slow_sink(void) {
    fxt_membuf_t mem = {0};
    fxt_session_config_t c = mem_config(&mem, FXT_MODE_STREAMING, 64u << 10);
    c.sink.write = slow_write;
    c.sink.ctx = &mem;
    CHECK(fxt_session_start(&c) == FXT_OK);
    run_threads(3, 30000);
    CHECK(fxt_session_stop() == FXT_OK);
    fxt_session_stats_t s;
    fxt_session_get_stats(&s);
    trace_t t;
    decode(mem.data, mem.len, &t);
    int nt = 0;
    CHECK_EQ_U64(t.errors, 0);
    CHECK_EQ_U64(t.unresolved, 0);
    CHECK_EQ_U64(t.n + s.dropped, 3 * 30000);
    CHECK_EQ_U64(t.dropped_reported, s.dropped);
    CHECK(per_thread_ok_gaps(&t, 0, 0, &nt, 1)); /* what arrived is in order per thread */
    /* every thread that got a chunk is named (a thread starved of chunks has no events) */
    CHECK_EQ_U64(t.thread_names, (uint64_t)nt);
    free(t.ev);
    fxt_membuf_free(&mem);

    /* a fast sink and a big buffer: nothing lost */
    fxt_membuf_t m2 = {0};
    c = mem_config(&m2, FXT_MODE_STREAMING, 8u << 20);
    CHECK(fxt_session_start(&c) == FXT_OK);
    run_threads(3, 30000);
    CHECK(fxt_session_stop() == FXT_OK);
    fxt_session_get_stats(&s);
    decode(m2.data, m2.len, &t);
    CHECK_EQ_U64(s.dropped, 0);
    CHECK(t.n == 3 * 30000 && per_thread_ok(&t, 1, 30000, &nt) && nt == 3);
    free(t.ev);
    fxt_membuf_free(&m2);
}

/* The engine's own threads (the streaming writer) block the fatal signals: one delivered to
 * the writer while a stop joins it hung both (the handler waits for the stop). Their masks,
 * read from /proc: every thread but this one is the engine's here. */
static void test_engine_threads_block_signals(void) {
#if defined(__linux__)
    fxt_membuf_t mem = {0};
    fxt_session_config_t c = mem_config(&mem, FXT_MODE_STREAMING, 1u << 20);
    CHECK(fxt_session_start(&c) == FXT_OK);
    char self[32];
    snprintf(self, sizeof self, "%ld", (long)getpid()); /* the main thread's task id */
    int others = 0;
    DIR *d = opendir("/proc/self/task");
    CHECK(d != NULL);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, self) == 0) {
            continue;
        }
        char path[300], line[256];
        snprintf(path, sizeof path, "/proc/self/task/%s/status", e->d_name);
        FILE *f = fopen(path, "r");
        unsigned long long blk = 0;
        while (f && fgets(line, sizeof line, f)) {
            if (strncmp(line, "SigBlk:", 7) == 0) {
                blk = strtoull(line + 7, NULL, 16);
            }
        }
        if (f) {
            fclose(f);
        }
        others++;
        int want[] = {SIGSEGV, SIGTERM, SIGINT, SIGQUIT, SIGABRT, SIGBUS};
        for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
            if (!((blk >> (want[i] - 1)) & 1u)) {
                fprintf(stderr, "thread %s: signal %d not blocked (SigBlk %llx)\n", e->d_name, want[i], blk);
                fxt_test_failures++;
            }
        }
    }
    if (d) {
        closedir(d);
    }
    CHECK(others >= 1); /* the writer */
    CHECK(fxt_session_stop() == FXT_OK);
    /* and this thread's mask is as it was */
    sigset_t now;
    pthread_sigmask(SIG_BLOCK, NULL, &now);
    CHECK(!sigismember(&now, SIGSEGV) && !sigismember(&now, SIGTERM));
    fxt_membuf_free(&mem);
#else
    TEST_SKIP("reads /proc (Linux)");
#endif
}

static void test_env_config(void) {
    char path[512];
    snprintf(path, sizeof path, "%s/trace-env-test.fxt", FXT_BINARY_DIR);
    setenv("FXT_TRACE_OUTPUT", path, 1);
    setenv("FXT_TRACE_CATEGORIES", "env*", 1);
    setenv("FXT_TRACE_MODE", "circular", 1);
    setenv("FXT_TRACE_BUFFER_SIZE", "1M", 1);
    CHECK(fxt_session_start_from_env() == FXT_OK);
    FXT_INSTANT("environment", "kept");
    FXT_INSTANT("test", "dropped: category not enabled");
    CHECK(fxt_session_stop() == FXT_OK);
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    if (f) {
        static uint8_t buf[1 << 20];
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        trace_t t;
        decode(buf, n, &t);
        CHECK(t.errors == 0 && t.n == 1 && t.ev[0].named);
        free(t.ev);
    }
    unsetenv("FXT_TRACE_OUTPUT");
    CHECK(fxt_session_start_from_env() == FXT_E_NOT_FOUND);
}

/* ---- one truncation rule for every API --------------------------------------------------- */

/* 1 when p[0..n) is well-formed UTF-8 (no sequence cut short, no stray continuation byte). */
static int utf8_valid(const char *p, size_t n) {
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)p[i];
        size_t k = c < 0x80             ? 1
                   : (c & 0xe0) == 0xc0 ? 2
                   : (c & 0xf0) == 0xe0 ? 3
                   : (c & 0xf8) == 0xf0 ? 4
                                        : 0;
        if (k == 0 || i + k > n) {
            return 0;
        }
        for (size_t j = 1; j < k; j++) {
            if (((unsigned char)p[i + j] & 0xc0) != 0x80) {
                return 0;
            }
        }
        i += k;
    }
    return 1;
}

/* 31999 'a', then U+00E9 across bytes 31999..32000 (the 32000-byte limit), then 8 'b': 32009 bytes. */
#define LONG_LEN 32009u
#define LONG_CUT 31999u /* the cut backs up to the start of the sequence */
static char *long_utf8_string(void) {
    char *s = malloc(LONG_LEN + 1);
    memset(s, 'a', LONG_CUT);
    s[LONG_CUT] = (char)0xc3;
    s[LONG_CUT + 1] = (char)0xa9;
    memset(s + LONG_CUT + 2, 'b', 8);
    s[LONG_LEN] = '\0';
    return s;
}

/* Every long string in the trace: cut at the boundary, valid UTF-8. Returns how many were seen. */
static unsigned check_long_strings(const uint8_t *data, size_t len, const char *src) {
    fxt_reader_t *r;
    fxt_reader_create(NULL, &r);
    fxt_in_buffer_t in = {data, len, 0};
    fxt_record_t rec;
    fxt_status st;
    unsigned seen = 0;
    while ((st = fxt_reader_next(r, &in, &rec)) != FXT_NEED_INPUT && st != FXT_END) {
        CHECK(st == FXT_OK);
        const fxt_str_t *v[FXT_MAX_ARGS + 2];
        unsigned nv = 0;
        for (unsigned i = 0; i < rec.nargs; i++) {
            if (rec.args[i].type == FXT_ARG_STRING) {
                v[nv++] = &rec.args[i].str;
            }
        }
        if (rec.kind == FXT_KIND_LOG) {
            v[nv++] = &rec.u.log.message;
        }
        if (rec.kind == FXT_KIND_STRING) {
            v[nv++] = &rec.u.string.value;
        }
        for (unsigned i = 0; i < nv; i++) {
            if (v[i]->ptr == NULL || v[i]->len < 1000) {
                continue;
            }
            seen++;
            CHECK_EQ_U64(v[i]->len, LONG_CUT);
            CHECK(utf8_valid(v[i]->ptr, v[i]->len));
            CHECK(memcmp(v[i]->ptr, src, LONG_CUT) == 0);
        }
    }
    fxt_reader_destroy(r);
    return seen;
}

static void test_long_string_cut_at_utf8_boundary(void) {
    char *s = long_utf8_string();
    fxt_str_t ls = fxt_str_n(s, LONG_LEN);

    /* the writer (fxt_write_*): interned and inline string arguments, a log message, a string record */
    fxt_membuf_t mem = {0};
    fxt_writer_t *w;
    CHECK(fxt_writer_create(NULL, fxt_sink_membuf(&mem), &w) == FXT_OK);
    fxt_arg_t a[2] = {fxt_arg_string(fxt_cstr("interned"), ls),
                      fxt_arg_string(fxt_cstr("inline"), fxt_str_inline(ls))};
    CHECK(fxt_write_instant(w, 1, fxt_thread(1, 2), fxt_cstr("c"), fxt_cstr("n"), a, 1) == FXT_OK);
    CHECK(fxt_write_instant(w, 2, fxt_thread(1, 2), fxt_cstr("c"), fxt_cstr("n"), a + 1, 1) == FXT_OK);
    CHECK(fxt_write_log(w, 3, fxt_thread(1, 2), ls) == FXT_OK);
    CHECK(fxt_write_string_record(w, 100, ls) == FXT_OK);
    CHECK(fxt_writer_finish(w) == FXT_OK);
    fxt_writer_destroy(w);
    /* 5: the interned one is seen as its string record and as the argument it resolves to */
    CHECK_EQ_U64(check_long_strings(mem.data, mem.len, s), 5);
    fxt_membuf_free(&mem);

    /* the stateless encoders (fxt_encode_*): event argument, log, string record */
    static uint8_t buf[3 * 33000];
    size_t used = 0, n = 0;
    fxt_arg_t ea = fxt_arg_string(fxt_cstr("v"), ls);
    fxt_event_desc_t ev = {
        FXT_EVENT_INSTANT, 1, fxt_thread_inline(1, 2), fxt_cstr("c"), fxt_cstr("n"), 0, 0, &ea, 1, NULL, 0};
    CHECK(fxt_encode_event(buf, sizeof buf, &n, &ev) == FXT_OK);
    used += n;
    CHECK(fxt_encode_log(buf + used, sizeof buf - used, &n, 2, fxt_thread_inline(1, 2), ls) == FXT_OK);
    used += n;
    CHECK(fxt_encode_string(buf + used, sizeof buf - used, &n, 7, ls) == FXT_OK);
    used += n;
    CHECK_EQ_U64(check_long_strings(buf, used, s), 3);

    /* the trace macros (FXT_STR), through the one-pass path and the general path */
    fxt_membuf_t tm = {0};
    fxt_session_config_t c = mem_config(&tm, FXT_MODE_ONESHOT, 1 << 20);
    CHECK(fxt_session_start(&c) == FXT_OK);
    for (int i = 0; i < 3; i++) {
        FXT_INSTANT("test", "long", FXT_STR("s", s));
    }
    CHECK(fxt_session_stop() == FXT_OK);
    CHECK_EQ_U64(check_long_strings(tm.data, tm.len, s), 3);
    fxt_membuf_free(&tm);
    free(s);
}

int main(int argc, char **argv) {
    TEST_INIT(argc, argv);
    RUN(test_every_macro);
    RUN(test_steady_state_same_events);
    RUN(test_runtime_names_by_content);
    RUN(test_oneshot_stress);
    RUN(test_oneshot_drops_counted);
    RUN(test_circular_keeps_newest);
    RUN(test_circular_lone_thread_uses_whole_buffer);
    RUN(test_circular_shares_evenly);
    RUN(test_streaming_slow_sink);
    RUN(test_engine_threads_block_signals);
    RUN(test_env_config);
    RUN(test_long_string_cut_at_utf8_boundary);
    return TEST_EXIT();
}
