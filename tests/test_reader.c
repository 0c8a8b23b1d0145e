/* SPDX-License-Identifier: MIT */
/*
 * Reader tests against the spec: hand-computed words for every record kind
 * and argument type in both byte orders, the dump contract's state rules,
 * damaged input, truncation at every byte, arbitrary chunking, and the
 * foreign sample traces.
 *
 * Header words are written as hex literals; each comment gives the fields
 * (value@bit) they were computed from, following the spec's bit layouts.
 */
#include "reader_util.h"
#include "test.h"

#include <fxt/reader.h>
#include <fxt/writer.h> /* fxt_arg_*() to build arguments */

#include <math.h>
#include <sys/stat.h>

#include "hand_trace.h"

static int next_ok(fxt_reader_t *r, fxt_in_buffer_t *in, fxt_record_t *rec) {
    fxt_status st = fxt_reader_next(r, in, rec);
    if (st != FXT_OK) {
        fprintf(stderr, "unexpected status %s at %llu: %s\n", fxt_status_name(st),
                (unsigned long long)fxt_reader_diag(r)->offset, fxt_reader_diag(r)->msg);
    }
    return st == FXT_OK;
}

static void check_all(int be) {
    tbuf_t b = {0};
    b.be = be;
    build_all(&b);
    fxt_reader_t *r;
    CHECK(fxt_reader_create(NULL, &r) == FXT_OK);
    fxt_in_buffer_t in = {b.p, b.len, 0};
    fxt_record_t rec;

    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_MAGIC);
    CHECK_EQ_U64(rec.offset, 0);
    CHECK_EQ_U64(rec.has_provider, 0);
    CHECK_EQ_U64(fxt_reader_swapped(r), (unsigned)be != (unsigned)fxt_host_is_big_endian());

    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_PROVIDER_INFO);
    CHECK_EQ_U64(rec.offset, 8);
    CHECK_EQ_U64(rec.u.provider_info.id, 7);
    CHECK_STR(rec.u.provider_info.name, "prov");
    CHECK(rec.has_provider && rec.provider == 7);

    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_PROVIDER_SECTION);
    CHECK_EQ_U64(rec.u.provider_section.id, 7);
    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_PROVIDER_EVENT);
    CHECK_EQ_U64(rec.u.provider_event.id, 7);
    CHECK_EQ_U64(rec.u.provider_event.event, 0);
    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_TRACE_INFO);
    CHECK_EQ_U64(rec.u.trace_info.info_type, 1);
    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_INIT);
    CHECK_EQ_U64(rec.u.init.ticks_per_second, 1000000);
    CHECK_EQ_U64(fxt_reader_ticks_per_second(r), 1000000);
    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_STRING);
    CHECK_EQ_U64(rec.u.string.index, 1);
    CHECK_STR(rec.u.string.value, "cat");
    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_STRING);
    CHECK_STR(rec.u.string.value, "name");
    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_THREAD);
    CHECK_EQ_U64(rec.u.thread.index, 1);
    CHECK_EQ_U64(rec.u.thread.pid, 0x10);
    CHECK_EQ_U64(rec.u.thread.tid, 0x20);

    /* instant with every argument type */
    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_EVENT);
    CHECK_EQ_U64(rec.u.event.type, FXT_EVENT_INSTANT);
    CHECK_EQ_U64(rec.u.event.ts, 0x1000);
    CHECK(rec.u.event.thread.resolved && rec.u.event.thread.ref == 1);
    CHECK_EQ_U64(rec.u.event.thread.pid, 0x10);
    CHECK_EQ_U64(rec.u.event.thread.tid, 0x20);
    CHECK_STR(rec.u.event.category, "cat");
    CHECK_STR(rec.u.event.name, "name");
    CHECK_EQ_U64(rec.nargs, 11);
    CHECK(rec.args[0].type == FXT_ARG_NULL);
    CHECK_STR(rec.args[0].name, "n");
    CHECK(rec.args[1].type == FXT_ARG_INT32 && rec.args[1].v.i32 == -5);
    CHECK_STR(rec.args[1].name, "name");
    CHECK(rec.args[2].type == FXT_ARG_UINT32 && rec.args[2].v.u32 == 0xdeadbeefu);
    CHECK(rec.args[3].type == FXT_ARG_INT64 && rec.args[3].v.i64 == -2);
    CHECK(rec.args[4].type == FXT_ARG_UINT64 && rec.args[4].v.u64 == UINT64_MAX);
    CHECK(rec.args[5].type == FXT_ARG_DOUBLE && rec.args[5].v.f64 == 1.5);
    CHECK(rec.args[6].type == FXT_ARG_STRING);
    CHECK_STR(rec.args[6].str, "hi");
    CHECK(rec.args[7].type == FXT_ARG_POINTER && rec.args[7].v.pointer == 0x1234);
    CHECK(rec.args[8].type == FXT_ARG_KOID && rec.args[8].v.koid == 0x99);
    CHECK(rec.args[9].type == FXT_ARG_BOOL && rec.args[9].v.boolean == 1);
    CHECK(rec.args[10].type == 10 && rec.args[10].size_words == 2);
    CHECK_STR(rec.args[10].name, "name");
    CHECK_EQ_U64(rec.u.event.extra_words, 1);
    CHECK(rec.u.event.extra && fxt_record_word(&rec, rec.u.event.extra, 0) == FXT_SCOPE_GLOBAL);

    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_EVENT);
    CHECK_EQ_U64(rec.u.event.type, FXT_EVENT_COUNTER);
    CHECK(rec.u.event.thread.ref == 0 && rec.u.event.thread.resolved);
    CHECK_EQ_U64(rec.u.event.thread.pid, 0x31);
    CHECK_EQ_U64(rec.u.event.thread.tid, 0x32);
    CHECK_STR(rec.u.event.category, "c");
    CHECK_STR(rec.u.event.name, "cnt");
    CHECK(rec.nargs == 1 && rec.args[0].v.i32 == 5);
    CHECK_EQ_U64(rec.u.event.id, 42);
    CHECK_EQ_U64(rec.u.event.extra_words, 0);

    CHECK(next_ok(r, &in, &rec) && rec.u.event.type == FXT_EVENT_DURATION_BEGIN);
    CHECK_EQ_U64(rec.u.event.ts, 0x2000);
    CHECK(next_ok(r, &in, &rec) && rec.u.event.type == FXT_EVENT_DURATION_END);
    CHECK_EQ_U64(rec.u.event.ts, 0x2100);
    CHECK(next_ok(r, &in, &rec) && rec.u.event.type == FXT_EVENT_DURATION_COMPLETE);
    CHECK_EQ_U64(rec.u.event.ts, 0x3000);
    CHECK_EQ_U64(rec.u.event.end_ts, 0x3500);
    for (unsigned i = 0; i < 6; i++) {
        CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_EVENT);
        CHECK_EQ_U64(rec.u.event.type, FXT_EVENT_ASYNC_BEGIN + i);
        CHECK_EQ_U64(rec.u.event.ts, 0x4000 + i);
        CHECK_EQ_U64(rec.u.event.id, i < 3 ? 0xa : 0xf);
        CHECK_STR(rec.u.event.name, "name");
    }

    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_BLOB);
    CHECK_STR(rec.u.blob.name, "b");
    CHECK_EQ_U64(rec.u.blob.blob_type, FXT_BLOB_DATA);
    CHECK_MEM_STR(rec.u.blob.payload, rec.u.blob.size, "hello");

    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_USERSPACE_OBJECT);
    CHECK_EQ_U64(rec.u.userspace_object.ptr, 0xabc);
    CHECK(rec.u.userspace_object.process.resolved);
    CHECK_EQ_U64(rec.u.userspace_object.process.pid, 0x10);
    CHECK_STR(rec.u.userspace_object.name, "name");
    CHECK(rec.nargs == 1 && rec.args[0].v.i32 == 1);
    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_USERSPACE_OBJECT);
    CHECK_EQ_U64(rec.u.userspace_object.ptr, 0xdef);
    CHECK_EQ_U64(rec.u.userspace_object.process.pid, 0x77);
    CHECK_STR(rec.u.userspace_object.name, "o");
    fxt_userspace_object_info_t uo;
    CHECK(fxt_reader_userspace_object(r, 0x77, 0xdef, &uo) == FXT_OK);
    CHECK_STR(uo.name, "o");
    CHECK(fxt_reader_userspace_object(r, 0x10, 0xabc, &uo) == FXT_OK);
    CHECK_STR(uo.name, "name");
    CHECK(fxt_reader_userspace_object(r, 0x10, 0xdef, &uo) == FXT_E_NOT_FOUND);

    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_KERNEL_OBJECT);
    CHECK_EQ_U64(rec.u.kernel_object.koid, 0x20);
    CHECK_EQ_U64(rec.u.kernel_object.obj_type, FXT_OBJ_THREAD);
    CHECK_STR(rec.u.kernel_object.name, "thr");
    CHECK(rec.nargs == 1 && rec.args[0].type == FXT_ARG_KOID && rec.args[0].v.koid == 0x10);
    CHECK_STR(rec.args[0].name, "process");
    fxt_kernel_object_info_t ko;
    CHECK(fxt_reader_kernel_object(r, 0x20, &ko) == FXT_OK);
    CHECK_STR(ko.name, "thr");
    CHECK(ko.has_process && ko.process_koid == 0x10 && ko.obj_type == FXT_OBJ_THREAD);
    CHECK(fxt_reader_kernel_object(r, 0x21, &ko) == FXT_E_NOT_FOUND);

    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_CONTEXT_SWITCH);
    CHECK_EQ_U64(rec.u.context_switch.ts, 0x5000);
    CHECK_EQ_U64(rec.u.context_switch.cpu, 3);
    CHECK_EQ_U64(rec.u.context_switch.out_state, FXT_THREAD_BLOCKED);
    CHECK_EQ_U64(rec.u.context_switch.out_tid, 0x21);
    CHECK_EQ_U64(rec.u.context_switch.in_tid, 0x22);
    CHECK(rec.nargs == 1 && rec.args[0].v.i32 == 5);
    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_THREAD_WAKEUP);
    CHECK_EQ_U64(rec.u.thread_wakeup.ts, 0x5100);
    CHECK_EQ_U64(rec.u.thread_wakeup.cpu, 1);
    CHECK_EQ_U64(rec.u.thread_wakeup.tid, 0x23);
    CHECK_EQ_U64(rec.nargs, 0);
    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_LEGACY_CONTEXT_SWITCH);
    CHECK_EQ_U64(rec.u.legacy_context_switch.ts, 0x5200);
    CHECK_EQ_U64(rec.u.legacy_context_switch.cpu, 2);
    CHECK_EQ_U64(rec.u.legacy_context_switch.out_state, FXT_THREAD_SUSPENDED);
    CHECK_EQ_U64(rec.u.legacy_context_switch.out.pid, 0x10);
    CHECK_EQ_U64(rec.u.legacy_context_switch.out.tid, 0x20);
    CHECK_EQ_U64(rec.u.legacy_context_switch.in.pid, 0x41);
    CHECK_EQ_U64(rec.u.legacy_context_switch.in.tid, 0x42);
    CHECK_EQ_U64(rec.u.legacy_context_switch.out_prio, 10);
    CHECK_EQ_U64(rec.u.legacy_context_switch.in_prio, 20);
    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_LOG);
    CHECK_EQ_U64(rec.u.log.ts, 0x6000);
    CHECK_EQ_U64(rec.u.log.thread.tid, 0x20);
    CHECK_STR(rec.u.log.message, "hello");

    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_LARGE_BLOB);
    CHECK_EQ_U64(rec.u.large_blob.format, 0);
    CHECK_STR(rec.u.large_blob.category, "cat");
    CHECK_STR(rec.u.large_blob.name, "lb");
    CHECK_EQ_U64(rec.u.large_blob.ts, 0x7000);
    CHECK_EQ_U64(rec.u.large_blob.thread.tid, 0x20);
    CHECK(rec.nargs == 1 && rec.args[0].type == FXT_ARG_BOOL && rec.args[0].v.boolean);
    CHECK_MEM_STR(rec.u.large_blob.payload, rec.u.large_blob.size, "xyz");
    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_LARGE_BLOB);
    CHECK_EQ_U64(rec.u.large_blob.format, 1);
    CHECK_STR(rec.u.large_blob.category, "");
    CHECK_STR(rec.u.large_blob.name, "name");
    CHECK_MEM_STR(rec.u.large_blob.payload, rec.u.large_blob.size, "123456789");

    static const struct {
        int type, has_sub;
        unsigned sub;
        unsigned words;
    } unk[6] = {{10, 0, 0, 2}, {4, 1, 11, 2}, {8, 1, 3, 1}, {0, 1, 5, 1}, {15, 1, 1, 1}, {15, 1, 2, 1}};
    for (int i = 0; i < 6; i++) {
        CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_UNKNOWN);
        CHECK_EQ_U64(rec.u.unknown.type, unk[i].type);
        CHECK_EQ_U64(rec.u.unknown.has_subtype, unk[i].has_sub);
        CHECK_EQ_U64(rec.u.unknown.subtype, unk[i].sub);
        CHECK_EQ_U64(rec.u.unknown.size_words, unk[i].words);
    }
    CHECK(fxt_reader_next(r, &in, &rec) == FXT_NEED_INPUT);
    CHECK(fxt_reader_finish(r) == FXT_OK);
    CHECK_EQ_U64(fxt_reader_offset(r), b.len);
    fxt_reader_destroy(r);
    tb_free(&b);
}

