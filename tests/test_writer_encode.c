/* SPDX-License-Identifier: MIT */
/*
 * Stateless encoders (fxt_encode_*) and explicit-ref writing: byte-exact
 * against the hand-built trace of hand_trace.h (each word derived there from
 * the spec's bit layouts), validation with nothing written, and round trips
 * of explicit-ref events through a writer.
 */
#include "hand_trace.h"
#include "test.h"

#include <fxt/reader.h>
#include <fxt/writer.h>

#include "encode.h" /* the library's encoding core (src/) */

#define S(lit) fxt_cstr(lit)

static uint8_t out[1 << 16];
static size_t out_len;

/* Append one encoded record; fail the test on any error. */
#define ENC(call)                                                                                            \
    do {                                                                                                     \
        size_t sz_ = 0;                                                                                      \
        fxt_status st_ = (call);                                                                             \
        CHECK_EQ_I64(st_, FXT_OK);                                                                           \
        CHECK_EQ_U64(sz_ & 7, 0);                                                                            \
        out_len += sz_;                                                                                      \
    } while (0)
#define AT out + out_len, sizeof out - out_len, &sz_

/* Offsets of each record of the hand trace. */
static void bounds(const tbuf_t *b, uint64_t *start) {
    tlog_t l = {0};
    decode_log(b->p, b->len, NULL, NULL, &l);
    CHECK_EQ_U64(l.n, ALL_RECORDS);
    for (size_t i = 0; i < l.n && i < ALL_RECORDS; i++) {
        start[i] = l.v[i].offset;
    }
    start[ALL_RECORDS] = b->len;
    free(l.v);
}

