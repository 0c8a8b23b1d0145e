/*
 * Stateless encoders: one record into a caller buffer, host byte order, with
 * explicit string and thread refs (no interning). Every check is made before
 * the first byte is stored, so on error the buffer is untouched.
 */
#include <fxt/writer.h>

#include "writer_internal.h"

/* A string resolved for encoding: its ref and, when inline, its bytes. */
typedef struct es {
    uint16_t ref;
    uint32_t len;
    const char *p;
} es_t;

static fxt_status es_prep(fxt_str_t s, es_t *o) {
    o->len = 0;
    o->p = NULL;
    if (s.ref != 0 && !fxt_strref_is_inline(s.ref)) {
        o->ref = s.ref; /* explicit table index */
        return FXT_OK;
    }
    if (s.ptr == NULL && s.len != 0) {
        return FXT_E_INVALID_ARG;
    }
    uint32_t len = fxt__utf8_clamp(s.ptr, s.len);
    if (len == 0) {
        o->ref = FXT_STRREF_EMPTY;
        return FXT_OK;
    }
    o->ref = fxt_strref_inline((uint16_t)len);
    o->len = len;
    o->p = s.ptr;
    return FXT_OK;
}

typedef struct et {
    uint8_t ref;
    uint64_t pid, tid;
} et_t;

static fxt_status et_prep(fxt_tref_t t, et_t *o) {
    if (t.index > FXT_MAX_THREAD_INDEX) {
        return FXT_E_BAD_INDEX;
    }
    o->ref = (uint8_t)t.index;
    o->pid = t.pid;
    o->tid = t.tid;
    return FXT_OK;
}

static inline uint64_t es_words(const es_t *s) { return fxt_words(s->len); }
static inline uint64_t et_words(const et_t *t) { return t->ref == FXT_THREADREF_INLINE ? 2 : 0; }

typedef struct eargs {
    unsigned n;
    uint64_t words;
    es_t name[FXT_MAX_ARGS];
    es_t sval[FXT_MAX_ARGS];
} eargs_t;

