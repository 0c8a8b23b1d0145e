/* SPDX-License-Identifier: MIT */
/*
 * Writer tests: byte-exact output against the hand-computed trace (both byte
 * orders), writer -> reader round trips for every record and argument type
 * and for random record sequences, table recycling, and every validation rule.
 */
#include "hand_trace.h"
#include "test.h"

#include <fxt/reader.h>
#include <fxt/writer.h>

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#define S(lit) fxt_cstr(lit)
#define SI(lit) fxt_str_inline(fxt_cstr(lit))

/* Offsets of each record of the hand trace, from the reader. */
static size_t record_bounds(const tbuf_t *b, uint64_t *start, size_t max) {
    tlog_t l = {0};
    decode_log(b->p, b->len, NULL, NULL, &l);
    size_t n = l.n < max ? l.n : max;
    for (size_t i = 0; i < n; i++) {
        start[i] = l.v[i].offset;
    }
    start[n] = b->len;
    free(l.v);
    return n;
}

/* Write, with the writer, the records of the hand trace it can express. */
static void write_hand_records(fxt_writer_t *w) {
    fxt_write_magic(w);
    fxt_write_provider_info(w, 7, S("prov"));
    fxt_write_provider_section(w, 7);
    fxt_write_provider_event(w, 7, 0);
    fxt_write_trace_info(w, 1, 0);
    fxt_write_init(w, 1000000);
    fxt_write_string_record(w, 1, S("cat"));
    fxt_write_string_record(w, 2, S("name"));
    fxt_write_thread_record(w, 1, 0x10, 0x20);
    fxt_thread_ref_t t1 = fxt_thread(0x10, 0x20);
    /* instant: 10 args (the hand trace's unknown arg type 10 and scope word cannot be written) */
    fxt_arg_t a[10] = {fxt_arg_null(SI("n")),
                       fxt_arg_int32(S("name"), -5),
                       fxt_arg_uint32(S("name"), 0xdeadbeefu),
                       fxt_arg_int64(S("name"), -2),
                       fxt_arg_uint64(S("name"), UINT64_MAX),
                       fxt_arg_double(S("name"), 1.5),
                       fxt_arg_string(S("name"), SI("hi")),
                       fxt_arg_pointer(S("name"), 0x1234),
                       fxt_arg_koid(S("name"), 0x99),
                       fxt_arg_bool(S("name"), 1)};
    fxt_write_instant(w, 0x1000, t1, S("cat"), S("name"), a, 10);
    fxt_arg_t c[1] = {fxt_arg_int32(S("name"), 5)};
    fxt_write_counter(w, 0x1100, fxt_thread_inline(0x31, 0x32), SI("c"), SI("cnt"), 42, c, 1);
    fxt_write_duration_begin(w, 0x2000, t1, S("cat"), S("name"), NULL, 0);
    fxt_write_duration_end(w, 0x2100, t1, S("cat"), S("name"), NULL, 0);
    fxt_write_duration_complete(w, 0x3000, 0x3500, t1, S("cat"), S("name"), NULL, 0);
    for (unsigned i = 0; i < 6; i++) {
        fxt_event_desc_t ev = {FXT_EVENT_ASYNC_BEGIN + i,
                               0x4000 + i,
                               t1,
                               S("cat"),
                               S("name"),
                               i < 3 ? 0xa : 0xf,
                               0,
                               NULL,
                               0,
                               NULL,
                               0};
        fxt_write_event(w, &ev);
    }
    fxt_write_blob(w, SI("b"), FXT_BLOB_DATA, "hello", 5);
    /* (the hand trace's first userspace object uses an indexed process ref: not written) */
    fxt_write_userspace_object(w, 0xdef, 0x77, SI("o"), NULL, 0);
    fxt_arg_t k[1] = {fxt_arg_koid(SI("process"), 0x10)};
    fxt_write_kernel_object(w, 0x20, FXT_OBJ_THREAD, SI("thr"), k, 1);
    fxt_write_context_switch(w, 0x5000, 3, FXT_THREAD_BLOCKED, 0x21, 0x22, c, 1);
    fxt_write_thread_wakeup(w, 0x5100, 1, 0x23, NULL, 0);
    fxt_write_legacy_context_switch(w, 0x5200, 2, FXT_THREAD_SUSPENDED, t1, fxt_thread_inline(0x41, 0x42), 10,
                                    20);
    fxt_write_log(w, 0x6000, t1, S("hello"));
    fxt_arg_t bl[1] = {fxt_arg_bool(S("name"), 1)};
    fxt_large_blob_desc_t lb0 = {0, S("cat"), SI("lb"), 0x7000, t1, bl, 1, "xyz", 3};
    fxt_write_large_blob(w, &lb0);
    fxt_large_blob_desc_t lb1 = {1, S(""), S("name"), 0, t1, NULL, 0, "123456789", 9};
    fxt_write_large_blob(w, &lb1);
}

static void check_bytes_exact(int be) {
    tbuf_t hand = {0};
    hand.be = be;
    build_all(&hand);
    uint64_t at[ALL_RECORDS + 1];
    CHECK_EQ_U64(record_bounds(&hand, at, ALL_RECORDS), ALL_RECORDS);

    /* expected: the hand records the writer can express, in order (record indexes of build_all) */
    tbuf_t exp = {0};
    exp.be = be;
    static const int keep[] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  -1, 10, 11, 12, 13, 14,
                               15, 16, 17, 18, 19, 20, 22, 23, 24, 25, 26, 27, 28, 29};
    for (unsigned i = 0; i < sizeof keep / sizeof keep[0]; i++) {
        if (keep[i] < 0) {
            /* the instant with 10 args: size 19@4, 10 args@20, thread 1@24, cat 1@32, name 2@48 */
            tb_w(&exp, 0x0002000101a00134ull);
            size_t inst = at[9];
            /* its timestamp and first 16 argument words are the hand trace's */
            tb_reserve(&exp, 17 * 8);
            memcpy(exp.p + exp.len, hand.p + inst + 8, 17 * 8);
            exp.len += 17 * 8;
            /* bool arg: type 9, size 1@4, name 2@16, true@32 */
            tb_w(&exp, 0x0000000100020019ull);
            continue;
        }
        size_t from = at[keep[i]], to = at[keep[i] + 1];
        tb_reserve(&exp, to - from);
        memcpy(exp.p + exp.len, hand.p + from, to - from);
        exp.len += to - from;
    }

    fxt_membuf_t mem = {0};
    fxt_writer_t *w;
    fxt_writer_options_t opt = {sizeof opt, be ? FXT_WRITE_BIG_ENDIAN : 0, 0, 0, 0};
    CHECK(fxt_writer_create(&opt, fxt_sink_membuf(&mem), &w) == FXT_OK);
    write_hand_records(w);
    CHECK(fxt_writer_finish(w) == FXT_OK);
    CHECK_EQ_U64(mem.len, exp.len);
    size_t diff = 0;
    while (diff < mem.len && diff < exp.len && mem.data[diff] == exp.p[diff]) {
        diff++;
    }
    if (diff != exp.len) {
        fprintf(stderr, "first difference at byte %zu\n", diff);
    }
    CHECK(mem.len == exp.len && memcmp(mem.data, exp.p, exp.len) == 0);
    fxt_writer_destroy(w);
    fxt_membuf_free(&mem);
    tb_free(&exp);
    tb_free(&hand);
}

