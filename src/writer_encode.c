/* SPDX-License-Identifier: MIT */
/*
 * Stateless encoders: one record into a caller buffer, host byte order, with
 * explicit string and thread refs (no interning). Every check is made before
 * the first byte is stored, so on error the buffer is untouched.
 */
#include <fxt/writer.h>

#include "writer_internal.h"

/* A string resolved for encoding: an explicit index, or inline (clamped) bytes. */
typedef fxt__estr_t es_t;

static fxt_status es_prep(fxt_str_t s, es_t *o) {
    if (s.ref != 0 && !fxt_strref_is_inline(s.ref)) {
        *o = fxt__estr_index(s.ref); /* explicit table index */
        return FXT_OK;
    }
    if (s.ptr == NULL && s.len != 0) {
        return FXT_E_INVALID_ARG;
    }
    *o = fxt__estr_inline(s.ptr, fxt__str_clamp(s.ptr, s.len));
    return FXT_OK;
}

typedef struct et {
    uint8_t ref;
    uint64_t pid, tid;
} et_t;

static fxt_status et_prep(fxt_thread_ref_t t, et_t *o) {
    uint32_t ref = t.ref == FXT_THREAD_INLINE_FLAG ? FXT_THREADREF_INLINE : t.ref;
    if (ref > FXT_MAX_THREAD_INDEX) {
        return FXT_E_BAD_INDEX;
    }
    o->ref = (uint8_t)ref;
    o->pid = t.pid;
    o->tid = t.tid;
    return FXT_OK;
}

static inline uint64_t es_words(const es_t *s) { return fxt__estr_words(s); }
static inline uint64_t et_words(const et_t *t) { return fxt__thread_words(t->ref); }

typedef struct eargs {
    unsigned n;
    uint64_t words;
    es_t name[FXT_MAX_ARGS];
    es_t sval[FXT_MAX_ARGS];
} eargs_t;

static fxt_status eargs_prep(const fxt_arg_t *args, unsigned nargs, eargs_t *o) {
    if (nargs > FXT_MAX_ARGS) {
        return FXT_E_TOO_MANY_ARGS;
    }
    if (nargs != 0 && args == NULL) {
        return FXT_E_INVALID_ARG;
    }
    o->n = nargs;
    o->words = 0;
    for (unsigned i = 0; i < nargs; i++) {
        const fxt_arg_t *a = &args[i];
        if (a->type >= FXT_ARG_TYPE_COUNT) {
            return FXT_E_BAD_ARG;
        }
        fxt_status st = es_prep(a->name, &o->name[i]);
        if (st != FXT_OK) {
            return st;
        }
        if (a->type == FXT_ARG_STRING) {
            st = es_prep(a->str, &o->sval[i]);
            if (st != FXT_OK) {
                return st;
            }
        }
        uint64_t words = fxt__arg_words(a->type, &o->name[i], &o->sval[i]);
        if (words > FXT_MAX_RECORD_WORDS) {
            return FXT_E_RECORD_TOO_LARGE;
        }
        o->words += words;
    }
    return FXT_OK;
}

/* ---- output cursor ----------------------------------------------------------------------- */

typedef struct cur {
    uint8_t *p;
    int swap; /* words in the opposite of host order (streams are bytes: never swapped) */
} cur_t;

static inline void cput(cur_t *c, uint64_t v) { c->p = fxt__put_word(c->p, v, c->swap); }

static inline void cstream(cur_t *c, const void *p, size_t n) { c->p = fxt__put_bytes(c->p, p, n); }

static inline void cstr(cur_t *c, const es_t *s) { c->p = fxt__put_estr(c->p, s); }

static inline void cthr(cur_t *c, const et_t *t) {
    c->p = fxt__put_thread(c->p, c->swap, t->ref, t->pid, t->tid);
}

static void cargs(cur_t *c, const fxt_arg_t *args, const eargs_t *ea) {
    c->p = fxt__put_args(c->p, c->swap, args, ea->n, ea->name, ea->sval);
}

/* Size checks shared by every encoder; on success the cursor starts at buf. */
static fxt_status fit(void *buf, size_t cap, size_t *size, uint64_t words, int large, cur_t *c) {
    if (!large && words > FXT_MAX_RECORD_WORDS) {
        return FXT_E_RECORD_TOO_LARGE;
    }
    if (large && words > FXT_MAX_LARGE_RECORD_WORDS) {
        return FXT_E_RECORD_TOO_LARGE;
    }
    *size = (size_t)(words * 8);
    if (buf == NULL || words * 8 > cap) {
        return FXT_E_BUFFER_FULL;
    }
    c->p = buf;
    c->swap = 0;
    return FXT_OK;
}