static fxt_status eargs_prep(const fxt_warg_t *args, unsigned nargs, eargs_t *o) {
    if (nargs > FXT_MAX_ARGS) {
        return FXT_E_TOO_MANY_ARGS;
    }
    if (nargs != 0 && args == NULL) {
        return FXT_E_INVALID_ARG;
    }
    o->n = nargs;
    o->words = 0;
    for (unsigned i = 0; i < nargs; i++) {
        const fxt_warg_t *a = &args[i];
        if (a->type >= FXT_ARG_TYPE_COUNT) {
            return FXT_E_BAD_ARG;
        }
        fxt_status st = es_prep(a->name, &o->name[i]);
        if (st != FXT_OK) {
            return st;
        }
        uint64_t words = 1 + es_words(&o->name[i]) + fxt__arg_value_words(a->type);
        if (a->type == FXT_ARG_STRING) {
            st = es_prep(a->str, &o->sval[i]);
            if (st != FXT_OK) {
                return st;
            }
            words += es_words(&o->sval[i]);
        }
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

static inline void cput(cur_t *c, uint64_t v) {
    fxt_store64(c->p, c->swap ? fxt_bswap64(v) : v);
    c->p += 8;
}

static inline void cstream(cur_t *c, const void *p, size_t n) {
    size_t padded = (size_t)fxt_pad8(n);
    if (n != 0) {
        memcpy(c->p, p, n);
    }
    if (padded != n) {
        memset(c->p + n, 0, padded - n);
    }
    c->p += padded;
}

static inline void cstr(cur_t *c, const es_t *s) {
    if (s->len != 0) {
        cstream(c, s->p, s->len);
    }
}

static inline void cthr(cur_t *c, const et_t *t) {
    if (t->ref == FXT_THREADREF_INLINE) {
        cput(c, t->pid);
        cput(c, t->tid);
    }
}

static void cargs(cur_t *c, const fxt_warg_t *args, const eargs_t *ea) {
    for (unsigned i = 0; i < ea->n; i++) {
        const fxt_warg_t *a = &args[i];
        const es_t *nm = &ea->name[i];
        uint64_t words = 1 + es_words(nm) + fxt__arg_value_words(a->type);
        uint64_t data = 0;
        switch (a->type) {
        case FXT_ARG_INT32: data = fxt_put_arg_i32((uint32_t)a->v.i32); break;
        case FXT_ARG_UINT32: data = fxt_put_arg_i32(a->v.u32); break;
        case FXT_ARG_STRING:
            data = fxt_put_arg_str_value(ea->sval[i].ref);
            words += es_words(&ea->sval[i]);
            break;
        case FXT_ARG_BOOL: data = fxt_put_arg_bool(a->v.boolean ? 1u : 0u); break;
        default: break;
        }
        cput(c, fxt_put_arg_type(a->type) | fxt_put_arg_size(words) | fxt_put_arg_name(nm->ref) | data);
        cstr(c, nm);
        if (fxt__arg_value_words(a->type)) {
            uint64_t v;
            if (a->type == FXT_ARG_DOUBLE) {
                memcpy(&v, &a->v.f64, sizeof v);
            } else if (a->type == FXT_ARG_INT64) {
                v = (uint64_t)a->v.i64;
            } else {
                v = a->v.u64;
            }
            cput(c, v);
        } else if (a->type == FXT_ARG_STRING) {
            cstr(c, &ea->sval[i]);
        }
    }
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

#define TRY(expr)                                                                              \
    do {                                                                                       \
        fxt_status st_ = (expr);                                                               \
        if (st_ != FXT_OK) {                                                                   \
            return st_;                                                                        \
        }                                                                                      \
    } while (0)

#define START(size)                                                                            \
    do {                                                                                       \
        if ((size) == NULL) {                                                                  \
            return FXT_E_INVALID_ARG;                                                          \
        }                                                                                      \
        *(size) = 0;                                                                           \
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
    return one_word(buf, cap, size, FXT_MAGIC_RECORD);
}

fxt_status fxt_encode_provider_info(void *buf, size_t cap, size_t *size, uint32_t provider_id,
                                    fxt_str_t name) {
    cur_t c;
    START(size);
    if (name.ptr == NULL && name.len != 0) {
        return FXT_E_INVALID_ARG;
    }
    if (name.len > FXT_MAX_PROVIDER_NAME_LEN) {
        return FXT_E_STRING_TOO_LONG;
    }
    uint64_t words = 1 + fxt_words(name.len);
    TRY(fit(buf, cap, size, words, 0, &c));
    cput(&c, fxt_put_rec_type(FXT_RECORD_METADATA) | fxt_put_rec_size(words) |
                 fxt_put_meta_type(FXT_META_PROVIDER_INFO) | fxt_put_meta_provider_id(provider_id) |
                 fxt_put_meta_name_len(name.len));
    cstream(&c, name.ptr, name.len);
    return FXT_OK;
}

fxt_status fxt_encode_provider_section(void *buf, size_t cap, size_t *size, uint32_t provider_id) {
    return one_word(buf, cap, size,
                    fxt_put_rec_type(FXT_RECORD_METADATA) | fxt_put_rec_size(1) |
                        fxt_put_meta_type(FXT_META_PROVIDER_SECTION) | fxt_put_meta_provider_id(provider_id));
}

fxt_status fxt_encode_provider_event(void *buf, size_t cap, size_t *size, uint32_t provider_id,
                                     uint32_t event) {
    if (event > 15) {
        return FXT_E_INVALID_ARG;
    }
    return one_word(buf, cap, size,
                    fxt_put_rec_type(FXT_RECORD_METADATA) | fxt_put_rec_size(1) |
                        fxt_put_meta_type(FXT_META_PROVIDER_EVENT) | fxt_put_meta_provider_id(provider_id) |
                        fxt_put_meta_event_id(event));
}

fxt_status fxt_encode_trace_info(void *buf, size_t cap, size_t *size, uint32_t info_type, uint64_t data) {
    if (info_type == FXT_TRACE_INFO_MAGIC || info_type > 15 || (data >> 40) != 0) {
        return FXT_E_INVALID_ARG;
    }
    return one_word(buf, cap, size,
                    fxt_put_rec_type(FXT_RECORD_METADATA) | fxt_put_rec_size(1) |
                        fxt_put_meta_type(FXT_META_TRACE_INFO) | fxt_put_meta_trace_info_type(info_type) |
                        fxt_put_meta_trace_info_data(data));
}

fxt_status fxt_encode_init(void *buf, size_t cap, size_t *size, uint64_t ticks_per_second) {
    cur_t c;
    START(size);
    if (ticks_per_second == 0) {
        return FXT_E_INVALID_ARG;
    }
    TRY(fit(buf, cap, size, 2, 0, &c));
    cput(&c, fxt_put_rec_type(FXT_RECORD_INITIALIZATION) | fxt_put_rec_size(2));
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
    uint32_t len = fxt__utf8_clamp(value.ptr, value.len);
    uint64_t words = 1 + fxt_words(len);
    TRY(fit(buf, cap, size, words, 0, &c));
    cput(&c, fxt_put_rec_type(FXT_RECORD_STRING) | fxt_put_rec_size(words) | fxt_put_string_index(index) |
                 fxt_put_string_len(len));
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
    cput(&c, fxt_put_rec_type(FXT_RECORD_THREAD) | fxt_put_rec_size(3) | fxt_put_thread_index(index));
    cput(&c, pid);
    cput(&c, tid);
    return FXT_OK;
}

/* ---- events and objects ------------------------------------------------------------------- */

fxt_status fxt__encode_event(void *buf, size_t cap, size_t *size, const fxt_enc_event_t *ev, int swap) {
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
    int has_id = ev->type == FXT_EVENT_COUNTER ||
                 (ev->type >= FXT_EVENT_ASYNC_BEGIN && ev->type <= FXT_EVENT_FLOW_END);
    int has_end = ev->type == FXT_EVENT_DURATION_COMPLETE;
    uint64_t words = 2 + et_words(&t) + es_words(&cat) + es_words(&name) + ea.words +
                     (uint64_t)(has_id || has_end) + ev->nextra;
    TRY(fit(buf, cap, size, words, 0, &c));
    c.swap = swap;
    cput(&c, fxt_event_header(ev->type, ea.n, t.ref, cat.ref, name.ref, words));
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
    if (blob_type > 0xff || (data == NULL && data_size != 0)) {
        return FXT_E_INVALID_ARG;
    }
    if (data_size > 0x7fff) {
        return FXT_E_RECORD_TOO_LARGE;
    }
    es_t nm;
    TRY(es_prep(name, &nm));
    uint64_t words = 1 + es_words(&nm) + fxt_words(data_size);
    TRY(fit(buf, cap, size, words, 0, &c));
    cput(&c, fxt_put_rec_type(FXT_RECORD_BLOB) | fxt_put_rec_size(words) | fxt_put_blob_name(nm.ref) |
                 fxt_put_blob_size(data_size) | fxt_put_blob_type(blob_type));
    cstr(&c, &nm);
    cstream(&c, data, data_size);
    return FXT_OK;
}

fxt_status fxt_encode_userspace_object(void *buf, size_t cap, size_t *size, uint64_t ptr, fxt_tref_t process,
                                       fxt_str_t name, const fxt_warg_t *args, unsigned nargs) {
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
    cput(&c, fxt_put_rec_type(FXT_RECORD_USERSPACE_OBJECT) | fxt_put_rec_size(words) |
                 fxt_put_uobj_process(p.ref) | fxt_put_uobj_name(nm.ref) | fxt_put_uobj_nargs(ea.n));
    cput(&c, ptr);
    if (p.ref == FXT_THREADREF_INLINE) {
        cput(&c, p.pid);
    }
    cstr(&c, &nm);
    cargs(&c, args, &ea);
    return FXT_OK;
}

fxt_status fxt_encode_kernel_object(void *buf, size_t cap, size_t *size, uint64_t koid, uint32_t obj_type,
                                    fxt_str_t name, const fxt_warg_t *args, unsigned nargs) {
    cur_t c;
    START(size);
    if (obj_type > 0xff) {
        return FXT_E_INVALID_ARG;
    }
    es_t nm;
    eargs_t ea;
    TRY(es_prep(name, &nm));
    TRY(eargs_prep(args, nargs, &ea));
    uint64_t words = 2 + es_words(&nm) + ea.words;
    TRY(fit(buf, cap, size, words, 0, &c));
    cput(&c, fxt_put_rec_type(FXT_RECORD_KERNEL_OBJECT) | fxt_put_rec_size(words) | fxt_put_kobj_type(obj_type) |
                 fxt_put_kobj_name(nm.ref) | fxt_put_kobj_nargs(ea.n));
    cput(&c, koid);
    cstr(&c, &nm);
    cargs(&c, args, &ea);
    return FXT_OK;
}

/* ---- scheduling, log, large blob --------------------------------------------------------------- */

fxt_status fxt_encode_context_switch(void *buf, size_t cap, size_t *size, uint64_t ts, uint32_t cpu,
                                     uint32_t out_state, uint64_t out_tid, uint64_t in_tid,
                                     const fxt_warg_t *args, unsigned nargs) {
    cur_t c;
    START(size);
    if (cpu > 0xffff || out_state > 15) {
        return FXT_E_INVALID_ARG;
    }
    eargs_t ea;
    TRY(eargs_prep(args, nargs, &ea));
    uint64_t words = 4 + ea.words;
    TRY(fit(buf, cap, size, words, 0, &c));
    cput(&c, fxt_put_rec_type(FXT_RECORD_SCHEDULING) | fxt_put_rec_size(words) | fxt_put_cswitch_nargs(ea.n) |
                 fxt_put_cswitch_cpu(cpu) | fxt_put_cswitch_out_state(out_state) |
                 fxt_put_sched_type(FXT_SCHED_CONTEXT_SWITCH));
    cput(&c, ts);
    cput(&c, out_tid);
    cput(&c, in_tid);
    cargs(&c, args, &ea);
    return FXT_OK;
}

fxt_status fxt_encode_thread_wakeup(void *buf, size_t cap, size_t *size, uint64_t ts, uint32_t cpu,
                                    uint64_t tid, const fxt_warg_t *args, unsigned nargs) {
    cur_t c;
    START(size);
    if (cpu > 0xffff) {
        return FXT_E_INVALID_ARG;
    }
    eargs_t ea;
    TRY(eargs_prep(args, nargs, &ea));
    uint64_t words = 3 + ea.words;
    TRY(fit(buf, cap, size, words, 0, &c));
    cput(&c, fxt_put_rec_type(FXT_RECORD_SCHEDULING) | fxt_put_rec_size(words) | fxt_put_wakeup_nargs(ea.n) |
                 fxt_put_wakeup_cpu(cpu) | fxt_put_sched_type(FXT_SCHED_THREAD_WAKEUP));
    cput(&c, ts);
    cput(&c, tid);
    cargs(&c, args, &ea);
    return FXT_OK;
}

fxt_status fxt_encode_legacy_context_switch(void *buf, size_t cap, size_t *size, uint64_t ts, uint32_t cpu,
                                            uint32_t out_state, fxt_tref_t out, fxt_tref_t in,
                                            uint32_t out_prio, uint32_t in_prio) {
    cur_t c;
    START(size);
    if (cpu > 0xff || out_state > 15 || out_prio > 0xff || in_prio > 0xff) {
        return FXT_E_INVALID_ARG;
    }
    et_t o, i;
    TRY(et_prep(out, &o));
    TRY(et_prep(in, &i));
    uint64_t words = 2 + et_words(&o) + et_words(&i);
    TRY(fit(buf, cap, size, words, 0, &c));
    cput(&c, fxt_put_rec_type(FXT_RECORD_SCHEDULING) | fxt_put_rec_size(words) | fxt_put_lcswitch_cpu(cpu) |
                 fxt_put_lcswitch_out_state(out_state) | fxt_put_lcswitch_out_thread(o.ref) |
                 fxt_put_lcswitch_in_thread(i.ref) | fxt_put_lcswitch_out_prio(out_prio) |
                 fxt_put_lcswitch_in_prio(in_prio) | fxt_put_sched_type(FXT_SCHED_LEGACY_CONTEXT_SWITCH));
    cput(&c, ts);
    cthr(&c, &o);
    cthr(&c, &i);
    return FXT_OK;
}

fxt_status fxt_encode_log(void *buf, size_t cap, size_t *size, uint64_t ts, fxt_tref_t thread,
                          fxt_str_t message) {
    cur_t c;
    START(size);
    if (message.ptr == NULL && message.len != 0) {
        return FXT_E_INVALID_ARG;
    }
    et_t t;
    TRY(et_prep(thread, &t));
    uint32_t len = fxt__utf8_clamp(message.ptr, message.len);
    uint64_t words = 2 + et_words(&t) + fxt_words(len);
    TRY(fit(buf, cap, size, words, 0, &c));
    cput(&c, fxt_put_rec_type(FXT_RECORD_LOG) | fxt_put_rec_size(words) | fxt_put_log_len(len) |
                 fxt_put_log_thread(t.ref));
    cput(&c, ts);
    cthr(&c, &t);
    cstream(&c, message.ptr, len);
    return FXT_OK;
}

fxt_status fxt_encode_large_blob(void *buf, size_t cap, size_t *size, const fxt_enc_large_blob_t *b) {
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
    cput(&c, fxt_put_rec_type(FXT_RECORD_LARGE) | fxt_put_large_size(words) | fxt_put_large_type(FXT_LARGE_BLOB) |
                 fxt_put_large_blob_format(b->format));
    uint64_t fh = fxt_put_lblob_category(cat.ref) | fxt_put_lblob_name(name.ref);
    if (meta) {
        fh |= fxt_put_lblob_nargs(ea.n) | fxt_put_lblob_thread(t.ref);
    }
    cput(&c, fh);
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

fxt_status fxt_encode_event(void *buf, size_t cap, size_t *size, const fxt_enc_event_t *ev) {
    return fxt__encode_event(buf, cap, size, ev, 0);
}