static void test_bytes_exact_le(void) { check_bytes_exact(0); }
static void test_bytes_exact_be(void) { check_bytes_exact(1); }

/* ---- round trips ---------------------------------------------------------------------- */

static fxt_reader_t *reader_over(const fxt_membuf_t *m, fxt_in_buffer_t *in) {
    fxt_reader_t *r;
    fxt_reader_create(NULL, &r);
    in->src = m->data;
    in->size = m->len;
    in->pos = 0;
    return r;
}

/* Next record that is not a string or thread registration. */
static fxt_status next_content(fxt_reader_t *r, fxt_in_buffer_t *in, fxt_record_t *rec) {
    fxt_status st;
    do {
        st = fxt_reader_next(r, in, rec);
    } while (st == FXT_OK && (rec->kind == FXT_KIND_STRING || rec->kind == FXT_KIND_THREAD));
    return st;
}

static int str_eq(fxt_str_t s, const char *p, size_t n) {
    return s.ptr != NULL && s.len == n && (n == 0 || memcmp(s.ptr, p, n) == 0);
}

typedef struct rng {
    uint64_t s;
} rng_t;

static uint64_t rnd(rng_t *g) {
    g->s ^= g->s << 13;
    g->s ^= g->s >> 7;
    g->s ^= g->s << 17;
    return g->s;
}

/* A random string: short/interned, reused, inline, long, empty, arbitrary bytes. */
static fxt_str_t rnd_str(rng_t *g, char *buf, size_t cap) {
    unsigned kind = (unsigned)(rnd(g) % 10);
    size_t len;
    if (kind == 0) {
        len = 0;
    } else if (kind == 1) {
        len = 100 + rnd(g) % 300;
    } else {
        len = 1 + rnd(g) % 12;
    }
    if (len > cap) {
        len = cap;
    }
    for (size_t i = 0; i < len; i++) {
        buf[i] = kind == 2 ? (char)(rnd(g) & 0xff) : (char)('a' + rnd(g) % 5);
    }
    fxt_str_t s = fxt_str_n(buf, len);
    return (rnd(g) % 4 == 0) ? fxt_str_inline(s) : s;
}

#define NEV 3000

typedef struct expect {
    fxt_event_desc_t ev;
    char cat[512], name[512];
    char argname[FXT_MAX_ARGS][64], argstr[FXT_MAX_ARGS][64];
    fxt_arg_t args[FXT_MAX_ARGS];
} expect_t;

static void random_args(rng_t *g, expect_t *e, unsigned n) {
    for (unsigned i = 0; i < n; i++) {
        fxt_str_t nm = rnd_str(g, e->argname[i], sizeof e->argname[i]);
        unsigned type = (unsigned)(rnd(g) % FXT_ARG_TYPE_COUNT);
        uint64_t v = rnd(g);
        fxt_arg_t a = fxt_arg_null(nm);
        switch (type) {
        case FXT_ARG_INT32:
            a = fxt_arg_int32(nm, (int32_t)v);
            break;
        case FXT_ARG_UINT32:
            a = fxt_arg_uint32(nm, (uint32_t)v);
            break;
        case FXT_ARG_INT64:
            a = fxt_arg_int64(nm, (int64_t)v);
            break;
        case FXT_ARG_UINT64:
            a = fxt_arg_uint64(nm, v);
            break;
        case FXT_ARG_DOUBLE:
            a = fxt_arg_double(nm, (double)(int64_t)v / 7.0);
            break;
        case FXT_ARG_STRING:
            a = fxt_arg_string(nm, rnd_str(g, e->argstr[i], sizeof e->argstr[i]));
            break;
        case FXT_ARG_POINTER:
            a = fxt_arg_pointer(nm, v);
            break;
        case FXT_ARG_KOID:
            a = fxt_arg_koid(nm, v);
            break;
        case FXT_ARG_BOOL:
            a = fxt_arg_bool(nm, (int)(v & 1));
            break;
        default:
            break;
        }
        e->args[i] = a;
    }
}

static int args_match(const fxt_record_t *rec, const fxt_arg_t *args, unsigned n) {
    if (rec->nargs != n) {
        return 0;
    }
    for (unsigned i = 0; i < n; i++) {
        const fxt_arg_t *g = &rec->args[i];
        const fxt_arg_t *x = &args[i];
        if (g->type != x->type || !str_eq(g->name, x->name.ptr, x->name.len)) {
            return 0;
        }
        switch (x->type) {
        case FXT_ARG_INT32:
            if (g->v.i32 != x->v.i32)
                return 0;
            break;
        case FXT_ARG_UINT32:
            if (g->v.u32 != x->v.u32)
                return 0;
            break;
        case FXT_ARG_DOUBLE:
            if (memcmp(&g->v.f64, &x->v.f64, 8) != 0)
                return 0;
            break;
        case FXT_ARG_INT64:
        case FXT_ARG_UINT64:
        case FXT_ARG_POINTER:
        case FXT_ARG_KOID:
            if (g->v.u64 != x->v.u64)
                return 0;
            break;
        case FXT_ARG_BOOL:
            if (g->v.boolean != x->v.boolean)
                return 0;
            break;
        case FXT_ARG_STRING:
            if (!str_eq(g->str, x->str.ptr, x->str.len))
                return 0;
            break;
        default:
            break;
        }
    }
    return 1;
}

