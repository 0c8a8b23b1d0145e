/* SPDX-License-Identifier: MIT */
/*
 * Writer round-trip fuzz target: the input drives a sequence of writer calls
 * (every record kind, strings sliced from the input, 0..16 arguments of every
 * type, tiny interning tables so slots are recycled, either byte order). A
 * refused call must leave the writer FXT_OK; everything accepted must read
 * back with no error, in order, with the same kind and main string.
 */
#include <fxt/reader.h>
#include <fxt/writer.h>

#include <stdlib.h>
#include <string.h>

typedef struct in {
    const uint8_t *p;
    size_t n, pos;
} in_t;

static unsigned byte(in_t *in) { return in->pos < in->n ? in->p[in->pos++] : 0u; }

static uint64_t word(in_t *in) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) {
        v = (v << 8) | byte(in);
    }
    return v;
}

/* A string sliced from the input (may be empty, sometimes inline). */
static fxt_str_t str(in_t *in) {
    unsigned len = byte(in) % 24;
    if (len > in->n - in->pos) {
        len = (unsigned)(in->n - in->pos);
    }
    fxt_str_t s = fxt_str_n((const char *)in->p + in->pos, len);
    in->pos += len;
    return (byte(in) & 7) == 0 ? fxt_str_inline(s) : s;
}

static unsigned args(in_t *in, fxt_arg_t *a) {
    unsigned n = byte(in) % 17; /* 16: refused */
    for (unsigned i = 0; i < n; i++) {
        fxt_str_t nm = str(in);
        uint64_t v = word(in);
        switch (byte(in) % 10) {
        case 0:
            a[i] = fxt_arg_null(nm);
            break;
        case 1:
            a[i] = fxt_arg_int32(nm, (int32_t)v);
            break;
        case 2:
            a[i] = fxt_arg_uint32(nm, (uint32_t)v);
            break;
        case 3:
            a[i] = fxt_arg_int64(nm, (int64_t)v);
            break;
        case 4:
            a[i] = fxt_arg_uint64(nm, v);
            break;
        case 5:
            a[i] = fxt_arg_double(nm, (double)v);
            break;
        case 6:
            a[i] = fxt_arg_string(nm, str(in));
            break;
        case 7:
            a[i] = fxt_arg_pointer(nm, v);
            break;
        case 8:
            a[i] = fxt_arg_koid(nm, v);
            break;
        default:
            a[i] = fxt_arg_bool(nm, (int)(v & 1));
            break;
        }
    }
    return n;
}

typedef struct expect {
    fxt_record_kind kind;
    fxt_str_t s;
} expect_t;