static void test_encode_bytes_exact(void) {
    if (fxt_host_is_big_endian()) {
        return; /* the encoders write host order; the hand trace below is built little-endian */
    }
    tbuf_t hand = {0};
    build_all(&hand);
    uint64_t at[ALL_RECORDS + 1];
    bounds(&hand, at);

    fxt_str_t cat = fxt_sref(1), name = fxt_sref(2);
    fxt_thread_ref_t t1 = fxt_thread_index(1);
    out_len = 0;
    ENC(fxt_encode_magic(AT));
    ENC(fxt_encode_provider_info(AT, 7, S("prov")));
    ENC(fxt_encode_provider_section(AT, 7));
    ENC(fxt_encode_provider_event(AT, 7, FXT_PROVIDER_EVENT_BUFFER_FULL));
    ENC(fxt_encode_trace_info(AT, 1, 0));
    ENC(fxt_encode_init(AT, 1000000));
    ENC(fxt_encode_string(AT, 1, S("cat")));
    ENC(fxt_encode_string(AT, 2, S("name")));
    ENC(fxt_encode_thread(AT, 1, 0x10, 0x20));
    /* instant: every known argument type (not the hand trace's unknown type 10) + scope word */
    fxt_arg_t a[10] = {
        fxt_arg_null(S("n")),          fxt_arg_int32(name, -5),          fxt_arg_uint32(name, 0xdeadbeefu),
        fxt_arg_int64(name, -2),       fxt_arg_uint64(name, UINT64_MAX), fxt_arg_double(name, 1.5),
        fxt_arg_string(name, S("hi")), fxt_arg_pointer(name, 0x1234),    fxt_arg_koid(name, 0x99),
        fxt_arg_bool(name, 1)};
    uint64_t scope = FXT_SCOPE_GLOBAL;
    fxt_event_desc_t inst = {FXT_EVENT_INSTANT, 0x1000, t1, cat, name, 0, 0, a, 10, &scope, 1};
    ENC(fxt_encode_event(AT, &inst));
    fxt_arg_t c1[1] = {fxt_arg_int32(name, 5)};
    fxt_event_desc_t cnt = {
        FXT_EVENT_COUNTER, 0x1100, fxt_thread_inline(0x31, 0x32), S("c"), S("cnt"), 42, 0, c1, 1, NULL, 0};
    ENC(fxt_encode_event(AT, &cnt));
    fxt_event_desc_t ev = {FXT_EVENT_DURATION_BEGIN, 0x2000, t1, cat, name, 0, 0, NULL, 0, NULL, 0};
    ENC(fxt_encode_event(AT, &ev));
    ev.type = FXT_EVENT_DURATION_END;
    ev.ts = 0x2100;
    ENC(fxt_encode_event(AT, &ev));
    ev.type = FXT_EVENT_DURATION_COMPLETE;
    ev.ts = 0x3000;
    ev.end_ts = 0x3500;
    ENC(fxt_encode_event(AT, &ev));
    for (unsigned i = 0; i < 6; i++) {
        fxt_event_desc_t e = {
            FXT_EVENT_ASYNC_BEGIN + i, 0x4000 + i, t1, cat, name, i < 3 ? 0xa : 0xf, 0, NULL, 0, NULL, 0};
        ENC(fxt_encode_event(AT, &e));
    }
    ENC(fxt_encode_blob(AT, S("b"), FXT_BLOB_DATA, "hello", 5));
    fxt_arg_t one[1] = {fxt_arg_int32(name, 1)};
    ENC(fxt_encode_userspace_object(AT, 0xabc, fxt_thread_index(1), name, one, 1));
    ENC(fxt_encode_userspace_object(AT, 0xdef, fxt_thread_inline(0x77, 0), S("o"), NULL, 0));
    fxt_arg_t k[1] = {fxt_arg_koid(S("process"), 0x10)};
    ENC(fxt_encode_kernel_object(AT, 0x20, FXT_OBJ_THREAD, S("thr"), k, 1));
    ENC(fxt_encode_context_switch(AT, 0x5000, 3, FXT_THREAD_BLOCKED, 0x21, 0x22, c1, 1));
    ENC(fxt_encode_thread_wakeup(AT, 0x5100, 1, 0x23, NULL, 0));
    ENC(fxt_encode_legacy_context_switch(AT, 0x5200, 2, FXT_THREAD_SUSPENDED, t1,
                                         fxt_thread_inline(0x41, 0x42), 10, 20));
    ENC(fxt_encode_log(AT, 0x6000, t1, S("hello")));
    fxt_arg_t bl[1] = {fxt_arg_bool(name, 1)};
    fxt_large_blob_desc_t lb0 = {FXT_LARGE_BLOB_WITH_METADATA, cat, S("lb"), 0x7000, t1, bl, 1, "xyz", 3};
    ENC(fxt_encode_large_blob(AT, &lb0));
    fxt_large_blob_desc_t lb1 = {FXT_LARGE_BLOB_NO_METADATA, S(""), name, 0, t1, NULL, 0, "123456789", 9};
    ENC(fxt_encode_large_blob(AT, &lb1));

    /* expected: hand records 0..29, the instant (record 9) without its unknown argument */
    tbuf_t exp = {0};
    for (int i = 0; i <= 29; i++) {
        size_t from = at[i], to = at[i + 1];
        if (i == 9) {
            /* size 20@4 (22 - the 2-word unknown arg), 10 args@20, thread 1@24, cat 1@32, name 2@48 */
            tb_w(&exp, 0x0002000101a00144ull);
            tb_s(&exp, (const char *)hand.p + from + 8, 18 * 8); /* ts + 17 argument words */
            tb_w(&exp, 2);                                       /* scope word */
            continue;
        }
        tb_s(&exp, (const char *)hand.p + from, to - from);
    }
    CHECK_EQ_U64(out_len, exp.len);
    size_t diff = 0;
    while (diff < out_len && diff < exp.len && out[diff] == exp.p[diff]) {
        diff++;
    }
    if (diff != exp.len) {
        fprintf(stderr, "first difference at byte %zu\n", diff);
    }
    CHECK(out_len == exp.len && memcmp(out, exp.p, exp.len) == 0);
    tb_free(&exp);
    tb_free(&hand);
}