static void test_all_records_le(void) { check_all(0); }
static void test_all_records_be(void) { check_all(1); }

/* Same record count in both byte orders, and the BE trace starts with the swapped magic bytes. */
static void test_be_magic_bytes(void) {
    tbuf_t b = {0};
    b.be = 1;
    build_all(&b);
    static const uint8_t want[8] = {0x00, 0x16, 0x54, 0x78, 0x46, 0x04, 0x00, 0x10};
    CHECK(memcmp(b.p, want, 8) == 0);
    tlog_t l = {0};
    decode_log(b.p, b.len, NULL, NULL, &l);
    CHECK_EQ_U64(l.n, ALL_RECORDS);
    free(l.v);
    tb_free(&b);
}

/* ---- the contract's state rules -------------------------------------------------------------- */

static fxt_reader_t *open_buf(const tbuf_t *b, fxt_in_buffer_t *in) {
    fxt_reader_t *r = NULL;
    fxt_reader_create(NULL, &r);
    in->src = b->p;
    in->size = b->len;
    in->pos = 0;
    return r;
}

/* an instant event: size 2, thread ref tr, category ref cat, name ref name */
static uint64_t instant(unsigned tr, unsigned cat, unsigned name) {
    return 0x4u | (2u << 4) | ((uint64_t)tr << 24) | ((uint64_t)cat << 32) | ((uint64_t)name << 48);
}