/* Random events of every type and argument type, tiny tables to force recycling. */
static void roundtrip_random(uint32_t max_strings, uint32_t max_threads, int be) {
    static expect_t ex[NEV];
    rng_t g = {0x1234567887654321ull ^ max_strings};
    fxt_membuf_t mem = {0};
    fxt_writer_t *w;
    fxt_writer_options_t opt = {sizeof opt, be ? FXT_WRITE_BIG_ENDIAN : 0, 0, max_strings, max_threads};
    CHECK(fxt_writer_create(&opt, fxt_sink_membuf(&mem), &w) == FXT_OK);
    fxt_write_magic(w);
    for (int i = 0; i < NEV; i++) {
        expect_t *e = &ex[i];
        fxt_event_desc_t *ev = &e->ev;
        ev->type = (uint32_t)(rnd(&g) % FXT_EVENT_TYPE_COUNT);
        ev->ts = rnd(&g);
        uint64_t tid = rnd(&g) % 20;
        ev->thread = (rnd(&g) % 5 == 0) ? fxt_thread_inline(tid / 4, tid) : fxt_thread(tid / 4, tid);
        ev->category = rnd_str(&g, e->cat, sizeof e->cat);
        ev->name = rnd_str(&g, e->name, sizeof e->name);
        ev->id = rnd(&g);
        ev->end_ts = rnd(&g);
        ev->nargs = (unsigned)(rnd(&g) % 16);
        random_args(&g, e, ev->nargs);
        ev->args = e->args;
        CHECK(fxt_write_event(w, ev) == FXT_OK);
    }
    CHECK(fxt_writer_finish(w) == FXT_OK);
    fxt_in_buffer_t in;
    fxt_reader_t *r = reader_over(&mem, &in);
    fxt_record_t rec;
    CHECK(next_content(r, &in, &rec) == FXT_OK && rec.kind == FXT_KIND_MAGIC);
    int bad = 0;
    for (int i = 0; i < NEV; i++) {
        const fxt_event_desc_t *ev = &ex[i].ev;
        if (next_content(r, &in, &rec) != FXT_OK || rec.kind != FXT_KIND_EVENT) {
            bad++;
            break;
        }
        int has_id = ev->type == FXT_EVENT_COUNTER ||
                     (ev->type >= FXT_EVENT_ASYNC_BEGIN && ev->type <= FXT_EVENT_FLOW_END);
        int ok = rec.u.event.type == ev->type && rec.u.event.ts == ev->ts && rec.u.event.thread.resolved &&
                 rec.u.event.thread.pid == ev->thread.pid && rec.u.event.thread.tid == ev->thread.tid &&
                 str_eq(rec.u.event.category, ev->category.ptr, ev->category.len) &&
                 str_eq(rec.u.event.name, ev->name.ptr, ev->name.len) &&
                 (!has_id || rec.u.event.id == ev->id) &&
                 (ev->type != FXT_EVENT_DURATION_COMPLETE || rec.u.event.end_ts == ev->end_ts) &&
                 rec.u.event.extra_words == 0 && args_match(&rec, ev->args, ev->nargs);
        if (!ok) {
            if (bad < 3) {
                fprintf(stderr, "event %d differs after the round trip\n", i);
            }
            bad++;
        }
    }
    CHECK_EQ_U64(bad, 0);
    CHECK(fxt_reader_next(r, &in, &rec) == FXT_NEED_INPUT && fxt_reader_finish(r) == FXT_OK);
    fxt_reader_destroy(r);
    fxt_writer_destroy(w);
    fxt_membuf_free(&mem);
}

static void test_roundtrip_random(void) { roundtrip_random(0, 0, 0); }
static void test_roundtrip_random_small_tables(void) { roundtrip_random(40, 3, 0); }
static void test_roundtrip_random_be(void) { roundtrip_random(7, 2, 1); }