/* Every validation rule of the encoders: the status, and the buffer left untouched. */
static void test_encode_validation(void) {
    static uint8_t buf[40000], ref[40000];
    memset(buf, 0xaa, sizeof buf);
    memcpy(ref, buf, sizeof buf);
    size_t size = 1;
    fxt_arg_t many[16];
    for (int i = 0; i < 16; i++) {
        many[i] = fxt_arg_int32(fxt_sref(3), i);
    }
    fxt_event_desc_t ev = {
        FXT_EVENT_INSTANT, 1, fxt_thread_index(1), fxt_sref(1), fxt_sref(2), 0, 0, many, 16, NULL, 0};
    CHECK_EQ_I64(fxt_encode_event(buf, sizeof buf, &size, &ev), FXT_E_TOO_MANY_ARGS);
    ev.nargs = 15;
    CHECK_EQ_I64(fxt_encode_event(buf, 8, &size, &ev), FXT_E_BUFFER_FULL);
    CHECK_EQ_U64(size, (2 + 15) * 8); /* the size needed */
    ev.thread = fxt_thread_index(256);
    CHECK_EQ_I64(fxt_encode_event(buf, sizeof buf, &size, &ev), FXT_E_BAD_INDEX);
    ev.thread = fxt_thread_index(255);
    ev.type = FXT_EVENT_TYPE_COUNT;
    CHECK_EQ_I64(fxt_encode_event(buf, sizeof buf, &size, &ev), FXT_E_INVALID_ARG);
    ev.type = FXT_EVENT_INSTANT;
    many[3].type = FXT_ARG_TYPE_COUNT;
    CHECK_EQ_I64(fxt_encode_event(buf, sizeof buf, &size, &ev), FXT_E_BAD_ARG);
    many[3].type = FXT_ARG_INT32;
    /* 4 inline strings of 9000 bytes: 4500 words > 4095 */
    static char big[9000];
    memset(big, 'x', sizeof big);
    fxt_arg_t huge[4];
    for (int i = 0; i < 4; i++) {
        huge[i] = fxt_arg_string(fxt_sref(3), fxt_str_n(big, sizeof big));
    }
    ev.args = huge;
    ev.nargs = 4;
    CHECK_EQ_I64(fxt_encode_event(buf, sizeof buf, &size, &ev), FXT_E_RECORD_TOO_LARGE);
    ev.nargs = 3; /* 3381 words: fits */
    CHECK_EQ_I64(fxt_encode_event(buf, sizeof buf, &size, &ev), FXT_OK);
    CHECK_EQ_U64(size, (2 + 3 * (1 + 1125)) * 8);
    memcpy(ref, buf, sizeof buf);
    CHECK_EQ_I64(fxt_encode_string(buf, sizeof buf, &size, 0, S("x")), FXT_E_BAD_INDEX);
    CHECK_EQ_I64(fxt_encode_string(buf, sizeof buf, &size, 32768, S("x")), FXT_E_BAD_INDEX);
    CHECK_EQ_I64(fxt_encode_thread(buf, sizeof buf, &size, 0, 1, 2), FXT_E_BAD_INDEX);
    CHECK_EQ_I64(fxt_encode_thread(buf, sizeof buf, &size, 256, 1, 2), FXT_E_BAD_INDEX);
    char pname[256];
    memset(pname, 'p', sizeof pname);
    CHECK_EQ_I64(fxt_encode_provider_info(buf, sizeof buf, &size, 1, fxt_str_n(pname, 256)),
                 FXT_E_STRING_TOO_LONG);
    CHECK_EQ_I64(fxt_encode_blob(buf, sizeof buf, &size, fxt_sref(1), 1, big, 0x8000),
                 FXT_E_RECORD_TOO_LARGE);
    CHECK_EQ_I64(fxt_encode_log(buf, sizeof buf, &size, 1, fxt_thread_index(300), S("m")), FXT_E_BAD_INDEX);
    CHECK_EQ_I64(fxt_encode_init(buf, sizeof buf, &size, 0), FXT_E_INVALID_ARG);
    CHECK(memcmp(buf, ref, sizeof buf) == 0); /* nothing written by any refused call */
    /* a size query: no buffer */
    CHECK_EQ_I64(fxt_encode_thread(NULL, 0, &size, 5, 1, 2), FXT_E_BUFFER_FULL);
    CHECK_EQ_U64(size, 24);
    /* a large blob is not limited to 32760 bytes */
    static uint8_t payload[100000];
    static uint8_t lbuf[100100];
    fxt_large_blob_desc_t lb = {FXT_LARGE_BLOB_NO_METADATA,
                                fxt_sref(1),
                                fxt_sref(2),
                                0,
                                fxt_thread_index(0),
                                NULL,
                                0,
                                payload,
                                sizeof payload};
    CHECK_EQ_I64(fxt_encode_large_blob(lbuf, sizeof lbuf, &size, &lb), FXT_OK);
    CHECK_EQ_U64(size, 8 * (3 + 12500));
    CHECK_EQ_U64(fxt_get_large_size(fxt_load64(lbuf)), 3 + 12500);
}