#define START(size)                                                                                          \
    do {                                                                                                     \
        if ((size) == NULL) {                                                                                \
            return FXT_E_INVALID_ARG;                                                                        \
        }                                                                                                    \
        *(size) = 0;                                                                                         \
    } while (0)

/* ---- metadata, init, tables -------------------------------------------------------------- */

static fxt_status one_word(void *buf, size_t cap, size_t *size, uint64_t word) {
    cur_t c;
    START(size);
    TRY(fit(buf, cap, size, 1, 0, &c));
    cput(&c, word);
    return FXT_OK;
}

fxt_status fxt_encode_magic(void *buf, size_t cap, size_t *size) {
    return one_word(buf, cap, size, fxt__hdr_magic());
}

fxt_status fxt_encode_provider_info(void *buf, size_t cap, size_t *size, uint32_t provider_id,
                                    fxt_str_t name) {
    cur_t c;
    START(size);
    TRY(fxt__check_provider_name(name));
    TRY(fit(buf, cap, size, 1 + fxt_words(name.len), 0, &c));
    cput(&c, fxt__hdr_provider_info(provider_id, name.len));
    cstream(&c, name.ptr, name.len);
    return FXT_OK;
}

fxt_status fxt_encode_provider_section(void *buf, size_t cap, size_t *size, uint32_t provider_id) {
    return one_word(buf, cap, size, fxt__hdr_provider_section(provider_id));
}

fxt_status fxt_encode_provider_event(void *buf, size_t cap, size_t *size, uint32_t provider_id,
                                     uint32_t event) {
    TRY(fxt__check_provider_event(event));
    return one_word(buf, cap, size, fxt__hdr_provider_event(provider_id, event));
}

fxt_status fxt_encode_trace_info(void *buf, size_t cap, size_t *size, uint32_t info_type, uint64_t data) {
    TRY(fxt__check_trace_info(info_type, data));
    return one_word(buf, cap, size, fxt__hdr_trace_info(info_type, data));
}

fxt_status fxt_encode_init(void *buf, size_t cap, size_t *size, uint64_t ticks_per_second) {
    cur_t c;
    START(size);
    if (ticks_per_second == 0) {
        return FXT_E_INVALID_ARG;
    }
    TRY(fit(buf, cap, size, 2, 0, &c));
    cput(&c, fxt__hdr_init());
    cput(&c, ticks_per_second);
    return FXT_OK;
}

fxt_status fxt_encode_string(void *buf, size_t cap, size_t *size, uint32_t index, fxt_str_t value) {
    cur_t c;
    START(size);
    if (index == 0 || index > FXT_MAX_STRING_INDEX) {
        return FXT_E_BAD_INDEX;
    }
    if (value.ptr == NULL && value.len != 0) {
        return FXT_E_INVALID_ARG;
    }
    uint32_t len = fxt__str_clamp(value.ptr, value.len);
    TRY(fit(buf, cap, size, 1 + fxt_words(len), 0, &c));
    cput(&c, fxt__hdr_string(index, len));
    cstream(&c, value.ptr, len);
    return FXT_OK;
}

fxt_status fxt_encode_thread(void *buf, size_t cap, size_t *size, uint32_t index, uint64_t pid,
                             uint64_t tid) {
    cur_t c;
    START(size);
    if (index == 0 || index > FXT_MAX_THREAD_INDEX) {
        return FXT_E_BAD_INDEX;
    }
    TRY(fit(buf, cap, size, 3, 0, &c));
    cput(&c, fxt__hdr_thread(index));
    cput(&c, pid);
    cput(&c, tid);
    return FXT_OK;
}

/* ---- events and objects ------------------------------------------------------------------- */