/* Every non-event record type through the writer and back. */
static void test_roundtrip_other_records(void) {
    fxt_membuf_t mem = {0};
    fxt_writer_t *w;
    CHECK(fxt_writer_create(NULL, fxt_sink_membuf(&mem), &w) == FXT_OK);
    fxt_write_magic(w);
    fxt_write_provider_info(w, 0xfffffffeu, S("provider"));
    fxt_write_init(w, 19200000);
    fxt_write_provider_event(w, 0xfffffffeu, FXT_PROVIDER_EVENT_BUFFER_FULL);
    fxt_write_blob(w, S("blobname"), FXT_BLOB_PERFETTO, "\x00\x01\x02", 3);
    fxt_arg_t a[2] = {fxt_arg_string(S("k"), S("v")), fxt_arg_double(S("d"), -0.25)};
    fxt_write_userspace_object(w, 0xfeedull, 99, S("obj"), a, 2);
    fxt_write_kernel_object(w, 1234, FXT_OBJ_PROCESS, S("proc"), NULL, 0);
    fxt_write_context_switch(w, 10, 65535, 5, 1, 2, a, 2);
    fxt_write_thread_wakeup(w, 11, 7, 3, a, 1);
    fxt_write_legacy_context_switch(w, 12, 255, 4, fxt_thread(1, 2), fxt_thread(1, 3), 255, 0);
    fxt_write_log(w, 13, fxt_thread(1, 2), S("log message"));
    static uint8_t big[100000];
    for (size_t i = 0; i < sizeof big; i++) {
        big[i] = (uint8_t)(i * 7);
    }
    fxt_large_blob_desc_t lb = {0, S("c"), S("n"), 14, fxt_thread(1, 2), a, 2, big, sizeof big};
    fxt_write_large_blob(w, &lb);
    fxt_large_blob_desc_t lb1 = {1, S("c"), S("n"), 0, fxt_thread(0, 0), NULL, 0, big, 77777};
    fxt_write_large_blob(w, &lb1);
    fxt_write_provider_section(w, 5);
    fxt_write_trace_info(w, 3, 0xabc);
    fxt_write_instant(w, 15, fxt_thread(1, 2), S("c"), S("after switch"), NULL, 0);
    CHECK(fxt_writer_finish(w) == FXT_OK);

    fxt_in_buffer_t in;
    fxt_reader_t *r = reader_over(&mem, &in);
    fxt_record_t rec;
    CHECK(next_content(r, &in, &rec) == FXT_OK && rec.kind == FXT_KIND_MAGIC);
    CHECK(next_content(r, &in, &rec) == FXT_OK && rec.kind == FXT_KIND_PROVIDER_INFO &&
          rec.u.provider_info.id == 0xfffffffeu && str_eq(rec.u.provider_info.name, "provider", 8));
    CHECK(next_content(r, &in, &rec) == FXT_OK && rec.u.init.ticks_per_second == 19200000);
    CHECK(next_content(r, &in, &rec) == FXT_OK && rec.kind == FXT_KIND_PROVIDER_EVENT &&
          rec.u.provider_event.event == 0);
    CHECK(next_content(r, &in, &rec) == FXT_OK && rec.kind == FXT_KIND_BLOB &&
          rec.u.blob.blob_type == FXT_BLOB_PERFETTO && rec.u.blob.size == 3 &&
          memcmp(rec.u.blob.payload, "\x00\x01\x02", 3) == 0 && str_eq(rec.u.blob.name, "blobname", 8));
    CHECK(next_content(r, &in, &rec) == FXT_OK && rec.kind == FXT_KIND_USERSPACE_OBJECT &&
          rec.u.userspace_object.ptr == 0xfeed && rec.u.userspace_object.process.pid == 99 &&
          args_match(&rec, a, 2));
    CHECK(next_content(r, &in, &rec) == FXT_OK && rec.kind == FXT_KIND_KERNEL_OBJECT &&
          rec.u.kernel_object.koid == 1234 && rec.u.kernel_object.obj_type == FXT_OBJ_PROCESS &&
          str_eq(rec.u.kernel_object.name, "proc", 4));
    CHECK(next_content(r, &in, &rec) == FXT_OK && rec.kind == FXT_KIND_CONTEXT_SWITCH &&
          rec.u.context_switch.cpu == 65535 && rec.u.context_switch.out_state == 5 &&
          rec.u.context_switch.out_tid == 1 && rec.u.context_switch.in_tid == 2 && args_match(&rec, a, 2));
    CHECK(next_content(r, &in, &rec) == FXT_OK && rec.kind == FXT_KIND_THREAD_WAKEUP &&
          rec.u.thread_wakeup.tid == 3 && rec.u.thread_wakeup.cpu == 7 && args_match(&rec, a, 1));
    CHECK(next_content(r, &in, &rec) == FXT_OK && rec.kind == FXT_KIND_LEGACY_CONTEXT_SWITCH &&
          rec.u.legacy_context_switch.out.tid == 2 && rec.u.legacy_context_switch.in.tid == 3 &&
          rec.u.legacy_context_switch.out_prio == 255 && rec.u.legacy_context_switch.cpu == 255);
    CHECK(next_content(r, &in, &rec) == FXT_OK && rec.kind == FXT_KIND_LOG &&
          str_eq(rec.u.log.message, "log message", 11) && rec.u.log.thread.tid == 2);
    CHECK(next_content(r, &in, &rec) == FXT_OK && rec.kind == FXT_KIND_LARGE_BLOB &&
          rec.u.large_blob.format == 0 && rec.u.large_blob.size == sizeof big &&
          memcmp(rec.u.large_blob.payload, big, sizeof big) == 0 && rec.u.large_blob.ts == 14 &&
          args_match(&rec, a, 2));
    CHECK(next_content(r, &in, &rec) == FXT_OK && rec.kind == FXT_KIND_LARGE_BLOB &&
          rec.u.large_blob.format == 1 && rec.u.large_blob.size == 77777 &&
          memcmp(rec.u.large_blob.payload, big, 77777) == 0);
    CHECK(next_content(r, &in, &rec) == FXT_OK && rec.kind == FXT_KIND_PROVIDER_SECTION && rec.provider == 5);
    CHECK(next_content(r, &in, &rec) == FXT_OK && rec.kind == FXT_KIND_TRACE_INFO &&
          rec.u.trace_info.info_type == 3);
    /* after a provider switch the writer registers its strings again, in the new provider */
    CHECK(next_content(r, &in, &rec) == FXT_OK && rec.kind == FXT_KIND_EVENT &&
          str_eq(rec.u.event.name, "after switch", 12) && str_eq(rec.u.event.category, "c", 1) &&
          rec.u.event.thread.resolved);
    CHECK(fxt_reader_next(r, &in, &rec) == FXT_NEED_INPUT);
    fxt_reader_destroy(r);
    fxt_writer_destroy(w);
    fxt_membuf_free(&mem);
}

/* More strings and threads than the tables hold: recycled slots still decode right. */
static void test_table_recycling(void) {
    fxt_membuf_t mem = {0};
    fxt_writer_t *w;
    CHECK(fxt_writer_create(NULL, fxt_sink_membuf(&mem), &w) == FXT_OK);
    char name[32], cat[32];
    const int N = 45000;
    for (int i = 0; i < N; i++) {
        snprintf(name, sizeof name, "string-%d", i);
        snprintf(cat, sizeof cat, "cat-%d", i % 50); /* hot strings stay interned */
        uint64_t tid = (uint64_t)(i % 300);
        fxt_write_instant(w, (uint64_t)i, fxt_thread(7, tid), S(cat), S(name), NULL, 0);
    }
    CHECK(fxt_writer_finish(w) == FXT_OK);
    fxt_in_buffer_t in;
    fxt_reader_t *r = reader_over(&mem, &in);
    fxt_record_t rec;
    int bad = 0, strings = 0;
    for (int i = 0; i < N; i++) {
        fxt_status st;
        while ((st = fxt_reader_next(r, &in, &rec)) == FXT_OK && rec.kind != FXT_KIND_EVENT) {
            strings += rec.kind == FXT_KIND_STRING;
            CHECK(rec.kind != FXT_KIND_STRING || (rec.u.string.index >= 1 && rec.u.string.index <= 32767));
        }
        snprintf(name, sizeof name, "string-%d", i);
        snprintf(cat, sizeof cat, "cat-%d", i % 50);
        if (st != FXT_OK || !str_eq(rec.u.event.name, name, strlen(name)) ||
            !str_eq(rec.u.event.category, cat, strlen(cat)) ||
            rec.u.event.thread.tid != (uint64_t)(i % 300) || rec.u.event.thread.ref == 0) {
            bad++;
        }
    }
    CHECK_EQ_U64(bad, 0);
    /* every distinct string registered once, hot categories not re-registered each time */
    CHECK(strings >= N + 50 && strings < N + 50 + 1000);
    fxt_writer_stats_t ws;
    fxt_writer_get_stats(w, &ws);
    CHECK_EQ_U64(ws.strings_registered, strings);
    CHECK(ws.string_evictions >= (uint64_t)N + 50 - 32767);
    CHECK_EQ_U64(ws.strings_registered - ws.string_evictions, 32767); /* the table ends full */
    CHECK(ws.threads_registered >= 300 && ws.thread_evictions >= 300 - 255);
    CHECK_EQ_U64(ws.threads_registered - ws.thread_evictions, 255);
    CHECK_EQ_U64(ws.strings_inline, 0);
    CHECK_EQ_U64(ws.records, fxt_writer_records(w));
    fxt_reader_destroy(r);
    fxt_writer_destroy(w);
    fxt_membuf_free(&mem);
}