/* Explicit refs through a writer: the caller registers indexes above max_strings. */
static void check_refs_roundtrip(int be) {
    fxt_membuf_t mem = {0};
    fxt_writer_t *w;
    fxt_writer_options_t opt = {sizeof opt, be ? FXT_WRITE_BIG_ENDIAN : 0, 0, 1000, 100};
    CHECK(fxt_writer_create(&opt, fxt_sink_membuf(&mem), &w) == FXT_OK);
    CHECK_EQ_I64(fxt_write_magic(w), FXT_OK);
    CHECK_EQ_I64(fxt_write_string_record(w, 20000, S("ecat")), FXT_OK);
    CHECK_EQ_I64(fxt_write_string_record(w, 20001, S("ename")), FXT_OK);
    CHECK_EQ_I64(fxt_write_thread_record(w, 200, 5, 6), FXT_OK);
    fxt_arg_t a[2] = {fxt_arg_int32(fxt_sref(20001), -7), fxt_arg_string(S("inl"), fxt_sref(20000))};
    for (uint64_t i = 0; i < 5000; i++) {
        fxt_event_desc_t ev = {FXT_EVENT_ASYNC_BEGIN,
                               100 + i,
                               fxt_thread_index(200),
                               fxt_sref(20000),
                               fxt_sref(20001),
                               i,
                               0,
                               a,
                               2,
                               NULL,
                               0};
        CHECK_EQ_I64(fxt_write_event_refs(w, &ev), FXT_OK);
        /* interning keeps working next to them */
        CHECK_EQ_I64(fxt_write_instant(w, 100 + i, fxt_thread(5, 7), S("icat"), S("iname"), NULL, 0), FXT_OK);
    }
    /* reserve + encode + commit of another record type (host-order writers only) */
    void *p;
    size_t size;
    CHECK_EQ_I64(fxt_writer_reserve(w, 64, &p), FXT_OK);
    CHECK_EQ_I64(fxt_encode_log(p, 64, &size, 9, fxt_thread_index(200), S("hello log")), FXT_OK);
    if (be != fxt_host_is_big_endian()) {
        CHECK_EQ_I64(fxt_writer_commit(w, size), FXT_E_UNSUPPORTED);
        CHECK_EQ_I64(fxt_write_log(w, 9, fxt_thread(5, 6), S("hello log")), FXT_OK);
    } else {
        CHECK_EQ_I64(fxt_writer_commit(w, size), FXT_OK);
        /* a commit that is not whole records is refused */
        CHECK_EQ_I64(fxt_writer_reserve(w, 16, &p), FXT_OK);
        fxt_store64(p, fxt_put_rec_type(FXT_RECORD_LOG) | fxt_put_rec_size(3));
        CHECK_EQ_I64(fxt_writer_commit(w, 16), FXT_E_BAD_RECORD_SIZE);
    }
    CHECK_EQ_I64(fxt_writer_finish(w), FXT_OK);

    fxt_reader_t *r;
    fxt_reader_create(NULL, &r);
    fxt_in_buffer_t in = {mem.data, mem.len, 0};
    fxt_record_t rec;
    unsigned async = 0, inst = 0, logs = 0, bad = 0;
    fxt_status st;
    while ((st = fxt_reader_next(r, &in, &rec)) == FXT_OK) {
        if (rec.kind == FXT_KIND_EVENT && rec.u.event.type == FXT_EVENT_ASYNC_BEGIN) {
            int ok = rec.u.event.id == async && rec.u.event.ts == 100 + async &&
                     rec.u.event.thread.ref == 200 && rec.u.event.thread.tid == 6 && rec.nargs == 2 &&
                     rec.args[0].v.i32 == -7;
            CHECK_MEM_STR(rec.u.event.category.ptr, rec.u.event.category.len, "ecat");
            CHECK_MEM_STR(rec.u.event.name.ptr, rec.u.event.name.len, "ename");
            CHECK_MEM_STR(rec.args[0].name.ptr, rec.args[0].name.len, "ename");
            CHECK_MEM_STR(rec.args[1].name.ptr, rec.args[1].name.len, "inl");
            CHECK_MEM_STR(rec.args[1].str.ptr, rec.args[1].str.len, "ecat");
            bad += !ok;
            async++;
        } else if (rec.kind == FXT_KIND_EVENT) {
            CHECK_MEM_STR(rec.u.event.name.ptr, rec.u.event.name.len, "iname");
            bad += rec.u.event.thread.tid != 7;
            inst++;
        } else if (rec.kind == FXT_KIND_LOG) {
            CHECK_MEM_STR(rec.u.log.message.ptr, rec.u.log.message.len, "hello log");
            bad += rec.u.log.thread.tid != 6;
            logs++;
        }
    }
    CHECK_EQ_I64(st, FXT_NEED_INPUT);
    CHECK_EQ_I64(fxt_reader_finish(r), FXT_OK);
    CHECK_EQ_U64(async, 5000);
    CHECK_EQ_U64(inst, 5000);
    CHECK_EQ_U64(logs, 1);
    CHECK_EQ_U64(bad, 0);
    fxt_reader_destroy(r);
    fxt_writer_destroy(w);
    fxt_membuf_free(&mem);
}