/* an instant event with an inline thread: size 4 (header, ts, pid, tid) */
static uint64_t instant_inline(unsigned cat, unsigned name) {
    return (instant(0, cat, name) & ~(uint64_t)0xfff0) | (4u << 4);
}

static void test_index0_and_replace(void) {
    tbuf_t b = {0};
    tb_w(&b, 0x0000000300000022ull); /* string index 0 "abc": delivered, registers nothing */
    TB_S(&b, "abc");
    tb_w(&b, 0x0000000000000033ull); /* thread index 0 */
    tb_w(&b, 1);
    tb_w(&b, 2);
    tb_w(&b, 0x0000000300050022ull); /* string 5 = "one" */
    TB_S(&b, "one");
    tb_w(&b, 0x0000000300050022ull); /* string 5 = "two": replaces */
    TB_S(&b, "two");
    tb_w(&b, 0x0000000000090033ull); /* thread 9 = (3,4) */
    tb_w(&b, 3);
    tb_w(&b, 4);
    tb_w(&b, 0x0000000000090033ull); /* thread 9 = (5,6) */
    tb_w(&b, 5);
    tb_w(&b, 6);
    tb_w(&b, instant(9, 5, 0));
    tb_w(&b, 1);
    tb_w(&b, instant(8, 6, 5)); /* unregistered thread 8 and string 6 */
    tb_w(&b, 2);
    fxt_in_buffer_t in;
    fxt_reader_t *r = open_buf(&b, &in);
    fxt_record_t rec;
    fxt_str_t s;
    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_STRING && rec.u.string.index == 0);
    CHECK_STR(rec.u.string.value, "abc");
    CHECK(fxt_reader_string(r, 0, &s) == FXT_OK && s.len == 0);
    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_THREAD && rec.u.thread.index == 0);
    fxt_thread_ref_t t;
    CHECK(fxt_reader_thread(r, 0, &t) == FXT_E_NOT_FOUND);
    CHECK(next_ok(r, &in, &rec));
    CHECK(next_ok(r, &in, &rec));
    CHECK(fxt_reader_string(r, 5, &s) == FXT_OK);
    CHECK_STR(s, "two");
    CHECK(next_ok(r, &in, &rec));
    CHECK(next_ok(r, &in, &rec));
    CHECK(fxt_reader_thread(r, 9, &t) == FXT_OK && t.pid == 5 && t.tid == 6);
    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_EVENT);
    CHECK_STR(rec.u.event.category, "two");
    CHECK(!rec.u.event.name.unresolved && rec.u.event.name.len == 0); /* ref 0 = "" */
    CHECK(rec.u.event.thread.resolved && rec.u.event.thread.pid == 5 && rec.u.event.thread.tid == 6);
    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_EVENT);
    CHECK(rec.u.event.category.unresolved &&
          rec.u.event.category.len == 0); /* unregistered: null, record still delivered */
    CHECK_STR(rec.u.event.name, "two");
    CHECK(!rec.u.event.thread.resolved && rec.u.event.thread.pid == 0);
    CHECK(fxt_reader_next(r, &in, &rec) == FXT_NEED_INPUT && fxt_reader_finish(r) == FXT_OK);
    fxt_reader_destroy(r);
    tb_free(&b);
}

static void test_provider_contexts(void) {
    tbuf_t b = {0};
    tb_w(&b, 0x0000000300010022ull); /* no provider yet: string 1 = "pre" */
    TB_S(&b, "pre");
    tb_w(&b, 0x0010000000110020ull); /* provider info id 1 "A" (len 1@52, id 1@20, size 2) */
    TB_S(&b, "A");
    tb_w(&b, 0x0000000300010022ull); /* string 1 = "aaa" */
    TB_S(&b, "aaa");
    tb_w(&b, 0x0000000000000021ull); /* init 1000 ticks/s */
    tb_w(&b, 1000);
    tb_w(&b, 0x0010000000210020ull); /* provider info id 2 "B" */
    TB_S(&b, "B");
    tb_w(&b, 0x0000000300010022ull); /* string 1 = "bbb" */
    TB_S(&b, "bbb");
    tb_w(&b, 0x0000000000120010ull); /* provider section id 1 */
    tb_w(&b, instant_inline(1, 0));
    tb_w(&b, 5);
    tb_w(&b, 1);
    tb_w(&b, 2);
    tb_w(&b, 0x0000000000220010ull); /* provider section id 2 */
    tb_w(&b, instant_inline(1, 0));
    tb_w(&b, 5);
    tb_w(&b, 1);
    tb_w(&b, 2);
    tb_w(&b, 0x0000000000320010ull); /* provider section id 3 (new, empty state) */
    tb_w(&b, instant_inline(1, 0));
    tb_w(&b, 5);
    tb_w(&b, 1);
    tb_w(&b, 2);
    fxt_in_buffer_t in;
    fxt_reader_t *r = open_buf(&b, &in);
    fxt_record_t rec;
    CHECK(next_ok(r, &in, &rec) && !rec.has_provider);
    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_PROVIDER_INFO && rec.provider == 1);
    CHECK_STR(rec.u.provider_info.name, "A");
    CHECK(next_ok(r, &in, &rec) && rec.has_provider && rec.provider == 1);
    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_INIT);
    CHECK(next_ok(r, &in, &rec) && rec.provider == 2);
    CHECK_EQ_U64(fxt_reader_ticks_per_second(r), 1000000000u); /* provider 2: default */
    CHECK(next_ok(r, &in, &rec));
    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_PROVIDER_SECTION && rec.provider == 1);
    CHECK_EQ_U64(fxt_reader_ticks_per_second(r), 1000);
    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_EVENT && rec.provider == 1);
    CHECK_STR(rec.u.event.category, "aaa");
    CHECK(next_ok(r, &in, &rec) && rec.provider == 2);
    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_EVENT);
    CHECK_STR(rec.u.event.category, "bbb");
    CHECK(next_ok(r, &in, &rec) && rec.provider == 3);
    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_EVENT);
    CHECK(rec.u.event.category.unresolved);
    fxt_reader_destroy(r);
    tb_free(&b);
}

/* A provider (id 1, 1000 ticks/s) with string 1, string 300 and thread 1 registered. */
static void build_registrations(tbuf_t *b, const char *s1) {
    tb_w(b, 0x0010000000110020ull); /* provider info id 1 "A" */
    TB_S(b, "A");
    tb_w(b, 0x0000000000000021ull); /* init 1000 ticks/s */
    tb_w(b, 1000);
    tb_w(b, 0x0000000000010002ull | ((uint64_t)strlen(s1) << 32) | ((uint64_t)(strlen(s1) + 7) / 8 + 1) << 4);
    tb_s(b, s1, strlen(s1));
    tb_w(b, 0x00000003012c0022ull); /* string 300 = "far" */
    TB_S(b, "far");
    tb_w(b, 0x0000000000010033ull); /* thread 1 = (7, 8) */
    tb_w(b, 7);
    tb_w(b, 8);
}

/* fxt_reader_reset keeps the tables' memory for reuse, but nothing of their content: a
 * reused reader must see a new trace exactly as a new reader does (fxt stats -j recycles). */
