/* SPDX-License-Identifier: MIT */
/*
 * The FXT reader: record framing over whole buffers or chunked input, and the
 * decoding of every record type into zero-copy views.
 *
 * Framing: a record lying entirely inside the caller's buffer is decoded in
 * place; one that straddles chunks is reassembled in `pend` (bounded by
 * max_record_bytes). Decoding checks every read against the record's own size
 * before it happens, so no input can make it read out of bounds, and it
 * changes reader state only once the whole record has been validated.
 */
#include "attrs.h"
#include "options.h"
#include "reader_state.h"

#include <fxt/reader.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bounds reassembly memory only; whole-buffer input has no limit (docs/reader.md). */
#define DEFAULT_MAX_RECORD_BYTES (UINT64_C(256) << 20)

struct fxt_reader {
    uint32_t flags;
    uint64_t max_record_bytes;

    int order_known; /* byte order decided (by the first header word) */
    int swapped;     /* trace words are in the opposite order of the host's */
    int stopped;     /* a fatal error was reported: ignore further input */
    uint64_t offset; /* input bytes consumed so far */

    fxt__provider_t none; /* context before any provider info/section record */
    fxt__provider_t *cur;
    fxt__provider_map_t providers;

    /* A record straddling input chunks, being reassembled. */
    uint8_t *pend;
    size_t pend_cap;
    size_t pend_len;    /* bytes held */
    uint64_t pend_size; /* the record's size in bytes; 0 while its header is incomplete */
    uint64_t pend_off;

    /* An oversized record (> max_record_bytes) being skipped. */
    uint64_t skip;
    uint64_t skip_off;
    uint64_t skip_size;

    fxt_diag_t diag;

    /* FXT_READ_LAZY_ARGS: where the last record's validated, undecoded arguments are (its
     * words, as the record views, valid until the next call); count 0 = none pending. */
    struct {
        const uint8_t *p;
        uint64_t n, i, off, header;
        int sw;
        unsigned count;
    } lazy;
};

static const char empty_str[1] = "";

/* ---- diagnostics ----------------------------------------------------------- */

/* Records a diagnostic (fxt_reader_diag) and returns ST, so error paths are one statement. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 5, 6)))
#endif
static fxt_status
fail(fxt_reader_t *r, fxt_status st, uint64_t off, uint64_t header, const char *fmt, ...) {
    va_list ap;
    r->diag.status = st;
    r->diag.offset = off;
    r->diag.header = header;
    r->diag.record_type = (uint8_t)fxt_get_rec_type(header);
    va_start(ap, fmt);
    vsnprintf(r->diag.msg, sizeof r->diag.msg, fmt, ap);
    va_end(ap);
    return st;
}

/* ---- lifecycle ---------------------------------------------------------------- */

/* Options are optional: NULL gives the defaults (flags 0, 256 MiB reassembly limit). */
fxt_status fxt_reader_create(const fxt_reader_options_t *opt, fxt_reader_t **out) {
    if (out == NULL) {
        return FXT_E_INVALID_ARG;
    }
    *out = NULL;
    fxt_reader_options_t o = FXT_READER_OPTIONS_INIT;
    if (fxt__options_read(&o, sizeof o, opt) != FXT_OK) {
        return FXT_E_INVALID_ARG;
    }
    fxt_reader_t *r = calloc(1, sizeof *r);
    if (r == NULL) {
        return FXT_E_NOMEM;
    }
    r->flags = o.flags;
    r->max_record_bytes = o.max_record_bytes != 0 ? o.max_record_bytes : DEFAULT_MAX_RECORD_BYTES;
    /* A header word must always fit, or no record could ever be framed. */
    if (r->max_record_bytes < 8) {
        r->max_record_bytes = 8;
    }
    fxt__provider_init(&r->none, 0, 0);
    r->cur = &r->none;
    *out = r;
    return FXT_OK;
}

void fxt_reader_destroy(fxt_reader_t *r) {
    if (r == NULL) {
        return;
    }
    fxt__provider_free(&r->none);
    fxt__provider_map_free(&r->providers);
    free(r->pend);
    free(r);
}

/* Providers kept (emptied) by a reset; more are freed, so a reader reused after a trace with
 * very many provider ids does not keep them all (nor count them against the provider limit). */
#define RESET_KEEP_PROVIDERS 64

/* Back to the state of a new reader (new trace). The pend buffer and the providers' tables are
 * kept, emptied: an emptied provider behaves as one never seen (fxt__provider_get would create
 * it in the same state), and reusing its string buffers spares the allocations. */
void fxt_reader_reset(fxt_reader_t *r) {
    if (r == NULL) {
        return;
    }
    fxt__provider_clear(&r->none);
    if (r->providers.count > RESET_KEEP_PROVIDERS) {
        fxt__provider_map_free(&r->providers);
    }
    for (size_t i = 0; i < r->providers.cap; i++) {
        if (r->providers.slots[i] != NULL) {
            fxt__provider_clear(r->providers.slots[i]);
        }
    }
    r->cur = &r->none;
    r->order_known = r->swapped = r->stopped = 0;
    r->offset = 0;
    r->pend_len = 0;
    r->pend_size = 0;
    r->pend_off = 0;
    r->skip = r->skip_off = r->skip_size = 0;
    memset(&r->diag, 0, sizeof r->diag);
    r->lazy.count = 0;
}

/* Copies one provider's tables into D (empty, maybe with recycled buffers): the strings, threads and objects
 * in effect. */
static fxt_status copy_provider(fxt__provider_t *d, const fxt__provider_t *s) {
    d->ticks_per_second = s->ticks_per_second;
    for (uint32_t i = 1; i < s->strings_hi; i++) {
        const fxt__str_slot_t *sl = &s->strings[i];
        if (sl->set && fxt__string_set(d, (uint16_t)i, sl->buf ? sl->buf : empty_str, sl->len) != FXT_OK) {
            return FXT_E_NOMEM;
        }
    }
    for (unsigned i = 1; s->threads != NULL && i < 256; i++) {
        const fxt__thread_slot_t *t = &s->threads[i];
        if (t->set && fxt__thread_set(d, (uint8_t)i, t->pid, t->tid) != FXT_OK) {
            return FXT_E_NOMEM;
        }
    }
    const fxt__obj_map_t *maps[2] = {&s->kobjs, &s->uobjs};
    fxt__obj_map_t *dmaps[2] = {&d->kobjs, &d->uobjs};
    for (int k = 0; k < 2; k++) {
        for (size_t i = 0; i < maps[k]->cap; i++) {
            const fxt__obj_t *o = &maps[k]->slots[i];
            if (o->used && fxt__obj_put(dmaps[k], o->k1, o->k2, o->obj_type,
                                        o->has_name ? (o->name ? o->name : empty_str) : NULL, o->name_len,
                                        o->has_process, o->process_koid) != FXT_OK) {
                return FXT_E_NOMEM;
            }
        }
    }
    return FXT_OK;
}

/* The state of provider `id` for a provider info or section record. Records before any provider
 * record are provider 0's (Fuchsia's reader starts in a provider 0 of its own): provider 0, met
 * first, starts with their tables and tick rate. */
static fxt__provider_t *provider_switch(fxt_reader_t *r, uint32_t id, fxt_status *st) {
    int first0 = id == 0 && fxt__provider_find(&r->providers, 0) == NULL;
    fxt__provider_t *p = fxt__provider_get(&r->providers, id, st);
    if (p != NULL && first0 && (*st = copy_provider(p, &r->none)) != FXT_OK) {
        return NULL;
    }
    return p;
}