static void test_refs_roundtrip_le(void) { check_refs_roundtrip(0); }
static void test_refs_roundtrip_be(void) { check_refs_roundtrip(1); }

/* ---- property test: random sequences of mixed record kinds -------------------------------- */

typedef struct prng {
    uint64_t s;
} prng_t;

static uint64_t prnd(prng_t *g) {
    g->s ^= g->s << 13;
    g->s ^= g->s >> 7;
    g->s ^= g->s << 17;
    return g->s;
}

#define NREC 4000

typedef struct prec {
    int kind;
    uint64_t a, b, c;
    unsigned small;
    char s1[48], s2[48];
    size_t l1, l2;
    fxt_arg_t args[3];
    char an[3][16];
} prec_t;

static fxt_str_t pstr(prng_t *g, char *buf, size_t *len) {
    *len = 1 + prnd(g) % 40;
    for (size_t i = 0; i < *len; i++) {
        buf[i] = (char)('a' + prnd(g) % 3); /* few distinct strings: lots of reuse and recycling */
    }
    if (*len > 3) {
        *len = 3;
    }
    fxt_str_t v = fxt_str_n(buf, *len);
    return prnd(g) % 5 == 0 ? fxt_str_inline(v) : v;
}

static int args_ok(const fxt_record_t *rec, const prec_t *e, unsigned n) {
    if (rec->nargs != n) {
        return 0;
    }
    for (unsigned i = 0; i < n; i++) {
        if (rec->args[i].type != FXT_ARG_UINT64 || rec->args[i].v.u64 != e->args[i].v.u64 ||
            rec->args[i].name.len != e->args[i].name.len ||
            memcmp(rec->args[i].name.ptr, e->args[i].name.ptr, e->args[i].name.len) != 0) {
            return 0;
        }
    }
    return 1;
}