fxt_status fxt__encode_event(void *buf, size_t cap, size_t *size, const fxt_event_desc_t *ev, int swap) {
    cur_t c;
    START(size);
    if (ev == NULL || ev->type >= FXT_EVENT_TYPE_COUNT || (ev->nextra != 0 && ev->extra == NULL)) {
        return FXT_E_INVALID_ARG;
    }
    et_t t;
    es_t cat, name;
    eargs_t ea;
    TRY(et_prep(ev->thread, &t));
    TRY(es_prep(ev->category, &cat));
    TRY(es_prep(ev->name, &name));
    TRY(eargs_prep(ev->args, ev->nargs, &ea));
    int has_id = fxt_event_has_id(ev->type);
    int has_end = fxt_event_has_end_ts(ev->type);
    uint64_t words = 2 + et_words(&t) + es_words(&cat) + es_words(&name) + ea.words +
                     fxt__event_tail_words(ev->type) + ev->nextra;
    TRY(fit(buf, cap, size, words, 0, &c));
    c.swap = swap;
    cput(&c, fxt__hdr_event(ev->type, ea.n, t.ref, cat.ref, name.ref, words));
    cput(&c, ev->ts);
    cthr(&c, &t);
    cstr(&c, &cat);
    cstr(&c, &name);
    cargs(&c, ev->args, &ea);
    if (has_id) {
        cput(&c, ev->id);
    } else if (has_end) {
        cput(&c, ev->end_ts);
    }
    for (unsigned i = 0; i < ev->nextra; i++) {
        cput(&c, ev->extra[i]);
    }
    return FXT_OK;
}

fxt_status fxt_encode_blob(void *buf, size_t cap, size_t *size, fxt_str_t name, uint32_t blob_type,
                           const void *data, size_t data_size) {
    cur_t c;
    START(size);
    TRY(fxt__check_blob(blob_type, data, data_size));
    es_t nm;
    TRY(es_prep(name, &nm));
    uint64_t words = 1 + es_words(&nm) + fxt_words(data_size);
    TRY(fit(buf, cap, size, words, 0, &c));
    cput(&c, fxt__hdr_blob(words, nm.ref, data_size, blob_type));
    cstr(&c, &nm);
    cstream(&c, data, data_size);
    return FXT_OK;
}

fxt_status fxt_encode_userspace_object(void *buf, size_t cap, size_t *size, uint64_t ptr,
                                       fxt_thread_ref_t process, fxt_str_t name, const fxt_arg_t *args,
                                       unsigned nargs) {
    cur_t c;
    START(size);
    et_t p;
    es_t nm;
    eargs_t ea;
    TRY(et_prep(process, &p));
    TRY(es_prep(name, &nm));
    TRY(eargs_prep(args, nargs, &ea));
    /* an inline process ref is ONE koid word (the spec; the Rust reader agrees) */
    uint64_t words = 2 + (p.ref == FXT_THREADREF_INLINE ? 1u : 0u) + es_words(&nm) + ea.words;
    TRY(fit(buf, cap, size, words, 0, &c));
    cput(&c, fxt__hdr_userspace_object(words, p.ref, nm.ref, ea.n));
    cput(&c, ptr);
    if (p.ref == FXT_THREADREF_INLINE) {
        cput(&c, p.pid);
    }
    cstr(&c, &nm);
    cargs(&c, args, &ea);
    return FXT_OK;
}

fxt_status fxt_encode_kernel_object(void *buf, size_t cap, size_t *size, uint64_t koid, uint32_t obj_type,
                                    fxt_str_t name, const fxt_arg_t *args, unsigned nargs) {
    cur_t c;
    START(size);
    TRY(fxt__check_object_type(obj_type));
    es_t nm;
    eargs_t ea;
    TRY(es_prep(name, &nm));
    TRY(eargs_prep(args, nargs, &ea));
    uint64_t words = 2 + es_words(&nm) + ea.words;
    TRY(fit(buf, cap, size, words, 0, &c));
    cput(&c, fxt__hdr_kernel_object(words, obj_type, nm.ref, ea.n));
    cput(&c, koid);
    cstr(&c, &nm);
    cargs(&c, args, &ea);
    return FXT_OK;
}

/* ---- scheduling, log, large blob --------------------------------------------------------------- */

fxt_status fxt_encode_context_switch(void *buf, size_t cap, size_t *size, uint64_t ts, uint32_t cpu,
                                     uint32_t out_state, uint64_t out_tid, uint64_t in_tid,
                                     const fxt_arg_t *args, unsigned nargs) {
    cur_t c;
    START(size);
    TRY(fxt__check_context_switch(cpu, out_state));
    eargs_t ea;
    TRY(eargs_prep(args, nargs, &ea));
    uint64_t words = 4 + ea.words;
    TRY(fit(buf, cap, size, words, 0, &c));
    cput(&c, fxt__hdr_context_switch(words, ea.n, cpu, out_state));
    cput(&c, ts);
    cput(&c, out_tid);
    cput(&c, in_tid);
    cargs(&c, args, &ea);
    return FXT_OK;
}