fxt_status fxt_reader_rebase(fxt_reader_t *r, uint64_t offset) {
    if (r == NULL) {
        return FXT_E_INVALID_ARG;
    }
    r->offset = offset;
    r->pend_len = 0;
    r->pend_size = 0;
    r->pend_off = 0;
    r->skip = r->skip_off = r->skip_size = 0;
    r->lazy.count = 0; /* offsets may repeat from here: no stale arguments */
    return FXT_OK;
}

/* A deep copy, so the two readers can then run on different threads. */
fxt_status fxt_reader_seed(fxt_reader_t *dst, const fxt_reader_t *src, uint64_t offset) {
    if (dst == NULL || src == NULL || dst == src) {
        return FXT_E_INVALID_ARG;
    }
    fxt_reader_reset(dst);
    dst->order_known = src->order_known;
    dst->swapped = src->swapped;
    dst->offset = offset;
    fxt_status st = copy_provider(&dst->none, &src->none);
    for (size_t i = 0; st == FXT_OK && i < src->providers.cap; i++) {
        const fxt__provider_t *p = src->providers.slots[i];
        if (p == NULL) {
            continue;
        }
        fxt__provider_t *d = fxt__provider_get(&dst->providers, p->id, &st);
        if (d != NULL) {
            st = copy_provider(d, p);
        }
        if (d != NULL && src->cur == p) {
            dst->cur = d;
        }
    }
    if (st != FXT_OK) {
        fxt_reader_reset(dst);
    }
    return st;
}

/* ---- decoding helpers ------------------------------------------------------------ */

/* A record being decoded: n words at p, in the trace's byte order. */
typedef struct cur {
    const uint8_t *p;
    uint64_t n;
    int sw;
} cur_t;

/* Every word load goes through memcpy (fxt_load64*): no alignment requirement on input. */
static inline uint64_t W(const cur_t *c, uint64_t i) { return fxt_load64_swapped(c->p + 8u * i, c->sw); }

/* Decode a string ref whose inline bytes (if any) start at word *i, below word `end`. */
static inline int take_str(const fxt__provider_t *prov, uint16_t ref, const cur_t *c, uint64_t end,
                           uint64_t *i, fxt_str_t *out) {
    out->ref = ref;
    out->unresolved = 0;
    if (ref & FXT_STRREF_INLINE_FLAG) {
        uint32_t len = fxt_strref_value(ref);
        uint64_t words = fxt_words(len);
        /* Compared as a word count left before END, so a huge length cannot overflow *i + words. */
        if (words > end - *i) {
            return -1;
        }
        out->ptr = (const char *)(c->p + 8u * *i);
        out->len = len;
        *i += words;
        return 0;
    }
    /* Index 0 is the empty string by the spec (String references), never a table lookup. */
    if (ref == FXT_STRREF_EMPTY) {
        out->ptr = empty_str;
        out->len = 0;
        return 0;
    }
    const fxt__str_slot_t *s = fxt__string_get(prov, ref);
    if (s != NULL) {
        out->ptr = s->buf;
        out->len = s->len;
    } else {
        /* An unregistered index is not an error: the record is still delivered with a NULL string
         * (dump contract), and fxt check reports it. */
        out->ptr = NULL;
        out->len = 0;
        out->unresolved = 1;
    }
    return 0;
}

/* Decodes a thread ref: inline refs take two words (process and thread koid) at word *i. */
static inline int take_thread(const fxt__provider_t *prov, uint8_t ref, const cur_t *c, uint64_t *i,
                              fxt_thread_ref_t *out) {
    out->ref = ref;
    if (ref == FXT_THREADREF_INLINE) {
        if (c->n - *i < 2) {
            return -1;
        }
        out->pid = W(c, *i);
        out->tid = W(c, *i + 1);
        out->resolved = 1;
        *i += 2;
        return 0;
    }
    const fxt__thread_slot_t *t = fxt__thread_get(prov, ref);
    if (t != NULL) {
        out->pid = t->pid;
        out->tid = t->tid;
        out->resolved = 1;
    } else {
        /* As for strings: an unregistered thread index leaves the ref unresolved, not an error. */
        out->pid = out->tid = 0;
        out->resolved = 0;
    }
    return 0;
}

/* Steps over a string ref's inline bytes (if any) at word *i, below word `end`: take_str's
 * bounds check without the table lookup, for arguments validated but not decoded. */
static inline int skip_str(uint16_t ref, uint64_t end, uint64_t *i) {
    if (ref & FXT_STRREF_INLINE_FLAG) {
        uint64_t words = fxt_words(fxt_strref_value(ref));
        if (words > end - *i) {
            return -1;
        }
        *i += words;
    }
    return 0;
}

/* An argument whose value (word, or inline string) does not fit its size. */
static fxt_status bad_value(fxt_reader_t *r, uint64_t off, uint64_t h, unsigned a, unsigned type, uint64_t ah,
                            uint64_t asz) {
    if (type == FXT_ARG_STRING) {
        return fail(r, FXT_E_BAD_ARG, off, h,
                    "argument %u (string): inline value (%u bytes) does not fit its size of %u words", a + 1,
                    (unsigned)fxt_strref_value((uint16_t)fxt_get_arg_str_value(ah)), (unsigned)asz);
    }
    return fail(r, FXT_E_BAD_ARG, off, h, "argument %u (%s): value word does not fit its size of %u words",
                a + 1, fxt_arg_type_name(type), (unsigned)asz);
}

/* Walks NARGS arguments from word *pi; each must lie inside the record, or the whole record is
 * rejected (and skipped by its size) before any state changes. STORE (a constant at each call)
 * 1 decodes them into rec->args, 0 only validates: the same checks, the same diagnostics
 * (FXT_READ_LAZY_ARGS). */