/* Random records of 8 kinds (tiny tables force recycling); each decodes to what was written. */
static void test_property_mixed(void) {
    static prec_t ex[NREC];
    prng_t g = {0x9e3779b97f4a7c15ull};
    fxt_membuf_t mem = {0};
    fxt_writer_t *w;
    fxt_writer_options_t opt = {sizeof opt, 0, 0, 5, 2};
    CHECK(fxt_writer_create(&opt, fxt_sink_membuf(&mem), &w) == FXT_OK);
    for (int i = 0; i < NREC; i++) {
        prec_t *e = &ex[i];
        e->kind = (int)(prnd(&g) % 8);
        e->a = prnd(&g);
        e->b = prnd(&g) % 6;
        e->c = 1 + prnd(&g) % 5;
        e->small = (unsigned)(prnd(&g) % 4);
        fxt_str_t s1 = pstr(&g, e->s1, &e->l1), s2 = pstr(&g, e->s2, &e->l2);
        for (unsigned k = 0; k < e->small && k < 3; k++) {
            size_t l;
            e->args[k] = fxt_arg_uint64(pstr(&g, e->an[k], &l), prnd(&g));
        }
        unsigned na = e->small < 3 ? e->small : 3;
        fxt_thread_ref_t t = fxt_thread(e->c, e->c * 10 + e->b);
        fxt_status st = FXT_OK;
        switch (e->kind) {
        case 0:
            st = fxt_write_instant(w, e->a, t, s1, s2, e->args, na);
            break;
        case 1:
            st = fxt_write_log(w, e->a, t, s1);
            break;
        case 2:
            st = fxt_write_kernel_object(w, e->a, (uint32_t)e->b, s1, e->args, na);
            break;
        case 3:
            st = fxt_write_blob(w, s1, 1, e->s2, e->l2);
            break;
        case 4:
            st = fxt_write_context_switch(w, e->a, (uint32_t)e->b, 3, e->c, e->c + 1, e->args, na);
            break;
        case 5:
            st = fxt_write_thread_wakeup(w, e->a, (uint32_t)e->b, e->c, e->args, na);
            break;
        case 6:
            st = fxt_write_legacy_context_switch(w, e->a, (uint32_t)e->b, 2, t, fxt_thread(e->c, 99), 1, 2);
            break;
        default: {
            fxt_large_blob_desc_t lb = {0, s1, s2, e->a, t, e->args, na, e->s1, e->l1};
            st = fxt_write_large_blob(w, &lb);
            break;
        }
        }
        CHECK_EQ_I64(st, FXT_OK);
    }
    CHECK_EQ_I64(fxt_writer_finish(w), FXT_OK);

    fxt_reader_t *r;
    fxt_reader_create(NULL, &r);
    fxt_in_buffer_t in = {mem.data, mem.len, 0};
    fxt_record_t rec;
    int bad = 0, i = 0;
    fxt_status st;
    static const fxt_record_kind kinds[8] = {
        FXT_KIND_EVENT,          FXT_KIND_LOG,           FXT_KIND_KERNEL_OBJECT,         FXT_KIND_BLOB,
        FXT_KIND_CONTEXT_SWITCH, FXT_KIND_THREAD_WAKEUP, FXT_KIND_LEGACY_CONTEXT_SWITCH, FXT_KIND_LARGE_BLOB};
#define SEQ(v, p, n) ((v).ptr != NULL && (v).len == (n) && memcmp((v).ptr, (p), (n)) == 0)
    while ((st = fxt_reader_next(r, &in, &rec)) == FXT_OK) {
        if (rec.kind == FXT_KIND_STRING || rec.kind == FXT_KIND_THREAD) {
            continue;
        }
        if (i >= NREC) {
            bad++;
            break;
        }
        const prec_t *e = &ex[i++];
        unsigned na = e->small < 3 ? e->small : 3;
        int ok = rec.kind == kinds[e->kind];
        if (ok) {
            switch (e->kind) {
            case 0:
                ok = rec.u.event.ts == e->a && rec.u.event.thread.pid == e->c &&
                     rec.u.event.thread.tid == e->c * 10 + e->b && SEQ(rec.u.event.category, e->s1, e->l1) &&
                     SEQ(rec.u.event.name, e->s2, e->l2) && args_ok(&rec, e, na);
                break;
            case 1:
                ok = rec.u.log.ts == e->a && rec.u.log.thread.tid == e->c * 10 + e->b &&
                     SEQ(rec.u.log.message, e->s1, e->l1);
                break;
            case 2:
                ok = rec.u.kernel_object.koid == e->a && rec.u.kernel_object.obj_type == e->b &&
                     SEQ(rec.u.kernel_object.name, e->s1, e->l1) && args_ok(&rec, e, na);
                break;
            case 3:
                ok = SEQ(rec.u.blob.name, e->s1, e->l1) && rec.u.blob.size == e->l2 &&
                     memcmp(rec.u.blob.payload, e->s2, e->l2) == 0;
                break;
            case 4:
                ok = rec.u.context_switch.ts == e->a && rec.u.context_switch.cpu == e->b &&
                     rec.u.context_switch.out_tid == e->c && rec.u.context_switch.in_tid == e->c + 1 &&
                     args_ok(&rec, e, na);
                break;
            case 5:
                ok =
                    rec.u.thread_wakeup.ts == e->a && rec.u.thread_wakeup.tid == e->c && args_ok(&rec, e, na);
                break;
            case 6:
                ok = rec.u.legacy_context_switch.ts == e->a &&
                     rec.u.legacy_context_switch.out.tid == e->c * 10 + e->b &&
                     rec.u.legacy_context_switch.in.pid == e->c && rec.u.legacy_context_switch.in.tid == 99;
                break;
            default:
                ok = rec.u.large_blob.ts == e->a && SEQ(rec.u.large_blob.category, e->s1, e->l1) &&
                     SEQ(rec.u.large_blob.name, e->s2, e->l2) && rec.u.large_blob.size == e->l1 &&
                     memcmp(rec.u.large_blob.payload, e->s1, e->l1) == 0 && args_ok(&rec, e, na) &&
                     rec.u.large_blob.thread.tid == e->c * 10 + e->b;
                break;
            }
        }
        if (!ok && bad++ < 3) {
            fprintf(stderr, "record %d (kind %d) differs\n", i - 1, e->kind);
        }
    }
#undef SEQ
    CHECK_EQ_I64(st, FXT_NEED_INPUT);
    CHECK_EQ_U64(i, NREC);
    CHECK_EQ_U64(bad, 0);
    fxt_reader_destroy(r);
    fxt_writer_destroy(w);
    fxt_membuf_free(&mem);
}