fxt_status fxt_encode_thread_wakeup(void *buf, size_t cap, size_t *size, uint64_t ts, uint32_t cpu,
                                    uint64_t tid, const fxt_arg_t *args, unsigned nargs) {
    cur_t c;
    START(size);
    TRY(fxt__check_thread_wakeup(cpu));
    eargs_t ea;
    TRY(eargs_prep(args, nargs, &ea));
    uint64_t words = 3 + ea.words;
    TRY(fit(buf, cap, size, words, 0, &c));
    cput(&c, fxt__hdr_thread_wakeup(words, ea.n, cpu));
    cput(&c, ts);
    cput(&c, tid);
    cargs(&c, args, &ea);
    return FXT_OK;
}

fxt_status fxt_encode_legacy_context_switch(void *buf, size_t cap, size_t *size, uint64_t ts, uint32_t cpu,
                                            uint32_t out_state, fxt_thread_ref_t out, fxt_thread_ref_t in,
                                            uint32_t out_prio, uint32_t in_prio) {
    cur_t c;
    START(size);
    TRY(fxt__check_legacy_context_switch(cpu, out_state, out_prio, in_prio));
    et_t o, i;
    TRY(et_prep(out, &o));
    TRY(et_prep(in, &i));
    uint64_t words = 2 + et_words(&o) + et_words(&i);
    TRY(fit(buf, cap, size, words, 0, &c));
    cput(&c, fxt__hdr_legacy_context_switch(words, cpu, out_state, o.ref, i.ref, out_prio, in_prio));
    cput(&c, ts);
    cthr(&c, &o);
    cthr(&c, &i);
    return FXT_OK;
}

fxt_status fxt_encode_log(void *buf, size_t cap, size_t *size, uint64_t ts, fxt_thread_ref_t thread,
                          fxt_str_t message) {
    cur_t c;
    START(size);
    if (message.ptr == NULL && message.len != 0) {
        return FXT_E_INVALID_ARG;
    }
    et_t t;
    TRY(et_prep(thread, &t));
    uint32_t len = fxt__str_clamp(message.ptr, message.len);
    uint64_t words = 2 + et_words(&t) + fxt_words(len);
    TRY(fit(buf, cap, size, words, 0, &c));
    cput(&c, fxt__hdr_log(words, len, t.ref));
    cput(&c, ts);
    cthr(&c, &t);
    cstream(&c, message.ptr, len);
    return FXT_OK;
}

fxt_status fxt_encode_large_blob(void *buf, size_t cap, size_t *size, const fxt_large_blob_desc_t *b) {
    cur_t c;
    START(size);
    if (b == NULL || b->format > FXT_LARGE_BLOB_NO_METADATA || (b->data == NULL && b->size != 0)) {
        return FXT_E_INVALID_ARG;
    }
    es_t cat, name;
    et_t t = {0, 0, 0};
    eargs_t ea;
    ea.n = 0;
    ea.words = 0;
    int meta = b->format == FXT_LARGE_BLOB_WITH_METADATA;
    TRY(es_prep(b->category, &cat));
    TRY(es_prep(b->name, &name));
    if (meta) {
        TRY(et_prep(b->thread, &t));
        TRY(eargs_prep(b->args, b->nargs, &ea));
    }
    uint64_t head = 2 + es_words(&cat) + es_words(&name) + (meta ? 1 + et_words(&t) + ea.words : 0) + 1;
    if (b->size > (FXT_MAX_LARGE_RECORD_WORDS - head) * 8) {
        return FXT_E_RECORD_TOO_LARGE;
    }
    uint64_t words = head + fxt_words(b->size);
    TRY(fit(buf, cap, size, words, 1, &c));
    cput(&c, fxt__hdr_large_blob(words, b->format));
    cput(&c, fxt__large_blob_format_word(cat.ref, name.ref, meta, ea.n, t.ref));
    cstr(&c, &cat);
    cstr(&c, &name);
    if (meta) {
        cput(&c, b->ts);
        cthr(&c, &t);
        cargs(&c, b->args, &ea);
    }
    cput(&c, b->size);
    cstream(&c, b->data, (size_t)b->size);
    return FXT_OK;
}

fxt_status fxt_encode_event(void *buf, size_t cap, size_t *size, const fxt_event_desc_t *ev) {
    return fxt__encode_event(buf, cap, size, ev, 0);
}