FXT__INLINE fxt_status args_walk(fxt_reader_t *r, fxt_record_t *rec, const cur_t *c, uint64_t *pi,
                                 unsigned nargs, uint64_t off, uint64_t h, int store) {
    const fxt__provider_t *prov = r->cur;
    uint64_t i = *pi;
    for (unsigned a = 0; a < nargs; a++) {
        if (i >= c->n) {
            return fail(r, FXT_E_BAD_ARG, off, h,
                        "argument %u of %u starts past the record end (record is %llu words)", a + 1, nargs,
                        (unsigned long long)c->n);
        }
        uint64_t ah = W(c, i);
        uint64_t asz = fxt_get_arg_size(ah);
        unsigned type = (unsigned)fxt_get_arg_type(ah);
        if (asz == 0) {
            return fail(r, FXT_E_BAD_ARG, off, h, "argument %u has size 0 (at byte %llu)", a + 1,
                        (unsigned long long)(off + 8u * i));
        }
        /* Compared as words left, so a large size cannot overflow i + asz. */
        if (asz > c->n - i) {
            return fail(r, FXT_E_BAD_ARG, off, h,
                        "argument %u (size %u words, at byte %llu) runs past the record end at byte %llu",
                        a + 1, (unsigned)asz, (unsigned long long)(off + 8u * i),
                        (unsigned long long)(off + 8u * c->n));
        }
        uint64_t end = i + asz;
        uint64_t j = i + 1;
        fxt_arg_t *arg = &rec->args[a];
        if (store) {
            arg->type = (uint8_t)type;
            arg->size_words = (uint16_t)asz;
            arg->header = ah;
        }
        if (store ? take_str(prov, (uint16_t)fxt_get_arg_name(ah), c, end, &j, &arg->name) != 0
                  : skip_str((uint16_t)fxt_get_arg_name(ah), end, &j) != 0) {
            return fail(r, FXT_E_BAD_ARG, off, h,
                        "argument %u: inline name (%u bytes) does not fit its size of %u words", a + 1,
                        (unsigned)fxt_strref_value((uint16_t)fxt_get_arg_name(ah)), (unsigned)asz);
        }
        if (!store) {
            /* The switch's checks without its stores (and without a jump per argument). */
            if (fxt_arg_has_value_word(type)
                    ? j >= end
                    : type == FXT_ARG_STRING && skip_str((uint16_t)fxt_get_arg_str_value(ah), end, &j) != 0) {
                return bad_value(r, off, h, a, type, ah, asz);
            }
            i = end;
            continue;
        }
        switch (type) {
        case FXT_ARG_NULL:
            break;
        case FXT_ARG_INT32:
            /* 32-bit values live in the header's upper half ([32..63]). */
            arg->v.i32 = (int32_t)(uint32_t)fxt_get_arg_i32(ah);
            break;
        case FXT_ARG_UINT32:
            arg->v.u32 = (uint32_t)fxt_get_arg_i32(ah);
            break;
        case FXT_ARG_INT64:
        case FXT_ARG_UINT64:
        case FXT_ARG_DOUBLE:
        case FXT_ARG_POINTER:
        case FXT_ARG_KOID: {
            /* The 64-bit value word must lie inside the argument's own size, not just the record's. */
            if (j >= end) {
                return bad_value(r, off, h, a, type, ah, asz);
            }
            uint64_t v = W(c, j);
            if (type == FXT_ARG_DOUBLE) {
                memcpy(&arg->v.f64, &v, sizeof v);
            } else {
                arg->v.u64 = v;
            }
            break;
        }
        case FXT_ARG_STRING:
            if (take_str(prov, (uint16_t)fxt_get_arg_str_value(ah), c, end, &j, &arg->str) != 0) {
                return bad_value(r, off, h, a, type, ah, asz);
            }
            break;
        case FXT_ARG_BOOL:
            /* The value is bit 32 (spec-notes: one writer put it at bit 16). */
            arg->v.boolean = (int)fxt_get_arg_bool(ah);
            break;
        default:
            break; /* unknown type: kept with its raw type, skipped by its size */
        }
        i = end;
    }
    if (store) {
        rec->nargs = nargs;
    }
    *pi = i;
    return FXT_OK;
}

/* FXT_READ_LAZY_ARGS: validates the arguments and remembers where they are (fxt_reader_args).
 * Out of line, so take_args' eager path keeps its own, smaller frame. */
FXT__NOINLINE fxt_status defer_args(fxt_reader_t *r, fxt_record_t *rec, const cur_t *c, uint64_t *pi,
                                    unsigned nargs, uint64_t off, uint64_t h) {
    uint64_t i0 = *pi;
    fxt_status st = args_walk(r, rec, c, pi, nargs, off, h, 0);
    if (st == FXT_OK && nargs != 0) {
        r->lazy.p = c->p;
        r->lazy.n = c->n;
        r->lazy.sw = c->sw;
        r->lazy.i = i0;
        r->lazy.off = off;
        r->lazy.header = h;
        r->lazy.count = nargs;
    }
    return st;
}

/* Decodes NARGS arguments from word *pi into rec->args (validated as args_walk says). */
FXT__NOINLINE fxt_status decode_args(fxt_reader_t *r, fxt_record_t *rec, const cur_t *c, uint64_t *pi,
                                     unsigned nargs, uint64_t off, uint64_t h) {
    return args_walk(r, rec, c, pi, nargs, off, h, 1);
}

/* The arguments of a record: decoded, or checked and left for later (FXT_READ_LAZY_ARGS). The
 * two out of line: neither pays for the other's registers. */
static inline fxt_status take_args(fxt_reader_t *r, fxt_record_t *rec, const cur_t *c, uint64_t *pi,
                                   unsigned nargs, uint64_t off, uint64_t h) {
    if (r->flags & FXT_READ_LAZY_ARGS) {
        return defer_args(r, rec, c, pi, nargs, off, h);
    }
    return decode_args(r, rec, c, pi, nargs, off, h);
}

fxt_status fxt_reader_args(fxt_reader_t *r, fxt_record_t *rec) {
    if (r == NULL || rec == NULL) {
        return FXT_E_INVALID_ARG;
    }
    /* Nothing pending for this record: decoded already (eagerly, or by an earlier call), or none. */
    if (r->lazy.count == 0 || r->lazy.off != rec->offset || r->lazy.header != rec->header) {
        return FXT_OK;
    }
    const cur_t c = {r->lazy.p, r->lazy.n, r->lazy.sw};
    uint64_t i = r->lazy.i;
    unsigned count = r->lazy.count;
    r->lazy.count = 0;
    /* Validated when the record was read, against the same tables: this cannot fail. */
    return args_walk(r, rec, &c, &i, count, r->lazy.off, r->lazy.header, 1);
}

/* fxt_reader_args for the reader's own use, out of line: inlined, it costs the eager decode
 * registers (bench_reader). */
FXT__NOINLINE void args_now(fxt_reader_t *r, fxt_record_t *rec) { (void)fxt_reader_args(r, rec); }

/* Unknown types and subtypes are delivered, not errors: the size still frames them. */
static void set_unknown(fxt_record_t *rec, int has_subtype, uint32_t subtype, uint64_t n) {
    rec->kind = FXT_KIND_UNKNOWN;
    rec->u.unknown.type = rec->type;
    rec->u.unknown.has_subtype = has_subtype;
    rec->u.unknown.subtype = subtype;
    rec->u.unknown.size_words = n;
}

#define SHORT(what)                                                                                          \
    return fail(r, FXT_E_BAD_RECORD, off, h, "%s record: %s does not fit its size of %llu words", kname,     \
                what, (unsigned long long)c.n)

/* ---- per record type ------------------------------------------------------------------ */

static fxt_status decode_metadata(fxt_reader_t *r, const cur_t *cp, uint64_t h, uint64_t off,
                                  fxt_record_t *rec) {
    const cur_t c = *cp;
    const char *kname = "metadata";
    unsigned mtype = (unsigned)fxt_get_meta_type(h);
    switch (mtype) {
    case FXT_META_PROVIDER_INFO: {
        uint32_t id = (uint32_t)fxt_get_meta_provider_id(h);
        uint32_t len = (uint32_t)fxt_get_meta_name_len(h);
        kname = "provider info";
        /* The name length [52..59] is in bytes, not words (spec-notes). */
        if (fxt_words(len) > c.n - 1) {
            SHORT("provider name");
        }
        fxt_status st = FXT_OK;
        fxt__provider_t *p = provider_switch(r, id, &st);
        if (p == NULL) {
            return fail(r, st, off, h, "provider info record: cannot keep state for provider %u: %s",
                        (unsigned)id, fxt_status_str(st));
        }
        /* Provider state is created on first sight and kept, so switching back finds its tables. */
        r->cur = p;
        rec->kind = FXT_KIND_PROVIDER_INFO;
        rec->u.provider_info.id = id;
        rec->u.provider_info.name.ptr = (const char *)(c.p + 8);
        rec->u.provider_info.name.len = len;
        rec->u.provider_info.name.ref = fxt_strref_inline((uint16_t)len);
        rec->u.provider_info.name.unresolved = 0;
        return FXT_OK;
    }
    case FXT_META_PROVIDER_SECTION: {
        uint32_t id = (uint32_t)fxt_get_meta_provider_id(h);
        fxt_status st = FXT_OK;
        fxt__provider_t *p = provider_switch(r, id, &st);
        if (p == NULL) {
            return fail(r, st, off, h, "provider section record: cannot keep state for provider %u: %s",
                        (unsigned)id, fxt_status_str(st));
        }
        r->cur = p;
        rec->kind = FXT_KIND_PROVIDER_SECTION;
        rec->u.provider_section.id = id;
        return FXT_OK;
    }
    /* The event names a provider id but does not change the current context. */
    case FXT_META_PROVIDER_EVENT:
        rec->kind = FXT_KIND_PROVIDER_EVENT;
        rec->u.provider_event.id = (uint32_t)fxt_get_meta_provider_id(h);
        rec->u.provider_event.event = (uint32_t)fxt_get_meta_event_id(h);
        return FXT_OK;
    case FXT_META_TRACE_INFO: {
        unsigned itype = (unsigned)fxt_get_meta_trace_info_type(h);
        /* The magic number record is a trace info record of type 0 (spec: Magic number record). */
        if (itype == FXT_TRACE_INFO_MAGIC) {
            rec->kind = FXT_KIND_MAGIC;
        } else {
            rec->kind = FXT_KIND_TRACE_INFO;
            rec->u.trace_info.info_type = itype;
        }
        return FXT_OK;
    }
    default:
        set_unknown(rec, 1, mtype, c.n);
        return FXT_OK;
    }
}