static void test_reset_forgets_kept_tables(void) {
    tbuf_t a = {0}, b = {0};
    build_registrations(&a, "a string longer than sixteen bytes");
    tb_w(&b, 0x0000000000120010ull); /* provider section id 1: known before the reset only */
    tb_w(&b, instant(1, 1, 300));
    tb_w(&b, 5);
    fxt_in_buffer_t in;
    fxt_reader_t *r = open_buf(&a, &in);
    fxt_record_t rec;
    for (int i = 0; i < 5; i++) {
        CHECK(next_ok(r, &in, &rec));
    }
    fxt_str_t s;
    CHECK(fxt_reader_string(r, 300, &s) == FXT_OK);
    fxt_reader_reset(r);
    CHECK(fxt_reader_string(r, 1, &s) == FXT_E_NOT_FOUND);
    in = (fxt_in_buffer_t){b.p, b.len, 0};
    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_PROVIDER_SECTION);
    CHECK_EQ_U64(fxt_reader_ticks_per_second(r), 1000000000u);
    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_EVENT);
    CHECK(rec.u.event.category.unresolved && rec.u.event.name.unresolved);
    CHECK(!rec.u.event.thread.resolved);
    fxt_reader_destroy(r);
    tb_free(&a);
    tb_free(&b);
}

/* Seeding a reader that decoded another trace (its buffers recycled) gives exactly the
 * source's state: the source's strings, none of the old ones. */
static void test_seed_into_used_reader(void) {
    tbuf_t a = {0}, b = {0};
    build_registrations(&a, "a string longer than sixteen bytes");
    tb_w(&a, 0x0000000300070022ull); /* string 7 = "old" (only in the used reader) */
    TB_S(&a, "old");
    build_registrations(&b, "new");
    fxt_in_buffer_t in;
    fxt_record_t rec;
    fxt_reader_t *used = open_buf(&a, &in);
    while (fxt_reader_next(used, &in, &rec) == FXT_OK) {
    }
    fxt_reader_t *src = open_buf(&b, &in);
    while (fxt_reader_next(src, &in, &rec) == FXT_OK) {
    }
    CHECK(fxt_reader_seed(used, src, 4096) == FXT_OK);
    fxt_reader_destroy(src); /* a deep copy: nothing may point into the source */
    fxt_str_t s;
    CHECK(fxt_reader_string(used, 1, &s) == FXT_OK);
    CHECK_STR(s, "new");
    CHECK(fxt_reader_string(used, 300, &s) == FXT_OK);
    CHECK_STR(s, "far");
    CHECK(fxt_reader_string(used, 7, &s) == FXT_E_NOT_FOUND);
    CHECK_EQ_U64(fxt_reader_ticks_per_second(used), 1000);
    tbuf_t c = {0};
    tb_w(&c, instant(1, 1, 300));
    tb_w(&c, 5);
    in = (fxt_in_buffer_t){c.p, c.len, 0};
    CHECK(next_ok(used, &in, &rec) && rec.kind == FXT_KIND_EVENT && rec.offset == 4096);
    CHECK_STR(rec.u.event.category, "new");
    CHECK_STR(rec.u.event.name, "far");
    CHECK(rec.u.event.thread.resolved && rec.u.event.thread.pid == 7 && rec.u.event.thread.tid == 8);
    fxt_reader_destroy(used);
    tb_free(&a);
    tb_free(&b);
    tb_free(&c);
}

/* Rebase keeps the tables and moves the offsets; a record cut at the old input's end is dropped. */
static void test_rebase_keeps_state(void) {
    tbuf_t a = {0}, b = {0};
    build_registrations(&a, "kept");
    tb_w(&a, instant(1, 1, 300)); /* cut after its header: pending when rebased */
    tb_w(&b, instant(1, 1, 300));
    tb_w(&b, 5);
    fxt_in_buffer_t in;
    fxt_record_t rec;
    fxt_reader_t *r = open_buf(&a, &in);
    while (fxt_reader_next(r, &in, &rec) == FXT_OK) {
    }
    CHECK(fxt_reader_rebase(r, 1000) == FXT_OK);
    CHECK(fxt_reader_rebase(NULL, 0) == FXT_E_INVALID_ARG);
    in = (fxt_in_buffer_t){b.p, b.len, 0};
    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_EVENT);
    CHECK_EQ_U64(rec.offset, 1000);
    CHECK_STR(rec.u.event.category, "kept");
    CHECK_STR(rec.u.event.name, "far");
    CHECK_EQ_U64(fxt_reader_ticks_per_second(r), 1000);
    CHECK(fxt_reader_next(r, &in, &rec) == FXT_NEED_INPUT && fxt_reader_finish(r) == FXT_OK);
    fxt_reader_destroy(r);
    tb_free(&a);
    tb_free(&b);
}

/* Damaged records are reported, skipped by their size, and change no state. */
static void test_errors_have_no_effect(void) {
    tbuf_t b = {0};
    tb_w(&b, 0x0000000300010022ull); /* string 1 = "old" */
    TB_S(&b, "old");
    tb_w(&b, 0x0000001000010012ull); /* string 1, len 16@32 but size 1: damaged */
    tb_w(&b, 0x0040000000910010ull); /* provider info id 9, name len 4, size 1: damaged */
    tb_w(&b, 0x0000000000010023ull); /* thread 1, size 2 (needs 3): damaged */
    tb_w(&b, 7);
    /* instant with 1 arg of size 0 (an int32 header 0x...01): damaged */
    tb_w(&b, 0x0000000000100034ull);
    tb_w(&b, 1);
    tb_w(&b, 0x0000000000020001ull);
    /* instant with an int64 arg of size 1 (value word missing) */
    tb_w(&b, 0x0000000000100034ull);
    tb_w(&b, 1);
    tb_w(&b, 0x0000000000020013ull);
    /* instant whose arg (size 3) runs past the record end */
    tb_w(&b, 0x0000000000100034ull);
    tb_w(&b, 1);
    tb_w(&b, 0x0000000000020033ull);
    /* instant with an inline name (len 9, 2 words) in a 3-word record: only 1 word left */
    tb_w(&b, 0x8009000000000034ull);
    tb_w(&b, 1);
    tb_w(&b, 0);
    /* kernel object with 1 arg declared but none present: damaged, registers nothing */
    tb_w(&b, 0x0000010000010027ull);
    tb_w(&b, 0x55);
    /* counter whose id word is missing */
    tb_w(&b, 0x0000000000010024ull);
    tb_w(&b, 1);
    /* a good event after all that, using string 1: instant, size 4 (ts + inline thread) */
    tb_w(&b, instant_inline(1, 0));
    tb_w(&b, 9);
    tb_w(&b, 1);
    tb_w(&b, 2);
    fxt_in_buffer_t in;
    fxt_reader_t *r = open_buf(&b, &in);
    fxt_record_t rec;
    CHECK(next_ok(r, &in, &rec));
    static const uint64_t err_off[] = {16, 24, 32, 48, 72, 96, 120, 144, 160};
    for (unsigned i = 0; i < sizeof err_off / sizeof err_off[0]; i++) {
        fxt_status st = fxt_reader_next(r, &in, &rec);
        CHECK(st == FXT_E_BAD_RECORD || st == FXT_E_BAD_ARG);
        CHECK_EQ_U64(fxt_reader_diag(r)->offset, err_off[i]);
        CHECK(strlen(fxt_reader_diag(r)->msg) > 10);
    }
    CHECK(next_ok(r, &in, &rec) && rec.kind == FXT_KIND_EVENT && !rec.has_provider);
    CHECK_STR(rec.u.event.category, "old");
    CHECK_EQ_U64(rec.u.event.ts, 9);
    fxt_thread_ref_t t;
    CHECK(fxt_reader_thread(r, 1, &t) == FXT_E_NOT_FOUND);
    fxt_kernel_object_info_t ko;
    CHECK(fxt_reader_kernel_object(r, 0x55, &ko) == FXT_E_NOT_FOUND);
    CHECK(fxt_reader_next(r, &in, &rec) == FXT_NEED_INPUT);
    fxt_reader_destroy(r);
    tb_free(&b);
}