/* The public fxt_event_header() and the encoding core build the same event header word. */
static void test_public_event_header_matches_core(void) {
    for (uint32_t type = 0; type < FXT_EVENT_TYPE_COUNT; type++) {
        for (unsigned nargs = 0; nargs <= FXT_MAX_ARGS; nargs += 5) {
            CHECK_EQ_U64(fxt_event_header(type, nargs, 7, 0x8123, 0x7fff, 4095),
                         fxt__hdr_event(type, nargs, 7, 0x8123, 0x7fff, 4095));
        }
    }
    /* and the predicates agree with the spec's lists */
    CHECK(fxt_event_has_id(FXT_EVENT_COUNTER) && fxt_event_has_id(FXT_EVENT_FLOW_END));
    CHECK(!fxt_event_has_id(FXT_EVENT_INSTANT) && !fxt_event_has_id(FXT_EVENT_DURATION_COMPLETE));
    CHECK(fxt_event_has_end_ts(FXT_EVENT_DURATION_COMPLETE) && !fxt_event_has_end_ts(FXT_EVENT_ASYNC_END));
    CHECK(fxt_arg_has_value_word(FXT_ARG_DOUBLE) && fxt_arg_has_value_word(FXT_ARG_KOID));
    CHECK(!fxt_arg_has_value_word(FXT_ARG_INT32) && !fxt_arg_has_value_word(FXT_ARG_STRING) &&
          !fxt_arg_has_value_word(FXT_ARG_BOOL) && !fxt_arg_has_value_word(99));
    CHECK_EQ_U64(FXT_MAX_CPU, 0xffff);
    CHECK_EQ_U64(FXT_MAX_BLOB_SIZE, 0x7fff);
    CHECK_EQ_U64(FXT_MAX_TRACE_INFO_TYPE, 15);
}