/* ---- validation -------------------------------------------------------------------------- */

static fxt_writer_t *fresh(fxt_membuf_t *mem) {
    fxt_writer_t *w = NULL;
    memset(mem, 0, sizeof *mem);
    fxt_writer_create(NULL, fxt_sink_membuf(mem), &w);
    return w;
}

/*
 * A refused call: the expected status, nothing of it written (not even a
 * string or thread record for its new strings), the writer still FXT_OK and
 * usable, and the trace valid.
 */
#define REFUSED(w, mem, call, expected)                                                                      \
    do {                                                                                                     \
        uint64_t bytes_ = fxt_writer_bytes(w), recs_ = fxt_writer_records(w);                                \
        CHECK_EQ_I64((call), (expected));                                                                    \
        CHECK_EQ_U64(fxt_writer_bytes(w), bytes_);                                                           \
        CHECK_EQ_U64(fxt_writer_records(w), recs_);                                                          \
        CHECK_EQ_I64(fxt_writer_status(w), FXT_OK);                                                          \
    } while (0)

/* The interning writer takes the same fxt_thread_ref_t as the encoders: a caller's index is written as given.
 */
static void test_thread_index(void) {
    fxt_membuf_t mem;
    fxt_writer_t *w = fresh(&mem);
    CHECK_EQ_I64(fxt_write_magic(w), FXT_OK);
    CHECK_EQ_I64(fxt_write_thread_record(w, 7, 70, 71), FXT_OK);
    CHECK_EQ_I64(fxt_write_instant(w, 1, fxt_thread_index(7), S("c"), S("n"), NULL, 0), FXT_OK);
    CHECK_EQ_I64(fxt_write_instant(w, 2, fxt_thread_inline(80, 81), S("c"), S("n"), NULL, 0), FXT_OK);
    CHECK_EQ_I64(fxt_writer_finish(w), FXT_OK);
    fxt_in_buffer_t in;
    fxt_reader_t *r = reader_over(&mem, &in);
    fxt_record_t rec;
    unsigned events = 0;
    while (fxt_reader_next(r, &in, &rec) == FXT_OK) {
        if (rec.kind != FXT_KIND_EVENT) {
            continue;
        }
        const fxt_thread_ref_t *t = &rec.u.event.thread;
        if (events++ == 0) {
            CHECK(t->ref == 7 && t->resolved && t->pid == 70 && t->tid == 71);
        } else {
            CHECK(t->ref == FXT_THREADREF_INLINE && t->pid == 80 && t->tid == 81);
        }
    }
    CHECK_EQ_U64(events, 2);
    fxt_reader_destroy(r);
    fxt_writer_destroy(w);
    fxt_membuf_free(&mem);
}

/* The struct_size rule (common.h): 0 = defaults, shorter = older caller, longer = refused. */
static void test_options_struct_size(void) {
    fxt_membuf_t mem = {0};
    fxt_writer_t *w = NULL;
    fxt_writer_options_t o = FXT_WRITER_OPTIONS_INIT;
    CHECK_EQ_U64(o.struct_size, sizeof o);
    o.flags = FXT_WRITE_BIG_ENDIAN;
    o.struct_size = 0; /* defaults: flags ignored */
    CHECK_EQ_I64(fxt_writer_create(&o, fxt_sink_membuf(&mem), &w), FXT_OK);
    CHECK_EQ_I64(fxt_write_magic(w), FXT_OK);
    CHECK_EQ_I64(fxt_writer_finish(w), FXT_OK);
    CHECK(mem.len == 8 && mem.data[0] == 0x10); /* little-endian magic */
    fxt_writer_destroy(w);
    mem.len = 0;
    o.struct_size = 8;   /* an older caller knowing only flags */
    o.max_threads = 300; /* past its struct_size: not read (300 would be refused) */
    CHECK_EQ_I64(fxt_writer_create(&o, fxt_sink_membuf(&mem), &w), FXT_OK);
    CHECK_EQ_I64(fxt_write_magic(w), FXT_OK);
    CHECK_EQ_I64(fxt_writer_finish(w), FXT_OK);
    CHECK(mem.len == 8 && mem.data[0] == 0x00); /* big-endian magic */
    fxt_writer_destroy(w);
    o.struct_size = sizeof o + 8;
    CHECK_EQ_I64(fxt_writer_create(&o, fxt_sink_membuf(&mem), &w), FXT_E_INVALID_ARG);
    fxt_membuf_free(&mem);

    fxt_reader_options_t ro = FXT_READER_OPTIONS_INIT;
    fxt_reader_t *r = NULL;
    CHECK_EQ_U64(ro.struct_size, sizeof ro);
    ro.struct_size = 0;
    CHECK_EQ_I64(fxt_reader_create(&ro, &r), FXT_OK);
    fxt_reader_destroy(r);
    ro.struct_size = sizeof ro + 1;
    CHECK_EQ_I64(fxt_reader_create(&ro, &r), FXT_E_INVALID_ARG);
}