static fxt_status decode_event(fxt_reader_t *r, const cur_t *cp, uint64_t h, uint64_t off,
                               fxt_record_t *rec) {
    const cur_t c = *cp;
    const char *kname = "event";
    const fxt__provider_t *prov = r->cur;
    unsigned etype = (unsigned)fxt_get_event_type(h);
    if (etype >= FXT_EVENT_TYPE_COUNT) {
        set_unknown(rec, 1, etype, c.n);
        return FXT_OK;
    }
    if (c.n < 2) {
        SHORT("timestamp word");
    }
    /* Word 0 is the header, word 1 the timestamp; the variable-size fields follow in spec order:
     * thread, category, name, arguments, then the type-specific words. */
    uint64_t i = 2;
    rec->u.event.type = etype;
    rec->u.event.ts = W(&c, 1);
    if (take_thread(prov, (uint8_t)fxt_get_event_thread(h), &c, &i, &rec->u.event.thread) != 0) {
        SHORT("inline thread");
    }
    if (take_str(prov, (uint16_t)fxt_get_event_category(h), &c, c.n, &i, &rec->u.event.category) != 0) {
        SHORT("inline category");
    }
    if (take_str(prov, (uint16_t)fxt_get_event_name(h), &c, c.n, &i, &rec->u.event.name) != 0) {
        SHORT("inline name");
    }
    unsigned nargs = (unsigned)fxt_get_event_nargs(h);
    if (nargs != 0) {
        fxt_status st = take_args(r, rec, &c, &i, nargs, off, h);
        if (st != FXT_OK) {
            return st;
        }
    }
    switch (etype) {
    /* The counter/correlation id comes after the arguments (spec-notes: ftr wrote it before). */
    case FXT_EVENT_COUNTER:
    case FXT_EVENT_ASYNC_BEGIN:
    case FXT_EVENT_ASYNC_INSTANT:
    case FXT_EVENT_ASYNC_END:
    case FXT_EVENT_FLOW_BEGIN:
    case FXT_EVENT_FLOW_STEP:
    case FXT_EVENT_FLOW_END:
        if (i >= c.n) {
            SHORT(etype == FXT_EVENT_COUNTER ? "counter id word" : "correlation id word");
        }
        rec->u.event.id = W(&c, i);
        i++;
        break;
    case FXT_EVENT_DURATION_COMPLETE:
        if (i >= c.n) {
            SHORT("end timestamp word");
        }
        /* The end timestamp, not a duration (spec-notes). */
        rec->u.event.end_ts = W(&c, i);
        i++;
        break;
    default:
        break;
    }
    /* Words beyond the defined content are exposed, not errors: e.g. Fuchsia's scope word after
     * an instant's arguments (spec-notes, Extensions). */
    rec->u.event.extra_words = (uint32_t)(c.n - i);
    rec->u.event.extra = i < c.n ? c.p + 8u * i : NULL;
    rec->kind = FXT_KIND_EVENT;
    return FXT_OK;
}

static fxt_status decode_objects(fxt_reader_t *r, const cur_t *cp, uint64_t h, uint64_t off,
                                 fxt_record_t *rec) {
    const cur_t c = *cp;
    const fxt__provider_t *prov = r->cur;
    uint64_t i = 2;
    fxt_status st;
    if (rec->type == FXT_RECORD_USERSPACE_OBJECT) {
        const char *kname = "userspace object";
        if (c.n < 2) {
            SHORT("pointer word");
        }
        rec->u.userspace_object.ptr = W(&c, 1);
        fxt_thread_ref_t *pr = &rec->u.userspace_object.process;
        uint8_t pref = (uint8_t)fxt_get_uobj_process(h);
        pr->ref = pref;
        pr->tid = 0;
        if (pref == FXT_THREADREF_INLINE) {
            /* the process is a thread ref, but inline it is one koid word */
            if (i >= c.n) {
                SHORT("process id word");
            }
            pr->pid = W(&c, i);
            pr->resolved = 1;
            i++;
        } else {
            const fxt__thread_slot_t *t = fxt__thread_get(prov, pref);
            pr->pid = t ? t->pid : 0;
            pr->resolved = t != NULL;
        }
        if (take_str(prov, (uint16_t)fxt_get_uobj_name(h), &c, c.n, &i, &rec->u.userspace_object.name) != 0) {
            SHORT("inline name");
        }
        st = take_args(r, rec, &c, &i, (unsigned)fxt_get_uobj_nargs(h), off, h);
        if (st != FXT_OK) {
            return st;
        }
        rec->kind = FXT_KIND_USERSPACE_OBJECT;
        /* The table is per provider (r->cur) and filled only after the record validated. */
        if (!(r->flags & FXT_READ_NO_OBJECT_TABLES)) {
            const fxt_str_t *nm = &rec->u.userspace_object.name;
            st =
                fxt__obj_put(&r->cur->uobjs, pr->pid, rec->u.userspace_object.ptr, 0, nm->ptr, nm->len, 0, 0);
            if (st != FXT_OK) {
                return fail(r, st, off, h, "userspace object record: cannot keep it in the table");
            }
        }
        return FXT_OK;
    }
    const char *kname = "kernel object";
    if (c.n < 2) {
        SHORT("koid word");
    }
    rec->u.kernel_object.koid = W(&c, 1);
    rec->u.kernel_object.obj_type = (uint32_t)fxt_get_kobj_type(h);
    if (take_str(prov, (uint16_t)fxt_get_kobj_name(h), &c, c.n, &i, &rec->u.kernel_object.name) != 0) {
        SHORT("inline name");
    }
    st = take_args(r, rec, &c, &i, (unsigned)fxt_get_kobj_nargs(h), off, h);
    if (st != FXT_OK) {
        return st;
    }
    rec->kind = FXT_KIND_KERNEL_OBJECT;
    if (!(r->flags & FXT_READ_NO_OBJECT_TABLES)) {
        /* The table needs the arguments even when the caller asked for them lazily. */
        if (r->flags & FXT_READ_LAZY_ARGS) {
            args_now(r, rec);
        }
        int has_process = 0;
        uint64_t process = 0;
        for (unsigned a = 0; a < rec->nargs; a++) {
            const fxt_arg_t *arg = &rec->args[a];
            /* A thread's process: a koid "process" argument, or uint64 as some writers use. */
            if ((arg->type == FXT_ARG_KOID || arg->type == FXT_ARG_UINT64) && arg->name.ptr != NULL &&
                arg->name.len == 7 && memcmp(arg->name.ptr, "process", 7) == 0) {
                has_process = 1;
                process = arg->v.koid;
            }
        }
        const fxt_str_t *nm = &rec->u.kernel_object.name;
        st = fxt__obj_put(&r->cur->kobjs, rec->u.kernel_object.koid, 0, rec->u.kernel_object.obj_type,
                          nm->ptr, nm->len, has_process, process);
        if (st != FXT_OK) {
            return fail(r, st, off, h, "kernel object record: cannot keep it in the table");
        }
    }
    return FXT_OK;
}