#define MAXREC 512

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    in_t in = {data, size, 0};
    unsigned o = byte(&in);
    fxt_writer_options_t opt = {sizeof opt, (o & 1) ? FXT_WRITE_BIG_ENDIAN : 0u, 0, (o >> 1) % 8,
                                (o >> 4) % 4};
    fxt_membuf_t mem = {0};
    fxt_writer_t *w;
    if (fxt_writer_create(&opt, fxt_sink_membuf(&mem), &w) != FXT_OK) {
        abort();
    }
    static expect_t ex[MAXREC];
    unsigned nex = 0;
    fxt_write_magic(w);
    ex[nex++] = (expect_t){FXT_KIND_MAGIC, {NULL, 0, 0, 0}};
    fxt_arg_t a[16];
    while (in.pos < in.n && nex < MAXREC) {
        unsigned op = byte(&in) % 9;
        fxt_thread_ref_t t = (byte(&in) & 3) ? fxt_thread(byte(&in) % 3, byte(&in) % 5)
                                             : fxt_thread_inline(word(&in), word(&in));
        fxt_str_t s1 = str(&in), s2 = str(&in);
        uint64_t v = word(&in);
        fxt_status st;
        expect_t e = {FXT_KIND_EVENT, s2};
        switch (op) {
        case 0: {
            unsigned n = args(&in, a);
            fxt_event_desc_t ev = {byte(&in) % 11, v, t, s1, s2, v, v, a, n, NULL, 0};
            st = fxt_write_event(w, &ev);
            break;
        }
        case 1:
            st = fxt_write_log(w, v, t, s1);
            e = (expect_t){FXT_KIND_LOG, s1};
            break;
        case 2: {
            unsigned n = args(&in, a);
            st = fxt_write_kernel_object(w, v, byte(&in), s1, a, n);
            e = (expect_t){FXT_KIND_KERNEL_OBJECT, s1};
            break;
        }
        case 3:
            st = fxt_write_blob(w, s1, 1, s2.ptr, s2.len);
            e = (expect_t){FXT_KIND_BLOB, s1};
            break;
        case 4: {
            unsigned n = args(&in, a);
            st = fxt_write_userspace_object(w, v, v >> 8, s1, a, n);
            e = (expect_t){FXT_KIND_USERSPACE_OBJECT, s1};
            break;
        }
        case 5: {
            unsigned n = args(&in, a);
            st = fxt_write_context_switch(w, v, byte(&in), byte(&in) % 17, v, v + 1, a, n);
            e = (expect_t){FXT_KIND_CONTEXT_SWITCH, {NULL, 0, 0, 0}};
            break;
        }
        case 6:
            st = fxt_write_legacy_context_switch(w, v, byte(&in), byte(&in) % 6, t, fxt_thread(1, 2), 1, 2);
            e = (expect_t){FXT_KIND_LEGACY_CONTEXT_SWITCH, {NULL, 0, 0, 0}};
            break;
        case 7: {
            unsigned n = args(&in, a);
            fxt_large_blob_desc_t lb = {byte(&in) % 2, s1, s2, v, t, a, n, s1.ptr, s1.len};
            st = fxt_write_large_blob(w, &lb);
            e = (expect_t){FXT_KIND_LARGE_BLOB, s2};
            break;
        }
        default: {
            unsigned n = args(&in, a);
            fxt_event_desc_t ev = {
                FXT_EVENT_INSTANT, v, fxt_thread_inline(1, 2), s1, s2, 0, 0, a, n, NULL, 0};
            /* explicit refs: strings with ref 0 are inline; no table entries involved */
            st = fxt_write_event_refs(w, &ev);
            break;
        }
        }
        if (fxt_writer_status(w) != FXT_OK) {
            abort(); /* a memory sink never fails: only validation, which is not sticky */
        }
        if (st == FXT_OK) {
            ex[nex++] = e;
        }
    }
    if (fxt_writer_finish(w) != FXT_OK) {
        abort();
    }
    fxt_reader_t *r;
    if (fxt_reader_create(NULL, &r) != FXT_OK) {
        abort();
    }
    fxt_in_buffer_t rin = {mem.data, mem.len, 0};
    fxt_record_t rec;
    unsigned got = 0;
    fxt_status st;
    while ((st = fxt_reader_next(r, &rin, &rec)) == FXT_OK) {
        if (rec.kind == FXT_KIND_STRING || rec.kind == FXT_KIND_THREAD) {
            continue;
        }
        if (got >= nex || rec.kind != ex[got].kind) {
            abort();
        }
        const fxt_str_t *want = &ex[got].s, *have = NULL;
        switch (rec.kind) {
        case FXT_KIND_EVENT:
            have = &rec.u.event.name;
            break;
        case FXT_KIND_LOG:
            have = &rec.u.log.message;
            break;
        case FXT_KIND_KERNEL_OBJECT:
            have = &rec.u.kernel_object.name;
            break;
        case FXT_KIND_BLOB:
            have = &rec.u.blob.name;
            break;
        case FXT_KIND_USERSPACE_OBJECT:
            have = &rec.u.userspace_object.name;
            break;
        case FXT_KIND_LARGE_BLOB:
            have = &rec.u.large_blob.name;
            break;
        case FXT_KIND_MAGIC:
        case FXT_KIND_PROVIDER_INFO:
        case FXT_KIND_PROVIDER_SECTION:
        case FXT_KIND_PROVIDER_EVENT:
        case FXT_KIND_TRACE_INFO:
        case FXT_KIND_INIT:
        case FXT_KIND_STRING:
        case FXT_KIND_THREAD:
        case FXT_KIND_CONTEXT_SWITCH:
        case FXT_KIND_THREAD_WAKEUP:
        case FXT_KIND_LEGACY_CONTEXT_SWITCH:
        case FXT_KIND_UNKNOWN:
            break;
        }
        if (have != NULL && (have->ptr == NULL || have->len != want->len ||
                             (want->len && memcmp(have->ptr, want->ptr, want->len) != 0))) {
            abort();
        }
        got++;
    }
    if (st != FXT_NEED_INPUT || fxt_reader_finish(r) != FXT_OK || got != nex) {
        abort();
    }
    fxt_reader_destroy(r);
    fxt_writer_destroy(w);
    fxt_membuf_free(&mem);
    return 0;
}