static void test_validation(void) {
    fxt_membuf_t mem;
    fxt_writer_t *w = fresh(&mem);
    CHECK_EQ_I64(fxt_write_magic(w), FXT_OK);
    fxt_arg_t many[16];
    for (int i = 0; i < 16; i++) {
        many[i] = fxt_arg_int32(S("fresh-arg-name"), i);
    }
    /* new category/name/thread: refused before they are interned */
    REFUSED(w, mem, fxt_write_instant(w, 1, fxt_thread(1, 1), S("new-c"), S("new-n"), many, 16),
            FXT_E_TOO_MANY_ARGS);
    REFUSED(w, mem, fxt_write_kernel_object(w, 1, 2, S("k"), many, 16), FXT_E_TOO_MANY_ARGS);
    REFUSED(w, mem, fxt_write_context_switch(w, 1, 1, 1, 2, 3, many, 16), FXT_E_TOO_MANY_ARGS);

    static char big[9000];
    memset(big, 'x', sizeof big);
    fxt_arg_t huge[4];
    for (int i = 0; i < 4; i++) {
        huge[i] = fxt_arg_string(S("s"), fxt_str_inline(fxt_str_n(big, sizeof big)));
    }
    REFUSED(w, mem, fxt_write_instant(w, 1, fxt_thread(2, 2), S("c2"), S("n2"), huge, 4),
            FXT_E_RECORD_TOO_LARGE);
    fxt_large_blob_desc_t lb = {0, S("c3"), S("n3"), 0, fxt_thread(3, 3), many, 16, "x", 1};
    REFUSED(w, mem, fxt_write_large_blob(w, &lb), FXT_E_TOO_MANY_ARGS);
    REFUSED(w, mem, fxt_write_blob(w, S("c4"), 1, big, 0x8000), FXT_E_RECORD_TOO_LARGE);

    char pname[300];
    memset(pname, 'p', sizeof pname);
    REFUSED(w, mem, fxt_write_provider_info(w, 1, fxt_str_n(pname, 256)), FXT_E_STRING_TOO_LONG);
    REFUSED(w, mem, fxt_write_string_record(w, 0, S("x")), FXT_E_BAD_INDEX);
    REFUSED(w, mem, fxt_write_string_record(w, 32768, S("x")), FXT_E_BAD_INDEX);
    REFUSED(w, mem, fxt_write_thread_record(w, 0, 1, 2), FXT_E_BAD_INDEX);
    fxt_event_desc_t eref = {
        FXT_EVENT_INSTANT, 1, fxt_thread_index(256), fxt_sref(1), fxt_sref(2), 0, 0, NULL, 0, NULL, 0};
    REFUSED(w, mem, fxt_write_event_refs(w, &eref), FXT_E_BAD_INDEX);
    fxt_event_desc_t ev = {11, 0, fxt_thread(1, 1), S("c"), S("n"), 0, 0, NULL, 0, NULL, 0};
    REFUSED(w, mem, fxt_write_event(w, &ev), FXT_E_INVALID_ARG);
    fxt_arg_t badarg = fxt_arg_int32(S("x"), 1);
    badarg.type = 10;
    REFUSED(w, mem, fxt_write_instant(w, 1, fxt_thread(4, 4), S("c5"), S("n5"), &badarg, 1), FXT_E_BAD_ARG);
    REFUSED(w, mem, fxt_write_init(w, 0), FXT_E_INVALID_ARG);
    REFUSED(w, mem, fxt_write_instant(w, 1, fxt_thread_index(256), S("c6"), S("n6"), NULL, 0),
            FXT_E_BAD_INDEX);
    REFUSED(w, mem, fxt_write_log(w, 1, fxt_thread_index(300), S("m")), FXT_E_BAD_INDEX);

    /* the writer goes on: 15 args and 3 huge strings are fine */
    CHECK_EQ_I64(fxt_write_instant(w, 5, fxt_thread(1, 1), S("c"), S("n"), many, 15), FXT_OK);
    CHECK_EQ_I64(fxt_write_instant(w, 6, fxt_thread(1, 1), S("c"), S("n"), huge, 3), FXT_OK);
    CHECK_EQ_I64(fxt_writer_finish(w), FXT_OK);
    /* decoded: magic, then exactly the accepted records (no string of a refused one) */
    fxt_in_buffer_t in;
    fxt_reader_t *r = reader_over(&mem, &in);
    fxt_record_t rec;
    unsigned events = 0, strings = 0;
    fxt_status st;
    while ((st = fxt_reader_next(r, &in, &rec)) == FXT_OK) {
        events += rec.kind == FXT_KIND_EVENT;
        if (rec.kind == FXT_KIND_STRING) {
            strings++;
            CHECK(!str_eq(rec.u.string.value, "new-c", 5) && !str_eq(rec.u.string.value, "c2", 2) &&
                  !str_eq(rec.u.string.value, "c5", 2));
        }
    }
    CHECK_EQ_I64(st, FXT_NEED_INPUT);
    CHECK_EQ_U64(events, 2);
    CHECK_EQ_U64(strings, 4); /* c, n, fresh-arg-name, s */
    fxt_reader_destroy(r);
    fxt_writer_destroy(w);
    fxt_membuf_free(&mem);

    /* a full fixed buffer */
    static uint8_t small[40000];
    fxt_fixedbuf_t fb = {small, sizeof small, 0};
    fxt_writer_t *fw;
    /* the writer hands the sink whole blocks of complete records (buffer_size each) */
    fxt_writer_options_t fopt = {sizeof fopt, 0, 32768, 0, 0};
    CHECK(fxt_writer_create(&fopt, fxt_sink_fixed(&fb), &fw) == FXT_OK);
    st = FXT_OK;
    for (int i = 0; i < 10000 && st == FXT_OK; i++) {
        st = fxt_write_instant(fw, (uint64_t)i, fxt_thread(1, 1), S("c"), S("n"), NULL, 0);
    }
    if (st == FXT_OK) {
        st = fxt_writer_finish(fw);
    }
    CHECK(st == FXT_E_BUFFER_FULL);
    CHECK(fb.len > 30000 && fb.len <= 32768);
    /* what reached the buffer is a valid trace: whole records, no truncation */
    tlog_t l = {0};
    decode_log(small, fb.len, NULL, NULL, &l);
    CHECK(l.n > 1000 && l.v[l.n - 1].status == 0);
    free(l.v);
    /* sticky: later calls do nothing and return the first failure */
    size_t len_before = fb.len;
    CHECK_EQ_I64(fxt_write_magic(fw), FXT_E_BUFFER_FULL);
    CHECK_EQ_I64(fxt_writer_status(fw), FXT_E_BUFFER_FULL);
    CHECK_EQ_I64(fxt_writer_finish(fw), FXT_E_BUFFER_FULL);
    CHECK_EQ_U64(fb.len, len_before);
    /* reset: reusable with a new sink */
    fxt_membuf_t m2 = {0};
    fxt_writer_reset(fw, fxt_sink_membuf(&m2));
    CHECK_EQ_I64(fxt_writer_status(fw), FXT_OK);
    CHECK_EQ_I64(fxt_write_instant(fw, 1, fxt_thread(1, 1), S("c"), S("n"), NULL, 0), FXT_OK);
    CHECK_EQ_I64(fxt_writer_finish(fw), FXT_OK);
    /* the tables were forgotten: c, n and the thread are registered again */
    CHECK_EQ_U64(fxt_writer_records(fw), 4);
    CHECK_EQ_U64(m2.len, 8 * (2 + 2 + 3 + 2));
    fxt_membuf_free(&m2);
    fxt_writer_destroy(fw);
}