static void test_size_zero_is_fatal(void) {
    tbuf_t b = {0};
    tb_w(&b, 0x0016547846040010ull);
    tb_w(&b, 0x0000000000000004ull); /* event, size 0 */
    tb_w(&b, 0x0016547846040010ull);
    fxt_in_buffer_t in;
    fxt_reader_t *r = open_buf(&b, &in);
    fxt_record_t rec;
    CHECK(next_ok(r, &in, &rec));
    CHECK(fxt_reader_next(r, &in, &rec) == FXT_E_BAD_RECORD_SIZE);
    CHECK_EQ_U64(fxt_reader_diag(r)->offset, 8);
    CHECK(fxt_reader_next(r, &in, &rec) == FXT_END);
    CHECK(in.pos == in.size);
    CHECK(fxt_reader_finish(r) == FXT_OK);
    fxt_reader_destroy(r);
    /* large record with a 32-bit size of 0 */
    tbuf_t c = {0};
    tb_w(&c, 0x000000000000000full);
    r = open_buf(&c, &in);
    CHECK(fxt_reader_next(r, &in, &rec) == FXT_E_BAD_RECORD_SIZE);
    fxt_reader_destroy(r);
    tb_free(&b);
    tb_free(&c);
}

/* A large blob over 4095 words: the 32-bit size frames it (in one buffer and in chunks). */
static void test_large_record_framing(void) {
    tbuf_t b = {0};
    uint64_t payload = 40000; /* 5000 words */
    uint64_t words = 3 + payload / 8;
    tb_w(&b, 0x000001000000000full | (words << 4)); /* format 1, size@4 */
    tb_w(&b, 0);
    tb_w(&b, payload);
    for (uint64_t i = 0; i < payload / 8; i++) {
        tb_w(&b, i);
    }
    tb_w(&b, instant_inline(0, 0));
    tb_w(&b, 1);
    tb_w(&b, 2);
    tb_w(&b, 3);
    tlog_t whole = {0};
    decode_log(b.p, b.len, NULL, NULL, &whole);
    CHECK_EQ_U64(whole.n, 2);
    CHECK(whole.n == 2 && whole.v[0].kind == FXT_KIND_LARGE_BLOB && whole.v[1].offset == 8 * words);
    free(whole.v);
    /* with a reassembly limit below the record size: reported and skipped */
    fxt_reader_options_t opt = {sizeof opt, 0, 1024};
    fxt_reader_t *r;
    CHECK(fxt_reader_create(&opt, &r) == FXT_OK);
    fxt_record_t rec;
    int limit = 0, events = 0;
    for (size_t pos = 0; pos < b.len; pos += 1000) {
        fxt_in_buffer_t in = {b.p + pos, b.len - pos < 1000 ? b.len - pos : 1000, 0};
        fxt_status st;
        while ((st = fxt_reader_next(r, &in, &rec)) != FXT_NEED_INPUT) {
            if (st == FXT_E_LIMIT) {
                limit++;
            } else if (st == FXT_OK && rec.kind == FXT_KIND_EVENT) {
                events++;
                CHECK_EQ_U64(rec.offset, 8 * words);
            }
        }
    }
    CHECK(fxt_reader_finish(r) == FXT_OK);
    CHECK(limit == 1 && events == 1);
    fxt_reader_destroy(r);
    tb_free(&b);
}

/* A header announcing a huge record costs no memory until its bytes arrive. */
static void test_huge_header_no_allocation(void) {
    tbuf_t b = {0};
    tb_w(&b, 0x000000000000000full | ((uint64_t)0x7fffffff << 4)); /* large record of 2^31 words: 16 GiB */
    tb_w(&b, 0);
    tb_w(&b, 0);
    fxt_reader_options_t opt = {sizeof opt, 0, UINT64_MAX}; /* no reassembly limit */
    fxt_reader_t *r;
    CHECK(fxt_reader_create(&opt, &r) == FXT_OK);
    fxt_record_t rec;
    for (size_t i = 0; i < b.len; i++) { /* 1-byte chunks: the record straddles them all */
        fxt_in_buffer_t in = {b.p + i, 1, 0};
        CHECK(fxt_reader_next(r, &in, &rec) == FXT_NEED_INPUT);
    }
    CHECK(fxt_reader_finish(r) == FXT_E_TRUNCATED);
    CHECK_EQ_U64(fxt_reader_diag(r)->offset, 0);
    fxt_reader_destroy(r);
    tb_free(&b);
}

/* ---- truncation and chunking -------------------------------------------------------- */

static void test_cut_at_every_offset(void) {
    for (int be = 0; be < 2; be++) {
        tbuf_t b = {0};
        b.be = be;
        build_all(&b);
        tlog_t full = {0};
        decode_log(b.p, b.len, NULL, NULL, &full);
        CHECK_EQ_U64(full.n, ALL_RECORDS);
        for (size_t cut = 0; cut <= b.len; cut++) {
            tlog_t l = {0};
            /* a copy of exactly `cut` bytes, so ASan catches any read past it */
            uint8_t *copy = malloc(cut ? cut : 1);
            memcpy(copy, b.p, cut);
            decode_log(copy, cut, NULL, NULL, &l);
            free(copy);
            size_t expect = 0, boundary = (cut == 0);
            for (size_t i = 0; i < full.n; i++) {
                uint64_t end = i + 1 < full.n ? full.v[i + 1].offset : b.len;
                if (end <= cut) {
                    expect++;
                }
                if (end == cut) {
                    boundary = 1;
                }
            }
            int ok = l.n == expect + (boundary ? 0 : 1);
            for (size_t i = 0; ok && i < expect; i++) {
                ok = l.v[i].status == 0 && l.v[i].kind == full.v[i].kind && l.v[i].offset == full.v[i].offset;
            }
            if (ok && !boundary) {
                ok = l.v[expect].status == FXT_E_TRUNCATED &&
                     l.v[expect].offset == (expect < full.n ? full.v[expect].offset : 0);
            }
            if (!ok) {
                fprintf(stderr, "cut at %zu (be=%d): %zu results, expected %zu\n", cut, be, l.n, expect);
            }
            CHECK(ok);
            free(l.v);
        }
        free(full.v);
        tb_free(&b);
    }
}

typedef struct rng {
    uint64_t s;
    size_t max;
} rng_t;