static fxt_status decode_scheduling(fxt_reader_t *r, const cur_t *cp, uint64_t h, uint64_t off,
                                    fxt_record_t *rec) {
    const cur_t c = *cp;
    const fxt__provider_t *prov = r->cur;
    unsigned stype = (unsigned)fxt_get_sched_type(h);
    uint64_t i;
    fxt_status st;
    switch (stype) {
    case FXT_SCHED_CONTEXT_SWITCH: {
        const char *kname = "context switch";
        /* Context switch: header, timestamp, outgoing tid, incoming tid (spec: Context switch record). */
        if (c.n < 4) {
            SHORT("timestamp and thread id words");
        }
        rec->u.context_switch.ts = W(&c, 1);
        rec->u.context_switch.out_tid = W(&c, 2);
        rec->u.context_switch.in_tid = W(&c, 3);
        rec->u.context_switch.cpu = (uint32_t)fxt_get_cswitch_cpu(h);
        rec->u.context_switch.out_state = (uint32_t)fxt_get_cswitch_out_state(h);
        i = 4;
        st = take_args(r, rec, &c, &i, (unsigned)fxt_get_cswitch_nargs(h), off, h);
        if (st != FXT_OK) {
            return st;
        }
        rec->kind = FXT_KIND_CONTEXT_SWITCH;
        return FXT_OK;
    }
    case FXT_SCHED_THREAD_WAKEUP: {
        const char *kname = "thread wakeup";
        if (c.n < 3) {
            SHORT("timestamp and thread id words");
        }
        rec->u.thread_wakeup.ts = W(&c, 1);
        rec->u.thread_wakeup.tid = W(&c, 2);
        rec->u.thread_wakeup.cpu = (uint32_t)fxt_get_wakeup_cpu(h);
        i = 3;
        st = take_args(r, rec, &c, &i, (unsigned)fxt_get_wakeup_nargs(h), off, h);
        if (st != FXT_OK) {
            return st;
        }
        rec->kind = FXT_KIND_THREAD_WAKEUP;
        return FXT_OK;
    }
    case FXT_SCHED_LEGACY_CONTEXT_SWITCH: {
        const char *kname = "legacy context switch";
        if (c.n < 2) {
            SHORT("timestamp word");
        }
        rec->u.legacy_context_switch.ts = W(&c, 1);
        rec->u.legacy_context_switch.cpu = (uint32_t)fxt_get_lcswitch_cpu(h);
        rec->u.legacy_context_switch.out_state = (uint32_t)fxt_get_lcswitch_out_state(h);
        rec->u.legacy_context_switch.out_prio = (uint32_t)fxt_get_lcswitch_out_prio(h);
        rec->u.legacy_context_switch.in_prio = (uint32_t)fxt_get_lcswitch_in_prio(h);
        i = 2;
        if (take_thread(prov, (uint8_t)fxt_get_lcswitch_out_thread(h), &c, &i,
                        &rec->u.legacy_context_switch.out) != 0) {
            SHORT("outgoing inline thread");
        }
        if (take_thread(prov, (uint8_t)fxt_get_lcswitch_in_thread(h), &c, &i,
                        &rec->u.legacy_context_switch.in) != 0) {
            SHORT("incoming inline thread");
        }
        rec->kind = FXT_KIND_LEGACY_CONTEXT_SWITCH;
        return FXT_OK;
    }
    default:
        set_unknown(rec, 1, stype, c.n);
        return FXT_OK;
    }
}

static fxt_status decode_large(fxt_reader_t *r, const cur_t *cp, uint64_t h, uint64_t off,
                               fxt_record_t *rec) {
    const cur_t c = *cp;
    const char *kname = "large blob";
    const fxt__provider_t *prov = r->cur;
    /* [36..39] is the large record type, [40..43] the blob format (spec-notes: Fuchsia's Rust
     * reader swaps them). */
    unsigned ltype = (unsigned)fxt_get_large_type(h);
    unsigned format = (unsigned)fxt_get_large_blob_format(h);
    if (ltype != FXT_LARGE_BLOB) {
        set_unknown(rec, 1, ltype, c.n);
        return FXT_OK;
    }
    if (format > FXT_LARGE_BLOB_NO_METADATA) {
        set_unknown(rec, 1, format, c.n);
        return FXT_OK;
    }
    if (c.n < 2) {
        SHORT("format header word");
    }
    uint64_t fh = W(&c, 1);
    uint64_t i = 2;
    rec->u.large_blob.format = format;
    if (take_str(prov, (uint16_t)fxt_get_lblob_category(fh), &c, c.n, &i, &rec->u.large_blob.category) != 0) {
        SHORT("inline category");
    }
    if (take_str(prov, (uint16_t)fxt_get_lblob_name(fh), &c, c.n, &i, &rec->u.large_blob.name) != 0) {
        SHORT("inline name");
    }
    if (format == FXT_LARGE_BLOB_WITH_METADATA) {
        if (i >= c.n) {
            SHORT("timestamp word");
        }
        rec->u.large_blob.ts = W(&c, i);
        i++;
        if (take_thread(prov, (uint8_t)fxt_get_lblob_thread(fh), &c, &i, &rec->u.large_blob.thread) != 0) {
            SHORT("inline thread");
        }
        fxt_status st = take_args(r, rec, &c, &i, (unsigned)fxt_get_lblob_nargs(fh), off, h);
        if (st != FXT_OK) {
            return st;
        }
    }
    if (i >= c.n) {
        SHORT("blob size word");
    }
    uint64_t size = W(&c, i);
    i++;
    /* (c.n - i) * 8 cannot overflow: c.n comes from a 32-bit size field. */
    if (size > (c.n - i) * 8u) {
        return fail(r, FXT_E_BAD_RECORD, off, h,
                    "large blob record: payload of %llu bytes does not fit its size of %llu words",
                    (unsigned long long)size, (unsigned long long)c.n);
    }
    rec->u.large_blob.payload = c.p + 8u * i;
    rec->u.large_blob.size = size;
    rec->kind = FXT_KIND_LARGE_BLOB;
    return FXT_OK;
}

/* Decode one complete record of n words at p. */
/* The initialization record: the current provider's tick rate. */
static fxt_status decode_init(fxt_reader_t *r, const cur_t *cp, uint64_t h, uint64_t off, fxt_record_t *rec) {
    const cur_t c = *cp;
    uint64_t n = c.n;
    const char *kname = "initialization";
    if (n < 2) {
        SHORT("ticks per second word");
    }
    rec->kind = FXT_KIND_INIT;
    rec->u.init.ticks_per_second = W(&c, 1);
    /* The tick rate is per provider (spec-notes); 0 is stored as given and reported by fxt check. */
    r->cur->ticks_per_second = rec->u.init.ticks_per_second;
    return FXT_OK;
}