/* The fd and FILE* sinks write exactly the bytes a membuf gets; the capped membuf stops. */
static void write_some(fxt_writer_t *w) {
    fxt_write_magic(w);
    fxt_write_init(w, 1000);
    for (int i = 0; i < 20000; i++) { /* ~1 MB: many buffer flushes */
        fxt_arg_t a[2] = {fxt_arg_int32(S("a"), i), fxt_arg_uint64(S("b"), (uint64_t)i * 3)};
        fxt_write_instant(w, (uint64_t)i, fxt_thread(1, (uint64_t)(i % 7)), S("cat"), S("name"), a, 2);
    }
    fxt_write_log(w, 1, fxt_thread(1, 1), S("the end"));
}

static void test_sinks(void) {
    fxt_membuf_t ref = {0};
    fxt_writer_t *w;
    CHECK(fxt_writer_create(NULL, fxt_sink_membuf(&ref), &w) == FXT_OK);
    write_some(w);
    CHECK_EQ_I64(fxt_writer_finish(w), FXT_OK);
    fxt_writer_destroy(w);
    CHECK(ref.len > 500000);

    char path[] = "/tmp/fxt_writer_sink_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    CHECK(fxt_writer_create(NULL, fxt_sink_fd(&fd), &w) == FXT_OK);
    write_some(w);
    CHECK_EQ_I64(fxt_writer_finish(w), FXT_OK);
    fxt_writer_destroy(w);
    close(fd);
    FILE *f = fopen(path, "rb");
    static uint8_t back[2 << 20];
    size_t n = f ? fread(back, 1, sizeof back, f) : 0;
    if (f) {
        fclose(f);
    }
    CHECK(n == ref.len && memcmp(back, ref.data, n) == 0);

    f = fopen(path, "wb");
    CHECK(f != NULL);
    CHECK(fxt_writer_create(NULL, fxt_sink_file(f), &w) == FXT_OK);
    write_some(w);
    CHECK_EQ_I64(fxt_writer_finish(w), FXT_OK);
    fxt_writer_destroy(w);
    fclose(f);
    f = fopen(path, "rb");
    n = f ? fread(back, 1, sizeof back, f) : 0;
    if (f) {
        fclose(f);
    }
    CHECK(n == ref.len && memcmp(back, ref.data, n) == 0);
    remove(path);

    /* a closed fd: FXT_E_IO, sticky */
    int bad = -1;
    CHECK(fxt_writer_create(NULL, fxt_sink_fd(&bad), &w) == FXT_OK);
    CHECK_EQ_I64(fxt_write_magic(w), FXT_OK); /* buffered */
    CHECK_EQ_I64(fxt_writer_finish(w), FXT_E_IO);
    CHECK_EQ_I64(fxt_write_magic(w), FXT_E_IO);
    fxt_writer_destroy(w);

    /* capped membuf: stops at the cap with whole buffer blocks, sticky */
    fxt_capped_membuf_t cb = {{0}, 200000};
    CHECK(fxt_writer_create(NULL, fxt_sink_membuf_capped(&cb), &w) == FXT_OK);
    write_some(w);
    CHECK_EQ_I64(fxt_writer_finish(w), FXT_E_BUFFER_FULL);
    CHECK(cb.mem.len <= 200000 && cb.mem.len >= 200000 - 65536);
    CHECK(memcmp(cb.mem.data, ref.data, cb.mem.len) == 0);
    fxt_writer_destroy(w);
    fxt_membuf_free(&cb.mem);
    fxt_membuf_free(&ref);
}

/* Strings over 32000 bytes are truncated at a UTF-8 boundary and counted. */
static void test_truncation(void) {
    static char s[33000];
    memset(s, 'a', sizeof s);
    /* a 3-byte euro sign straddling byte 32000 */
    memcpy(s + 31999, "\xe2\x82\xac", 3);
    fxt_membuf_t mem;
    fxt_writer_t *w = fresh(&mem);
    fxt_write_log(w, 1, fxt_thread(1, 1), fxt_str_n(s, sizeof s));
    fxt_write_instant(w, 2, fxt_thread(1, 1), S("c"), fxt_str_n(s, 32001), NULL, 0);
    CHECK(fxt_writer_finish(w) == FXT_OK);
    CHECK_EQ_U64(fxt_writer_truncations(w), 2);
    CHECK_EQ_I64(fxt_writer_last_truncated(w), 1);
    CHECK_EQ_I64(fxt_write_log(w, 3, fxt_thread(1, 1), S("short")), FXT_OK);
    CHECK_EQ_I64(fxt_writer_last_truncated(w), 0);
    fxt_in_buffer_t in;
    fxt_reader_t *r = reader_over(&mem, &in);
    fxt_record_t rec;
    CHECK(next_content(r, &in, &rec) == FXT_OK && rec.kind == FXT_KIND_LOG);
    CHECK_EQ_U64(rec.u.log.message.len, 31999);
    CHECK(next_content(r, &in, &rec) == FXT_OK && rec.kind == FXT_KIND_EVENT);
    CHECK_EQ_U64(rec.u.event.name.len, 31999);
    fxt_reader_destroy(r);
    fxt_writer_destroy(w);
    fxt_membuf_free(&mem);
}