static uint64_t rnd(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static size_t random_chunk(void *ctx) {
    rng_t *g = ctx;
    return 1 + (size_t)(rnd(&g->s) % g->max);
}

static int same_log(const tlog_t *a, const tlog_t *b) {
    if (a->n != b->n) {
        return 0;
    }
    for (size_t i = 0; i < a->n; i++) {
        if (a->v[i].status != b->v[i].status || a->v[i].kind != b->v[i].kind ||
            a->v[i].offset != b->v[i].offset) {
            return 0;
        }
    }
    return 1;
}

/* Any chunking gives the same records as one buffer: on valid and on damaged traces. */
static void test_random_chunking(void) {
    tbuf_t b = {0};
    build_all(&b);
    tlog_t whole = {0};
    decode_log(b.p, b.len, NULL, NULL, &whole);
    static const size_t maxes[] = {1, 2, 7, 8, 9, 64, 300, 5000};
    for (unsigned m = 0; m < sizeof maxes / sizeof maxes[0]; m++) {
        for (uint64_t seed = 1; seed <= 20; seed++) {
            rng_t g = {seed * 0x9e3779b97f4a7c15ull, maxes[m]};
            tlog_t l = {0};
            decode_log(b.p, b.len, random_chunk, &g, &l);
            CHECK(same_log(&whole, &l));
            free(l.v);
        }
    }
    free(whole.v);
    tb_free(&b);
}

/* dst = src with 1..max_flips random bits flipped. */
static void flip_bits(uint8_t *dst, const uint8_t *src, size_t len, uint64_t *s, unsigned max_flips) {
    memcpy(dst, src, len);
    int flips = 1 + (int)(rnd(s) % max_flips);
    for (int f = 0; f < flips; f++) {
        dst[rnd(s) % len] ^= (uint8_t)(1u << (rnd(s) % 8));
    }
}

/* Random byte flips: never crash, never read out of bounds (ASan), chunking-invariant. */
static void test_random_damage(void) {
    tbuf_t b = {0};
    build_all(&b);
    uint64_t s = 12345;
    uint8_t *copy = malloc(b.len);
    for (int iter = 0; iter < 3000; iter++) {
        flip_bits(copy, b.p, b.len, &s, 8);
        tlog_t whole = {0}, chunked = {0};
        decode_log(copy, b.len, NULL, NULL, &whole);
        rng_t g = {rnd(&s) | 1, 1 + rnd(&s) % 40};
        decode_log(copy, b.len, random_chunk, &g, &chunked);
        CHECK(same_log(&whole, &chunked));
        uint64_t prev = 0;
        for (size_t i = 0; i < whole.n; i++) {
            CHECK(whole.v[i].offset < b.len || whole.v[i].status < 0);
            CHECK(i == 0 || whole.v[i].offset >= prev);
            prev = whole.v[i].offset;
        }
        free(whole.v);
        free(chunked.v);
    }
    free(copy);
    tb_free(&b);
}

/* ---- foreign samples ----------------------------------------------------------- */

static uint8_t *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc(n > 0 ? (size_t)n : 1);
    *len = fread(p, 1, (size_t)n, f);
    fclose(f);
    return p;
}

static void count_file(const char *name, unsigned *kinds, unsigned *errors, size_t chunk) {
    char path[512];
    snprintf(path, sizeof path, "%s/samples/foreign/%s", FXT_SHARED_DIR, name);
    size_t len = 0;
    uint8_t *p = read_file(path, &len);
    CHECK(p != NULL);
    if (p == NULL) {
        return;
    }
    fxt_reader_t *r;
    fxt_reader_create(NULL, &r);
    fxt_record_t rec;
    for (size_t pos = 0; pos < len; pos += chunk) {
        fxt_in_buffer_t in = {p + pos, len - pos < chunk ? len - pos : chunk, 0};
        fxt_status st;
        while ((st = fxt_reader_next(r, &in, &rec)) != FXT_NEED_INPUT) {
            if (st == FXT_OK) {
                kinds[rec.kind]++;
                if (rec.kind == FXT_KIND_EVENT) {
                    CHECK(rec.u.event.name.ptr != NULL && rec.u.event.category.ptr != NULL);
                }
            } else {
                (*errors)++;
            }
        }
    }
    if (fxt_reader_finish(r) != FXT_OK) {
        (*errors)++;
    }
    fxt_reader_destroy(r);
    free(p);
}

static void test_foreign_samples(void) {
    static const size_t chunks[] = {(size_t)1 << 30, 4096, 13};
    struct stat st;
    if (stat(FXT_SHARED_DIR "/samples/foreign", &st) != 0) {
        TEST_SKIP("%s/samples/foreign absent (the shared data is not part of the repo)", FXT_SHARED_DIR);
        return;
    }
    for (unsigned c = 0; c < 3; c++) {
        unsigned k[FXT_KIND_COUNT_] = {0}, e = 0;
        count_file("fxtcpp_begin_end_2threads.fxt", k, &e, chunks[c]);
        CHECK(e == 0 && k[FXT_KIND_MAGIC] == 1 && k[FXT_KIND_EVENT] == 19988 &&
              k[FXT_KIND_KERNEL_OBJECT] == 3 && k[FXT_KIND_PROVIDER_INFO] == 1);
        memset(k, 0, sizeof k);
        e = 0;
        count_file("fxtcpp_instant_2args.fxt", k, &e, chunks[c]);
        CHECK(e == 0 && k[FXT_KIND_EVENT] == 19990 && k[FXT_KIND_INIT] == 1);
        memset(k, 0, sizeof k);
        e = 0;
        count_file("ftr_complete_2threads.fxt", k, &e, chunks[c]);
        CHECK(e == 0 && k[FXT_KIND_EVENT] == 19996 && k[FXT_KIND_STRING] == 1);
        memset(k, 0, sizeof k);
        e = 0;
        count_file("ftr_counter_malformed.fxt", k, &e, chunks[c]);
        /* every counter record is damaged: each reported, reading goes on to the end */
        CHECK(e == 1996 && k[FXT_KIND_EVENT] == 0 && k[FXT_KIND_KERNEL_OBJECT] == 1);
    }
}

/* ---- lazy arguments (FXT_READ_LAZY_ARGS) ------------------------------------------- */