/* A string record: registered in the current provider (index 0: delivered, not kept). */
static fxt_status decode_string(fxt_reader_t *r, const cur_t *cp, uint64_t h, uint64_t off,
                                fxt_record_t *rec) {
    const cur_t c = *cp;
    const uint8_t *p = c.p;
    uint64_t n = c.n;
    const char *kname = "string";
    uint16_t index = (uint16_t)fxt_get_string_index(h);
    uint32_t len = (uint32_t)fxt_get_string_len(h);
    if (fxt_words(len) > n - 1) {
        SHORT("string value");
    }
    rec->kind = FXT_KIND_STRING;
    rec->u.string.index = index;
    rec->u.string.value.ptr = (const char *)(p + 8);
    rec->u.string.value.len = len;
    rec->u.string.value.ref = fxt_strref_inline((uint16_t)len);
    rec->u.string.value.unresolved = 0;
    /* Index 0 is reserved: the record is delivered but registers nothing (dump contract).
     * A later record for the same index replaces the earlier one (spec-notes). */
    if (index != 0) {
        fxt_status st = fxt__string_set(r->cur, index, (const char *)(p + 8), len);
        if (st != FXT_OK) {
            return fail(r, st, off, h, "string record: cannot keep string %u", (unsigned)index);
        }
    }
    return FXT_OK;
}

/* A thread record: registered in the current provider (index 0: delivered, not kept). */
static fxt_status decode_thread(fxt_reader_t *r, const cur_t *cp, uint64_t h, uint64_t off,
                                fxt_record_t *rec) {
    const cur_t c = *cp;
    uint64_t n = c.n;
    const char *kname = "thread";
    uint8_t index = (uint8_t)fxt_get_thread_index(h);
    if (n < 3) {
        SHORT("process and thread id words");
    }
    rec->kind = FXT_KIND_THREAD;
    rec->u.thread.index = index;
    rec->u.thread.pid = W(&c, 1);
    rec->u.thread.tid = W(&c, 2);
    /* Same rules as string records: index 0 registers nothing, re-registration replaces. */
    if (index != 0) {
        fxt_status st = fxt__thread_set(r->cur, index, rec->u.thread.pid, rec->u.thread.tid);
        if (st != FXT_OK) {
            return fail(r, st, off, h, "thread record: cannot keep thread %u", (unsigned)index);
        }
    }
    return FXT_OK;
}

/* A blob record: its name and payload. */
static fxt_status decode_blob(fxt_reader_t *r, const cur_t *cp, uint64_t h, uint64_t off, fxt_record_t *rec) {
    const cur_t c = *cp;
    const uint8_t *p = c.p;
    uint64_t n = c.n;
    const fxt__provider_t *prov = r->cur;
    const char *kname = "blob";
    uint64_t i = 1;
    if (take_str(prov, (uint16_t)fxt_get_blob_name(h), &c, n, &i, &rec->u.blob.name) != 0) {
        SHORT("inline name");
    }
    uint32_t size = (uint32_t)fxt_get_blob_size(h);
    if (fxt_words(size) > n - i) {
        SHORT("payload");
    }
    rec->kind = FXT_KIND_BLOB;
    rec->u.blob.blob_type = (uint32_t)fxt_get_blob_type(h);
    rec->u.blob.payload = p + 8u * i;
    rec->u.blob.size = size;
    return FXT_OK;
}

/* A log record: its time, thread and message. */
static fxt_status decode_log(fxt_reader_t *r, const cur_t *cp, uint64_t h, uint64_t off, fxt_record_t *rec) {
    const cur_t c = *cp;
    const uint8_t *p = c.p;
    uint64_t n = c.n;
    const fxt__provider_t *prov = r->cur;
    const char *kname = "log";
    if (n < 2) {
        SHORT("timestamp word");
    }
    uint64_t i = 2;
    rec->u.log.ts = W(&c, 1);
    if (take_thread(prov, (uint8_t)fxt_get_log_thread(h), &c, &i, &rec->u.log.thread) != 0) {
        SHORT("inline thread");
    }
    uint32_t len = (uint32_t)fxt_get_log_len(h);
    if (fxt_words(len) > n - i) {
        SHORT("message");
    }
    rec->kind = FXT_KIND_LOG;
    rec->u.log.message.ptr = (const char *)(p + 8u * i);
    rec->u.log.message.len = len;
    rec->u.log.message.ref = fxt_strref_inline((uint16_t)len);
    rec->u.log.message.unresolved = 0;
    return FXT_OK;
}

static fxt_status decode(fxt_reader_t *r, const uint8_t *p, uint64_t n, uint64_t h, uint64_t off,
                         fxt_record_t *rec) {
    const cur_t c = {p, n, r->swapped};
    unsigned type = (unsigned)fxt_get_rec_type(h);
    rec->offset = off;
    rec->type = (uint8_t)type;
    rec->header = h;
    rec->bytes = p;
    rec->size = n * 8u;
    rec->swapped = r->swapped;
    rec->nargs = 0;

    switch (type) {
    /* For metadata the provider is read after decoding: a provider info/section record
     * belongs to the provider it makes current (dump contract). */
    case FXT_RECORD_EVENT: {
        fxt_status st = decode_event(r, &c, h, off, rec);
        rec->has_provider = r->cur->has_id;
        rec->provider = r->cur->id;
        return st;
    }
    case FXT_RECORD_METADATA: {
        fxt_status st = decode_metadata(r, &c, h, off, rec);
        rec->has_provider = r->cur->has_id;
        rec->provider = r->cur->id;
        return st;
    }
    default:
        break;
    }

    rec->has_provider = r->cur->has_id;
    rec->provider = r->cur->id;
    switch (type) {
    case FXT_RECORD_INITIALIZATION:
        return decode_init(r, &c, h, off, rec);
    case FXT_RECORD_STRING:
        return decode_string(r, &c, h, off, rec);
    case FXT_RECORD_THREAD:
        return decode_thread(r, &c, h, off, rec);
    case FXT_RECORD_BLOB:
        return decode_blob(r, &c, h, off, rec);
    case FXT_RECORD_USERSPACE_OBJECT:
    case FXT_RECORD_KERNEL_OBJECT:
        return decode_objects(r, &c, h, off, rec);
    case FXT_RECORD_SCHEDULING:
        return decode_scheduling(r, &c, h, off, rec);
    case FXT_RECORD_LOG:
        return decode_log(r, &c, h, off, rec);
    case FXT_RECORD_LARGE:
        return decode_large(r, &c, h, off, rec);
    default:
        set_unknown(rec, 0, 0, n);
        return FXT_OK;
    }
}

/* Whether records of TYPE change decoding state under FLAGS (fxt_reader_state_types). Every
 * record type is named: a new one must say (-Wswitch-enum). */
static int changes_state(enum fxt_record_type type, uint32_t flags) {
    switch (type) {
    case FXT_RECORD_METADATA:       /* the provider context */
    case FXT_RECORD_INITIALIZATION: /* the provider's tick rate */
    case FXT_RECORD_STRING:
    case FXT_RECORD_THREAD:
        return 1;
    case FXT_RECORD_USERSPACE_OBJECT:
    case FXT_RECORD_KERNEL_OBJECT:
        return (flags & FXT_READ_NO_OBJECT_TABLES) == 0;
    case FXT_RECORD_EVENT:
    case FXT_RECORD_BLOB:
    case FXT_RECORD_SCHEDULING:
    case FXT_RECORD_LOG:
    case FXT_RECORD_LARGE:
        return 0;
    }
    return 0; /* types 10..14: unknown, skipped by their size */
}