/* Shorthands: the scoped instant (scope word appended) and the async/flow macros. */
static void test_shorthands(void) {
    fxt_membuf_t mem = {0};
    fxt_writer_t *w;
    CHECK(fxt_writer_create(NULL, fxt_sink_membuf(&mem), &w) == FXT_OK);
    fxt_thread_ref_t t = fxt_thread(3, 4);
    fxt_arg_t a[1] = {fxt_arg_ptr(S("p"), 0xbeef)};
    CHECK_EQ_I64(fxt_write_instant_scoped(w, 10, t, S("c"), S("i"), FXT_SCOPE_PROCESS, a, 1), FXT_OK);
    CHECK_EQ_I64(fxt_write_async_begin(w, 11, t, S("c"), S("a"), 77, NULL, 0), FXT_OK);
    CHECK_EQ_I64(fxt_write_async_instant(w, 12, t, S("c"), S("a"), 77, NULL, 0), FXT_OK);
    CHECK_EQ_I64(fxt_write_async_end(w, 13, t, S("c"), S("a"), 77, NULL, 0), FXT_OK);
    CHECK_EQ_I64(fxt_write_flow_begin(w, 14, t, S("c"), S("f"), 88, NULL, 0), FXT_OK);
    CHECK_EQ_I64(fxt_write_flow_step(w, 15, t, S("c"), S("f"), 88, NULL, 0), FXT_OK);
    CHECK_EQ_I64(fxt_write_flow_end(w, 16, t, S("c"), S("f"), 88, a, 1), FXT_OK);
    CHECK_EQ_I64(fxt_writer_finish(w), FXT_OK);
    fxt_in_buffer_t in;
    fxt_reader_t *r = reader_over(&mem, &in);
    fxt_record_t rec;
    CHECK(next_content(r, &in, &rec) == FXT_OK && rec.kind == FXT_KIND_EVENT);
    CHECK_EQ_U64(rec.u.event.type, FXT_EVENT_INSTANT);
    CHECK_EQ_U64(rec.u.event.extra_words, 1);
    CHECK(rec.u.event.extra_words == 1 && fxt_record_word(&rec, rec.u.event.extra, 0) == FXT_SCOPE_PROCESS);
    CHECK(rec.nargs == 1 && rec.args[0].type == FXT_ARG_POINTER && rec.args[0].v.pointer == 0xbeef);
    for (unsigned i = 0; i < 6; i++) {
        CHECK(next_content(r, &in, &rec) == FXT_OK && rec.kind == FXT_KIND_EVENT);
        CHECK_EQ_U64(rec.u.event.type, FXT_EVENT_ASYNC_BEGIN + i);
        CHECK_EQ_U64(rec.u.event.ts, 11 + i);
        CHECK_EQ_U64(rec.u.event.id, i < 3 ? 77 : 88);
        CHECK_EQ_U64(rec.u.event.extra_words, 0);
    }
    CHECK_EQ_U64(rec.nargs, 1);
    fxt_reader_destroy(r);
    fxt_writer_destroy(w);
    fxt_membuf_free(&mem);
}

/*
 * The lookup hints ((pointer, length) -> slot, last thread) are only hints:
 * a buffer reused with new bytes, a slot recycled for another string or
 * thread, and an explicit registration duplicating an interned string must
 * all give what a lookup by content gives.
 */
static uint16_t last_event_name_ref(fxt_writer_t *w, const fxt_membuf_t *mem) {
    /* the last record: an instant without args and with an interned thread (2 words) */
    fxt_writer_flush(w);
    return (uint16_t)fxt_get_event_name(fxt_load64(mem->data + mem->len - 16));
}

static void test_lookup_hints(void) {
    fxt_membuf_t mem = {0};
    fxt_writer_t *w;
    fxt_writer_options_t o = {sizeof o, 0, 0, 2, 1}; /* 2 string slots, 1 thread slot */
    CHECK(fxt_writer_create(&o, fxt_sink_membuf(&mem), &w) == FXT_OK);
    char buf[8], other[8];
    static const char *const seq[] = {"alpha", "bravo", "alpha", "bravo", "charl", "alpha", "alpha"};
    const int n = (int)(sizeof seq / sizeof seq[0]);
    for (int i = 0; i < n; i++) {
        memcpy(buf, seq[i], 6); /* same pointer and length, new bytes */
        memcpy(other, "zz", 3); /* a second string competing for the 2 slots */
        fxt_thread_ref_t t = fxt_thread(1, (uint64_t)(i % 3 == 0 ? 10 : 20)); /* 1 slot: recycled */
        CHECK_EQ_I64(fxt_write_instant(w, (uint64_t)i, t, S(other), fxt_cstr(buf), NULL, 0), FXT_OK);
    }
    CHECK_EQ_I64(fxt_writer_finish(w), FXT_OK);
    fxt_in_buffer_t in;
    fxt_reader_t *r = reader_over(&mem, &in);
    fxt_record_t rec;
    for (int i = 0; i < n; i++) {
        CHECK(next_content(r, &in, &rec) == FXT_OK && rec.kind == FXT_KIND_EVENT);
        CHECK(str_eq(rec.u.event.name, seq[i], strlen(seq[i])));
        CHECK(str_eq(rec.u.event.category, "zz", 2));
        CHECK_EQ_U64(rec.u.event.thread.tid, i % 3 == 0 ? 10 : 20);
    }
    CHECK(next_content(r, &in, &rec) == FXT_NEED_INPUT);
    fxt_reader_destroy(r);
    fxt_writer_destroy(w);
    fxt_membuf_free(&mem);

    /* "x" interned into a slot, explicitly duplicated into 300, then its first
       slot registered again: a lookup by content now meets 300 first, and so
       must the hint */
    memset(&mem, 0, sizeof mem);
    CHECK(fxt_writer_create(NULL, fxt_sink_membuf(&mem), &w) == FXT_OK);
    fxt_thread_ref_t t = fxt_thread(1, 10);
    CHECK_EQ_I64(fxt_write_instant(w, 100, t, S("c"), S("x"), NULL, 0), FXT_OK);
    uint16_t first = last_event_name_ref(w, &mem);
    CHECK_EQ_I64(fxt_write_instant(w, 101, t, S("c"), S("x"), NULL, 0), FXT_OK);
    CHECK_EQ_U64(last_event_name_ref(w, &mem), first);
    CHECK_EQ_I64(fxt_write_string_record(w, 300, S("x")), FXT_OK);
    CHECK_EQ_I64(fxt_write_string_record(w, first, S("x")), FXT_OK);
    CHECK_EQ_I64(fxt_write_instant(w, 102, t, S("c"), S("x"), NULL, 0), FXT_OK);
    CHECK_EQ_U64(last_event_name_ref(w, &mem), 300);
    fxt_writer_destroy(w);
    fxt_membuf_free(&mem);
}

int main(int argc, char **argv) {
    TEST_INIT(argc, argv);
    RUN(test_bytes_exact_le);
    RUN(test_bytes_exact_be);
    RUN(test_roundtrip_random);
    RUN(test_roundtrip_random_small_tables);
    RUN(test_roundtrip_random_be);
    RUN(test_roundtrip_other_records);
    RUN(test_table_recycling);
    RUN(test_lookup_hints);
    RUN(test_validation);
    RUN(test_thread_index);
    RUN(test_options_struct_size);
    RUN(test_truncation);
    RUN(test_sinks);
    RUN(test_shorthands);
    return TEST_EXIT();
}