/* Same decoded arguments: types, sizes, headers, values, names and string values by content. */
static int same_str(fxt_str_t a, fxt_str_t b) {
    return a.len == b.len && a.unresolved == b.unresolved && a.ref == b.ref &&
           (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

static int same_args(const fxt_record_t *a, const fxt_record_t *b) {
    if (a->nargs != b->nargs) {
        return 0;
    }
    for (unsigned i = 0; i < a->nargs; i++) {
        const fxt_arg_t *x = &a->args[i], *y = &b->args[i];
        if (x->type != y->type || x->size_words != y->size_words || x->header != y->header ||
            !same_str(x->name, y->name)) {
            return 0;
        }
        if (x->type == FXT_ARG_STRING ? !same_str(x->str, y->str)
                                      : fxt_arg_has_value_word(x->type) && x->v.u64 != y->v.u64) {
            return 0;
        }
        if ((x->type == FXT_ARG_INT32 && x->v.i32 != y->v.i32) ||
            (x->type == FXT_ARG_UINT32 && x->v.u32 != y->v.u32) ||
            (x->type == FXT_ARG_BOOL && x->v.boolean != y->v.boolean)) {
            return 0;
        }
    }
    return 1;
}

typedef struct lazy_cmp {
    size_t records, with_args, errors, bad_args, diffs;
} lazy_cmp_t;

/* Decodes p in `chunk`-byte pieces with an eager and a lazy reader in lockstep: the same records
 * and errors (status, offset, message), and after fxt_reader_args the same arguments. */
static void lazy_vs_eager(const uint8_t *p, size_t len, size_t chunk, lazy_cmp_t *c) {
    fxt_reader_t *e, *l;
    fxt_reader_options_t lo = FXT_READER_OPTIONS_INIT;
    lo.flags = FXT_READ_LAZY_ARGS;
    CHECK(fxt_reader_create(NULL, &e) == FXT_OK && fxt_reader_create(&lo, &l) == FXT_OK);
    fxt_record_t re, rl;
    for (size_t pos = 0; pos < len || pos == 0; pos += chunk) {
        size_t n = len - pos < chunk ? len - pos : chunk;
        fxt_in_buffer_t ie = {p + pos, n, 0}, il = {p + pos, n, 0};
        for (;;) {
            fxt_status se = fxt_reader_next(e, &ie, &re), sl = fxt_reader_next(l, &il, &rl);
            int diff = se != sl || ie.pos != il.pos;
            if (!diff && se < 0) {
                const fxt_diag_t *de = fxt_reader_diag(e), *dl = fxt_reader_diag(l);
                diff = de->offset != dl->offset || strcmp(de->msg, dl->msg) != 0;
                c->errors++;
                c->bad_args += se == FXT_E_BAD_ARG;
            } else if (!diff && se == FXT_OK) {
                c->records++;
                /* Not decoded yet (kernel objects are: the reader's object table needs them). */
                diff = rl.kind != FXT_KIND_KERNEL_OBJECT && rl.nargs != 0;
                c->with_args += re.nargs != 0;
                CHECK(fxt_reader_args(l, &rl) == FXT_OK);
                diff |= rl.offset != re.offset || rl.kind != re.kind || !same_args(&re, &rl);
                /* A second call and a call on an eager reader change nothing. */
                unsigned nargs = rl.nargs;
                CHECK(fxt_reader_args(l, &rl) == FXT_OK && fxt_reader_args(e, &re) == FXT_OK);
                diff |= rl.nargs != nargs || !same_args(&re, &rl);
            }
            if (diff) {
                c->diffs++;
                fprintf(stderr, "lazy/eager differ at %llu: %s / %s\n", (unsigned long long)rl.offset,
                        fxt_status_name(se), fxt_status_name(sl));
                break;
            }
            if (se == FXT_NEED_INPUT || se == FXT_END) {
                break;
            }
        }
        if (len == 0) {
            break;
        }
    }
    fxt_status fe = fxt_reader_finish(e), fl = fxt_reader_finish(l);
    c->diffs += fe != fl;
    fxt_reader_destroy(e);
    fxt_reader_destroy(l);
}

/* Every record kind and argument type in both byte orders, the fuzz corpus and the foreign
 * samples (when present): the lazy reader gives the eager one's arguments, whole and chunked. */
static void test_lazy_args_same(void) {
    lazy_cmp_t c = {0};
    static const size_t chunks[] = {(size_t)1 << 30, 13, 8};
    for (int be = 0; be < 2; be++) {
        tbuf_t b = {0};
        b.be = be;
        build_all(&b);
        for (unsigned k = 0; k < 3; k++) {
            lazy_vs_eager(b.p, b.len, chunks[k], &c);
        }
        tb_free(&b);
    }
    CHECK(c.with_args >= 10 && c.diffs == 0);
    static const char *files[] = {"all_records_be.fxt",
                                  "all_records_le.fxt",
                                  "all_records_flipped.fxt",
                                  "all_records_cut.fxt",
                                  "fxtcpp_instant_2args_head.fxt",
                                  "ftr_counter_malformed_head.fxt",
                                  "fxtcpp_begin_end_2threads_head.fxt"};
    for (unsigned i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/fuzz/corpus/reader/%s", FXT_SOURCE_DIR, files[i]);
        size_t len = 0;
        uint8_t *p = read_file(path, &len);
        CHECK(p != NULL);
        if (p != NULL) {
            lazy_vs_eager(p, len, chunks[0], &c);
            lazy_vs_eager(p, len, chunks[1], &c);
        }
        free(p);
    }
    struct stat st;
    if (stat(FXT_SHARED_DIR "/samples/foreign", &st) == 0) {
        static const char *foreign[] = {"fxtcpp_begin_end_2threads.fxt", "fxtcpp_instant_2args.fxt",
                                        "ftr_complete_2threads.fxt", "ftr_counter_malformed.fxt"};
        for (unsigned i = 0; i < 4; i++) {
            char path[512];
            snprintf(path, sizeof path, "%s/samples/foreign/%s", FXT_SHARED_DIR, foreign[i]);
            size_t len = 0;
            uint8_t *p = read_file(path, &len);
            if (p != NULL) {
                lazy_vs_eager(p, len, chunks[0], &c);
            }
            free(p);
        }
    }
    CHECK(c.errors > 0 && c.bad_args > 0);
    CHECK_EQ_U64(c.diffs, 0);
}

/* Damaged arguments are rejected identically: random flips of the all-records trace. */
static void test_lazy_args_damage(void) {
    lazy_cmp_t c = {0};
    for (int be = 0; be < 2; be++) {
        tbuf_t b = {0};
        b.be = be;
        build_all(&b);
        uint64_t s = 777 + (uint64_t)be;
        uint8_t *copy = malloc(b.len);
        for (int iter = 0; iter < 1500; iter++) {
            flip_bits(copy, b.p, b.len, &s, 6);
            lazy_vs_eager(copy, b.len, iter % 2 ? 64 : b.len, &c);
        }
        free(copy);
        tb_free(&b);
    }
    /* The flips did reach arguments: many records were rejected for them. */
    CHECK(c.bad_args > 100);
    CHECK_EQ_U64(c.diffs, 0);
}

/* fxt_reader_args: invalid calls, nothing pending after a reset or rebase, and the object
 * table still learns a thread's process with lazy arguments. */
static void test_lazy_args_api(void) {
    tbuf_t b = {0};
    build_all(&b);
    fxt_reader_options_t lo = FXT_READER_OPTIONS_INIT;
    lo.flags = FXT_READ_LAZY_ARGS;
    fxt_reader_t *r;
    CHECK(fxt_reader_create(&lo, &r) == FXT_OK);
    fxt_record_t rec;
    CHECK(fxt_reader_args(NULL, &rec) == FXT_E_INVALID_ARG && fxt_reader_args(r, NULL) == FXT_E_INVALID_ARG);
    fxt_in_buffer_t in = {b.p, b.len, 0};
    int kobj_process = 0, checked = 0;
    fxt_status st;
    while ((st = fxt_reader_next(r, &in, &rec)) != FXT_NEED_INPUT && st != FXT_END) {
        if (st != FXT_OK) {
            continue;
        }
        if (rec.kind == FXT_KIND_KERNEL_OBJECT && rec.u.kernel_object.obj_type == FXT_OBJ_THREAD) {
            fxt_kernel_object_info_t info;
            kobj_process |=
                fxt_reader_kernel_object(r, rec.u.kernel_object.koid, &info) == FXT_OK && info.has_process;
        }
        if (rec.kind == FXT_KIND_EVENT && fxt_get_event_nargs(rec.header) != 0 && !checked) {
            /* A rebase forgets the pending arguments: offsets may repeat after it. */
            fxt_record_t copy = rec;
            CHECK(fxt_reader_rebase(r, fxt_reader_offset(r)) == FXT_OK);
            CHECK(fxt_reader_args(r, &copy) == FXT_OK && copy.nargs == 0);
            checked = 1;
        }
    }
    CHECK(checked && kobj_process);
    fxt_reader_reset(r);
    CHECK(fxt_reader_args(r, &rec) == FXT_OK);
    fxt_reader_destroy(r);
    tb_free(&b);
}

/* ---- the records that change state (fxt_reader_state_types) -------------------------------- */

/* What a record decodes to that depends on the reader's state, as text: kind, offset, provider,
 * tick rate, build_all's userspace object, an event's or log's resolved strings and thread, the
 * thread's kernel object. */
static void state_sig(fxt_reader_t *r, const fxt_record_t *rec, char *out, size_t cap) {
    fxt_userspace_object_info_t uo;
    int n = snprintf(out, cap, "%d@%llu p%d/%u tps%llu u%d", (int)rec->kind, (unsigned long long)rec->offset,
                     rec->has_provider, (unsigned)rec->provider,
                     (unsigned long long)fxt_reader_ticks_per_second(r),
                     fxt_reader_userspace_object(r, 0x77, 0xdef, &uo) == FXT_OK);
    const fxt_str_t *a = NULL, *b = NULL;
    const fxt_thread_ref_t *t = NULL;
    if (rec->kind == FXT_KIND_EVENT) {
        a = &rec->u.event.category, b = &rec->u.event.name, t = &rec->u.event.thread;
    } else if (rec->kind == FXT_KIND_LOG) {
        a = b = &rec->u.log.message, t = &rec->u.log.thread;
    } else if (rec->kind == FXT_KIND_BLOB) {
        a = b = &rec->u.blob.name;
    }
    if (a != NULL && n > 0 && (size_t)n < cap) {
        fxt_kernel_object_info_t ko = {0};
        int has = t && t->resolved && fxt_reader_kernel_object(r, t->tid, &ko) == FXT_OK;
        snprintf(out + n, cap - (size_t)n, " %.*s/%.*s%d%d t%d:%llu/%llu o%d", (int)a->len,
                 a->ptr ? a->ptr : "", (int)b->len, b->ptr ? b->ptr : "", a->unresolved, b->unresolved,
                 t ? t->resolved : -1, (unsigned long long)(t ? t->pid : 0),
                 (unsigned long long)(t ? t->tid : 0), has);
    }
}

/* Fed the first record and the records of the state types before any record boundary, then
 * rebased there, a reader decodes the rest as a sequential read: the types are enough. */
static void state_types_suffice(int be, uint32_t flags) {
    tbuf_t b = {0};
    b.be = be;
    build_all(&b);
    fxt_reader_options_t opt = FXT_READER_OPTIONS_INIT;
    opt.flags = flags;
    uint32_t types = 0;
    CHECK(fxt_reader_state_types(&opt, &types) == FXT_OK);
    enum { MAXREC = 64 };
    uint64_t off[MAXREC], size[MAXREC];
    char want[MAXREC][256], got[256];
    size_t nrec = 0;
    fxt_reader_t *r;
    CHECK(fxt_reader_create(&opt, &r) == FXT_OK);
    fxt_in_buffer_t in = {b.p, b.len, 0};
    fxt_record_t rec;
    while (nrec < MAXREC && fxt_reader_next(r, &in, &rec) == FXT_OK) {
        off[nrec] = rec.offset;
        size[nrec] = rec.size;
        state_sig(r, &rec, want[nrec++], sizeof want[0]);
    }
    fxt_reader_destroy(r);
    CHECK(nrec > 20 && nrec < MAXREC);
    for (size_t cut = 1; cut < nrec; cut++) {
        CHECK(fxt_reader_create(&opt, &r) == FXT_OK);
        for (size_t k = 0; k < cut; k++) {
            uint64_t h = fxt_load64_swapped(b.p + off[k], be != fxt_host_is_big_endian());
            if (k == 0 || ((types >> fxt_get_rec_type(h)) & 1u)) {
                in = (fxt_in_buffer_t){b.p + off[k], (size_t)size[k], 0};
                CHECK(fxt_reader_next(r, &in, &rec) == FXT_OK);
            }
        }
        CHECK(fxt_reader_rebase(r, off[cut]) == FXT_OK);
        in = (fxt_in_buffer_t){b.p + off[cut], b.len - off[cut], 0};
        for (size_t k = cut; k < nrec && fxt_reader_next(r, &in, &rec) == FXT_OK; k++) {
            state_sig(r, &rec, got, sizeof got);
            if (strcmp(got, want[k]) != 0) {
                fprintf(stderr, "cut before record %zu, record %zu: %s, sequential %s\n", cut, k, got,
                        want[k]);
                CHECK(0);
                break;
            }
        }
        fxt_reader_destroy(r);
    }
    tb_free(&b);
}

static void test_state_types(void) {
    uint32_t types = 0;
    CHECK(fxt_reader_state_types(NULL, &types) == FXT_OK);
    CHECK_EQ_U64(types, (1u << FXT_RECORD_METADATA) | (1u << FXT_RECORD_INITIALIZATION) |
                            (1u << FXT_RECORD_STRING) | (1u << FXT_RECORD_THREAD) |
                            (1u << FXT_RECORD_USERSPACE_OBJECT) | (1u << FXT_RECORD_KERNEL_OBJECT));
    fxt_reader_options_t opt = FXT_READER_OPTIONS_INIT;
    opt.flags = FXT_READ_NO_OBJECT_TABLES | FXT_READ_LAZY_ARGS;
    CHECK(fxt_reader_state_types(&opt, &types) == FXT_OK);
    CHECK_EQ_U64(types, 0xfu);
    CHECK(fxt_reader_state_types(NULL, NULL) == FXT_E_INVALID_ARG);
    opt.struct_size = sizeof opt + 8;
    CHECK(fxt_reader_state_types(&opt, &types) == FXT_E_INVALID_ARG);
    state_types_suffice(0, 0);
    state_types_suffice(1, 0);
    state_types_suffice(0, FXT_READ_NO_OBJECT_TABLES);
}

/* fxt_arg_number: the five numeric types give their value, the others none (counters, sql). */
static void test_arg_number(void) {
    fxt_str_t k = fxt_cstr("k");
    double v = -1;
    fxt_arg_t num[] = {fxt_arg_int32(k, -7), fxt_arg_uint32(k, 4000000000u), fxt_arg_int64(k, -5000000000ll),
                       fxt_arg_uint64(k, 1ull << 60), fxt_arg_double(k, 2.5)};
    const double want[] = {-7.0, 4000000000.0, -5000000000.0, 1152921504606846976.0, 2.5};
    for (unsigned i = 0; i < 5; i++) {
        CHECK(fxt_arg_number(&num[i], &v) == FXT_OK);
        CHECK(v == want[i]);
    }
    fxt_arg_t other[] = {fxt_arg_null(k), fxt_arg_string(k, k), fxt_arg_pointer(k, 1), fxt_arg_koid(k, 2),
                         fxt_arg_bool(k, 1)};
    for (unsigned i = 0; i < 5; i++) {
        v = -1;
        CHECK(fxt_arg_number(&other[i], &v) == FXT_E_NOT_FOUND);
        CHECK(v == -1);
    }
}

int main(int argc, char **argv) {
    TEST_INIT(argc, argv);
    RUN(test_all_records_le);
    RUN(test_all_records_be);
    RUN(test_be_magic_bytes);
    RUN(test_index0_and_replace);
    RUN(test_provider_contexts);
    RUN(test_reset_forgets_kept_tables);
    RUN(test_seed_into_used_reader);
    RUN(test_rebase_keeps_state);
    RUN(test_state_types);
    RUN(test_errors_have_no_effect);
    RUN(test_size_zero_is_fatal);
    RUN(test_large_record_framing);
    RUN(test_huge_header_no_allocation);
    RUN(test_cut_at_every_offset);
    RUN(test_random_chunking);
    RUN(test_random_damage);
    RUN(test_foreign_samples);
    RUN(test_lazy_args_same);
    RUN(test_lazy_args_damage);
    RUN(test_lazy_args_api);
    RUN(test_arg_number);
    return TEST_EXIT();
}