fxt_status fxt_reader_state_types(const fxt_reader_options_t *opt, uint32_t *types) {
    fxt_reader_options_t o = FXT_READER_OPTIONS_INIT;
    if (types == NULL || fxt__options_read(&o, sizeof o, opt) != FXT_OK) {
        return FXT_E_INVALID_ARG;
    }
    *types = 0;
    for (unsigned t = 0; t < 16; t++) {
        *types |= (uint32_t)changes_state((enum fxt_record_type)t, o.flags) << t;
    }
    return FXT_OK;
}

/* ---- framing ------------------------------------------------------------------------ */

/* Read a header word; the first one of the input decides the byte order. */
static inline uint64_t read_header(fxt_reader_t *r, const uint8_t *p) {
    if (!r->order_known) {
        uint64_t native = fxt_load64(p);
        r->order_known = 1;
        if (native == FXT_MAGIC_RECORD) {
            r->swapped = 0;
        } else if (native == FXT_MAGIC_RECORD_SWAPPED) {
            r->swapped = 1;
        } else {
            r->swapped = fxt_host_is_big_endian(); /* no magic: little-endian */
        }
    }
    return fxt_load64_swapped(p, r->swapped);
}

/* Large records (type 15) carry their size in [4..35], not [4..15] (spec-notes). */
static inline uint64_t header_words(uint64_t h) {
    return fxt_get_rec_type(h) == FXT_RECORD_LARGE ? fxt_get_large_size(h) : fxt_get_rec_size(h);
}

/* A size of 0 gives no way to find the next record: fatal, everything after is ignored. */
static fxt_status fatal_size0(fxt_reader_t *r, uint64_t off, uint64_t h) {
    r->stopped = 1;
    return fail(r, FXT_E_BAD_RECORD_SIZE, off, h,
                "record of type %u has size 0; cannot locate the next record, reading stops",
                (unsigned)fxt_get_rec_type(h));
}

/* Grows pend by doubling to hold BYTES; -1 when out of memory. */
static int pend_reserve(fxt_reader_t *r, uint64_t bytes) {
    if (bytes <= r->pend_cap) {
        return 0;
    }
    size_t ncap = r->pend_cap ? r->pend_cap : 4096;
    while (ncap < bytes) {
        ncap *= 2;
    }
    uint8_t *np = realloc(r->pend, ncap);
    if (np == NULL) {
        return -1;
    }
    r->pend = np;
    r->pend_cap = ncap;
    return 0;
}

/* FXT_E_LIMIT is recoverable: the caller has set skip, and reading resumes after the record. */
static fxt_status too_large(fxt_reader_t *r, uint64_t off, uint64_t h, uint64_t bytes) {
    return fail(r, FXT_E_LIMIT, off, h,
                "record of %llu bytes exceeds the reassembly limit of %llu bytes; skipped",
                (unsigned long long)bytes, (unsigned long long)r->max_record_bytes);
}

/* Drops the bytes of a skipped record (too large, or unbufferable) as they arrive: 0 once it
 * is passed, 1 when IN is used up first. */
static int skip_some(fxt_reader_t *r, fxt_in_buffer_t *in) {
    size_t avail = in->size - in->pos;
    size_t take = avail < r->skip ? avail : (size_t)r->skip;
    r->skip -= take;
    in->pos += take;
    r->offset += take;
    return r->skip != 0;
}

/* A record starting in IN with nothing pending: decoded in place when whole, else its bytes
 * are kept in pend (or skipped past the reassembly limit) until the next chunks complete it. */
FXT__NOINLINE fxt_status start_record(fxt_reader_t *r, fxt_in_buffer_t *in, fxt_record_t *rec) {
    const uint8_t *src = (const uint8_t *)in->src;
    size_t avail = in->size - in->pos;
    if (avail >= 8) {
        /* fast path: the header is in the caller's buffer */
        const uint8_t *p = src + in->pos;
        uint64_t off = r->offset;
        uint64_t h = read_header(r, p);
        uint64_t words = header_words(h);
        if (words == 0) {
            return fatal_size0(r, off, h);
        }
        uint64_t bytes = words * 8u;
        if (words <= avail / 8u) {
            in->pos += (size_t)bytes;
            r->offset += bytes;
            return decode(r, p, words, h, off, rec);
        }
        if (bytes > r->max_record_bytes) {
            /* Only records straddling chunks are limited; one wholly in a buffer is decoded in place. */
            r->skip = bytes - avail;
            in->pos = in->size;
            r->offset += avail;
            return too_large(r, off, h, bytes);
        }
        /* the buffer grows with the bytes that actually arrive, so a header
         * announcing a huge record costs nothing until its bytes come */
        if (pend_reserve(r, avail) != 0) {
            return fail(r, FXT_E_NOMEM, off, h, "cannot buffer a record of %llu bytes",
                        (unsigned long long)bytes);
        }
        memcpy(r->pend, p, avail);
        r->pend_len = avail;
        r->pend_size = bytes;
        r->pend_off = off;
        r->offset += avail;
        in->pos = in->size;
        return FXT_NEED_INPUT;
    }
    if (avail == 0) {
        return FXT_NEED_INPUT;
    }
    /* fewer than 8 bytes: start reassembling a header */
    if (pend_reserve(r, 8) != 0) {
        return fail(r, FXT_E_NOMEM, r->offset, 0, "cannot buffer a record header");
    }
    memcpy(r->pend, src + in->pos, avail);
    r->pend_len = avail;
    r->pend_size = 0;
    r->pend_off = r->offset;
    r->offset += avail;
    in->pos = in->size;
    return FXT_NEED_INPUT;
}

/* Completes a pending header from IN: FXT_OK once the record's size is known (pend_size),
 * FXT_NEED_INPUT, or the error of a size-0 or too large record. */
static fxt_status pend_header(fxt_reader_t *r, fxt_in_buffer_t *in) {
    size_t avail = in->size - in->pos;
    size_t take = 8u - r->pend_len;
    if (take > avail) {
        take = avail;
    }
    memcpy(r->pend + r->pend_len, (const uint8_t *)in->src + in->pos, take);
    r->pend_len += take;
    in->pos += take;
    r->offset += take;
    if (r->pend_len < 8) {
        return FXT_NEED_INPUT;
    }
    uint64_t h = read_header(r, r->pend);
    uint64_t words = header_words(h);
    if (words == 0) {
        r->pend_len = 0;
        return fatal_size0(r, r->pend_off, h);
    }
    uint64_t bytes = words * 8u;
    if (bytes > r->max_record_bytes) {
        r->pend_len = 0;
        r->skip = bytes - 8u;
        return too_large(r, r->pend_off, h, bytes);
    }
    r->pend_size = bytes;
    return FXT_OK;
}