/* The trace engine's two-step argument encoding (header once, value per event) writes
 * the same words as the one-step fxt__put_arg, for every non-string type, both orders. */
static void test_fixed_arg_matches_put_arg(void) {
    static const struct {
        uint8_t type;
        uint64_t bits;
    } cases[] = {{FXT_ARG_NULL, 0},
                 {FXT_ARG_INT32, 0xfffffff9u},
                 {FXT_ARG_UINT32, 7},
                 {FXT_ARG_INT64, (uint64_t)-5},
                 {FXT_ARG_UINT64, 0x8000000000000001ull},
                 {FXT_ARG_DOUBLE, 0xc002000000000000ull},
                 {FXT_ARG_POINTER, 0xdeadbeef},
                 {FXT_ARG_KOID, 42},
                 {FXT_ARG_BOOL, 1}};
    for (int swap = 0; swap < 2; swap++) {
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            fxt_arg_t a;
            memset(&a, 0, sizeof a);
            a.type = cases[i].type;
            if (a.type == FXT_ARG_INT32 || a.type == FXT_ARG_UINT32) {
                a.v.u32 = (uint32_t)cases[i].bits;
            } else if (a.type == FXT_ARG_BOOL) {
                a.v.boolean = (int)cases[i].bits;
            } else if (a.type == FXT_ARG_DOUBLE) {
                memcpy(&a.v.f64, &cases[i].bits, sizeof a.v.f64);
            } else {
                a.v.u64 = cases[i].bits;
            }
            fxt__estr_t nm = fxt__estr_index(0x123), sv = fxt__estr_index(0);
            uint8_t one[16] = {0}, two[16] = {0};
            size_t n1 = (size_t)(fxt__put_arg(one, swap, &a, &nm, &sv) - one);
            size_t n2 = (size_t)(fxt__put_arg_fixed(two, swap, fxt__arg_hdr_fixed(a.type, 0x123), a.type,
                                                    cases[i].bits) -
                                 two);
            CHECK_EQ_U64(n1, n2);
            CHECK(memcmp(one, two, sizeof one) == 0);
        }
    }
}

int main(int argc, char **argv) {
    TEST_INIT(argc, argv);
    RUN(test_fixed_arg_matches_put_arg);
    RUN(test_encode_bytes_exact);
    RUN(test_encode_validation);
    RUN(test_refs_roundtrip_le);
    RUN(test_refs_roundtrip_be);
    RUN(test_property_mixed);
    RUN(test_public_event_header_matches_core);
    return TEST_EXIT();
}