/* Continues the pending record with IN; decodes it once whole. */
FXT__NOINLINE fxt_status continue_record(fxt_reader_t *r, fxt_in_buffer_t *in, fxt_record_t *rec) {
    if (r->pend_size == 0) {
        fxt_status st = pend_header(r, in);
        if (st != FXT_OK) {
            return st;
        }
    }
    size_t avail = in->size - in->pos;
    uint64_t need = r->pend_size - r->pend_len;
    size_t take = avail < need ? avail : (size_t)need;
    if (pend_reserve(r, r->pend_len + take) != 0) {
        uint64_t h = fxt_load64_swapped(r->pend, r->swapped), size = r->pend_size;
        /* Out of memory here only loses this record: its remaining bytes are skipped, reading goes on. */
        r->skip = r->pend_size - r->pend_len;
        r->pend_len = 0;
        r->pend_size = 0;
        return fail(r, FXT_E_NOMEM, r->pend_off, h, "cannot buffer a record of %llu bytes; skipped",
                    (unsigned long long)size);
    }
    memcpy(r->pend + r->pend_len, (const uint8_t *)in->src + in->pos, take);
    r->pend_len += take;
    in->pos += take;
    r->offset += take;
    if (r->pend_len < r->pend_size) {
        return FXT_NEED_INPUT;
    }
    uint64_t h = fxt_load64_swapped(r->pend, r->swapped);
    uint64_t words = r->pend_size / 8u;
    r->pend_len = 0;
    r->pend_size = 0;
    /* The record's views point into pend: valid until the next call, which may reuse it. */
    return decode(r, r->pend, words, h, r->pend_off, rec);
}

/* The next record from IN, or FXT_NEED_INPUT when IN is used up (feed the next chunk).
 * Between calls the reader is in one of five states: idle, reassembling a header
 * (pend_size 0), reassembling a record (pend_size set), skipping (skip set), or stopped. */
fxt_status fxt_reader_next(fxt_reader_t *r, fxt_in_buffer_t *in, fxt_record_t *rec) {
    if (r == NULL || in == NULL || rec == NULL || (in->src == NULL && in->size != 0) || in->pos > in->size) {
        return FXT_E_INVALID_ARG;
    }
    /* hot path: nothing pending, byte order known, a whole record in the buffer */
    if (r->pend_len == 0 && r->skip == 0 && r->order_known && !r->stopped) {
        size_t avail = in->size - in->pos;
        if (avail >= 8) {
            const uint8_t *p = (const uint8_t *)in->src + in->pos;
            uint64_t h = fxt_load64_swapped(p, r->swapped);
            uint64_t words = header_words(h);
            if (words != 0 && words <= avail / 8u) {
                uint64_t off = r->offset;
                in->pos += (size_t)(words * 8u);
                r->offset += words * 8u;
                return decode(r, p, words, h, off, rec);
            }
        }
    }
    /* After a fatal error all further input is consumed unread. */
    if (r->stopped) {
        r->offset += in->size - in->pos;
        in->pos = in->size;
        return FXT_END;
    }
    if (r->skip != 0 && skip_some(r, in) != 0) {
        return FXT_NEED_INPUT;
    }
    return r->pend_len == 0 ? start_record(r, in, rec) : continue_record(r, in, rec);
}

/* Called at the end of input: reports a record cut short, then forgets it. */
fxt_status fxt_reader_finish(fxt_reader_t *r) {
    if (r == NULL) {
        return FXT_E_INVALID_ARG;
    }
    /* The fatal error was already reported; nothing is pending. */
    if (r->stopped) {
        return FXT_OK;
    }
    if (r->skip != 0) {
        r->skip = 0;
        return fail(r, FXT_E_TRUNCATED, r->offset, 0,
                    "input ends inside an oversized record that was being skipped");
    }
    if (r->pend_len == 0) {
        return FXT_OK;
    }
    fxt_status st;
    if (r->pend_size == 0) {
        st = fail(r, FXT_E_TRUNCATED, r->pend_off, 0,
                  "input ends inside a record header (%zu of 8 bytes present)", r->pend_len);
    } else {
        uint64_t h = fxt_load64_swapped(r->pend, r->swapped);
        st = fail(r, FXT_E_TRUNCATED, r->pend_off, h,
                  "input ends inside a record of %llu bytes (%zu bytes present)",
                  (unsigned long long)r->pend_size, r->pend_len);
    }
    r->pend_len = 0;
    r->pend_size = 0;
    return st;
}

const fxt_diag_t *fxt_reader_diag(const fxt_reader_t *r) { return r ? &r->diag : NULL; }

uint64_t fxt_reader_offset(const fxt_reader_t *r) { return r ? r->offset : 0; }

int fxt_reader_swapped(const fxt_reader_t *r) { return r ? r->swapped : 0; }

/* ---- table lookups --------------------------------------------------------------------- */

int fxt_reader_provider(const fxt_reader_t *r, uint32_t *id) {
    if (r == NULL) {
        return 0;
    }
    if (id != NULL) {
        *id = r->cur->id;
    }
    return r->cur->has_id;
}

uint64_t fxt_reader_ticks_per_second(const fxt_reader_t *r) { return r ? r->cur->ticks_per_second : 0; }

/* Looks up an index in the current provider's table; 0 is always the empty string. */
fxt_status fxt_reader_string(const fxt_reader_t *r, uint16_t index, fxt_str_t *out) {
    if (r == NULL || out == NULL) {
        return FXT_E_INVALID_ARG;
    }
    if (index == 0) {
        out->ptr = empty_str;
        out->len = 0;
        out->ref = 0;
        out->unresolved = 0;
        return FXT_OK;
    }
    const fxt__str_slot_t *s = fxt__string_get(r->cur, index);
    if (s == NULL) {
        return FXT_E_NOT_FOUND;
    }
    out->ptr = s->buf;
    out->len = s->len;
    out->ref = index;
    out->unresolved = 0;
    return FXT_OK;
}

fxt_status fxt_reader_thread(const fxt_reader_t *r, uint8_t index, fxt_thread_ref_t *out) {
    if (r == NULL || out == NULL) {
        return FXT_E_INVALID_ARG;
    }
    const fxt__thread_slot_t *t = index ? fxt__thread_get(r->cur, index) : NULL;
    if (t == NULL) {
        return FXT_E_NOT_FOUND;
    }
    out->pid = t->pid;
    out->tid = t->tid;
    out->ref = index;
    out->resolved = 1;
    return FXT_OK;
}

/* Object lookups are in the current provider's tables, like strings and threads. */
fxt_status fxt_reader_kernel_object(const fxt_reader_t *r, uint64_t koid, fxt_kernel_object_info_t *out) {
    if (r == NULL || out == NULL) {
        return FXT_E_INVALID_ARG;
    }
    const fxt__obj_t *o = fxt__obj_find(&r->cur->kobjs, koid, 0);
    if (o == NULL) {
        return FXT_E_NOT_FOUND;
    }
    out->koid = koid;
    out->obj_type = o->obj_type;
    out->name.ptr = o->has_name ? (o->name ? o->name : empty_str) : NULL;
    out->name.len = o->name_len;
    out->name.ref = 0;
    out->name.unresolved = !o->has_name;
    out->has_process = o->has_process;
    out->process_koid = o->process_koid;
    return FXT_OK;
}

fxt_status fxt_reader_userspace_object(const fxt_reader_t *r, uint64_t pid, uint64_t ptr,
                                       fxt_userspace_object_info_t *out) {
    if (r == NULL || out == NULL) {
        return FXT_E_INVALID_ARG;
    }
    const fxt__obj_t *o = fxt__obj_find(&r->cur->uobjs, pid, ptr);
    if (o == NULL) {
        return FXT_E_NOT_FOUND;
    }
    out->pid = pid;
    out->ptr = ptr;
    out->name.ptr = o->has_name ? (o->name ? o->name : empty_str) : NULL;
    out->name.len = o->name_len;
    out->name.ref = 0;
    out->name.unresolved = !o->has_name;
    return FXT_OK;
}
