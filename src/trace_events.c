/* SPDX-License-Identifier: MIT */
/*
 * Encoding events, logs and blobs into the calling thread's chunk. The
 * one-pass fast path (emit_fast) handles the steady state; the general path
 * (prep + emit) resolves and registers strings, takes chunks and drops.
 * Every word is assembled by the encoding core (src/encode.h).
 */
#include "attrs.h"
#include "trace_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct pref {
    uint16_t ref;
    uint16_t reg; /* index to register in this chunk, 0 if none */
    const char *ptr;
    uint32_t len;
} pref_t;

/* The pointer -> string index cache slot of a string (interned by address). */
static inline unsigned cache_slot(const char *ptr) {
    return (unsigned)(((uint64_t)(uintptr_t)ptr * 0x9E3779B97F4A7C15ull) >> (64 - FXT__TRACE_CACHE_BITS));
}

/* The per-thread call-site cache slot of a site. */
static inline unsigned site_slot(const fxt__site_t *site) {
    return (unsigned)(((uint64_t)(uintptr_t)site * 0x9E3779B97F4A7C15ull) >>
                      (64 - FXT__TRACE_SITE_CACHE_BITS));
}

/* FNV-1a: content keys for strings that are not literals. */
static uint32_t content_hash(const char *p, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) {
        h = (h ^ (uint8_t)p[i]) * 16777619u;
    }
    return h | 1u; /* 0 marks an empty slot */
}

/*
 * The table index of a runtime string (a name formatted into a buffer that
 * the program rewrites): interned by content, from a private copy, since the
 * pointer says nothing about the text. 0 when the thread's table or its copy
 * arena is full: the caller then writes the string inline. The table lasts
 * for the thread's session (dyn_gen).
 */
static uint16_t intern_content(tls_t *t, const char *ptr, uint32_t len) {
    if (t->dyn_gen != t->gen) {
        memset(t->dyn, 0, sizeof t->dyn);
        t->dyn_used = t->dyn_count = 0;
        t->dyn_gen = t->gen;
    }
    uint32_t h = content_hash(ptr, len);
    unsigned slot = h & (FXT__TRACE_DYN_SLOTS - 1);
    for (;;) {
        uint32_t eh = t->dyn[slot].hash;
        if (eh == 0) {
            break;
        }
        uint16_t idx = t->dyn[slot].idx;
        if (eh == h && t->strs[idx].len == len && memcmp(t->strs[idx].ptr, ptr, len) == 0) {
            return idx;
        }
        slot = (slot + 1) & (FXT__TRACE_DYN_SLOTS - 1);
    }
    /* a new string: keep the table at most 3/4 full so that probes stay short */
    if (t->nstr >= FXT__TRACE_MAX_THREAD_STRINGS || t->dyn_count >= FXT__TRACE_DYN_SLOTS / 4 * 3 ||
        len > FXT__TRACE_DYN_ARENA - t->dyn_used) {
        return 0;
    }
    if (t->dyn_arena == NULL && (t->dyn_arena = malloc(FXT__TRACE_DYN_ARENA)) == NULL) {
        return 0;
    }
    char *copy = t->dyn_arena + t->dyn_used;
    memcpy(copy, ptr, len);
    t->dyn_used += len;
    uint16_t idx = (uint16_t)++t->nstr;
    t->strs[idx].ptr = copy;
    t->strs[idx].len = len;
    t->strs[idx].epoch = 0;
    t->dyn[slot].hash = h;
    t->dyn[slot].idx = idx;
    t->dyn_count++;
    return idx;
}

/* Resolve a string: inline, or an index of this thread's table (registered per chunk). */
static void prep(tls_t *t, fxt_str_t s, int dyn, pref_t *o) {
    o->reg = 0;
    o->ptr = s.ptr;
    /* cut like every other API (at a UTF-8 boundary): the one rule of the encoding core */
    o->len = s.ptr ? fxt__str_clamp(s.ptr, s.len) : 0;
    if (o->len == 0) {
        o->ref = 0;
        return;
    }
    if (s.ref & FXT_STRREF_INLINE_FLAG) {
        o->ref = fxt_strref_inline((uint16_t)o->len);
        return;
    }
    if (dyn) {
        uint16_t idx = intern_content(t, s.ptr, o->len);
        if (idx == 0) {
            o->ref = fxt_strref_inline((uint16_t)o->len);
            return;
        }
        o->ref = idx;
        o->ptr = t->strs[idx].ptr; /* the copy: the caller's buffer may change */
        if (t->strs[idx].epoch != t->epoch) {
            o->reg = idx;
        }
        return;
    }
    unsigned slot = cache_slot(s.ptr);
    uint16_t idx = t->cache[slot].ptr == s.ptr ? t->cache[slot].idx : 0;
    if (idx == 0 || t->strs[idx].len != o->len) {
        if (t->nstr >= FXT__TRACE_MAX_THREAD_STRINGS) {
            o->ref = fxt_strref_inline((uint16_t)o->len);
            return;
        }
        idx = (uint16_t)++t->nstr;
        t->strs[idx].ptr = s.ptr;
        t->strs[idx].len = o->len;
        t->strs[idx].epoch = 0;
        t->cache[slot].ptr = s.ptr;
        t->cache[slot].idx = idx;
    }
    o->ref = idx;
    if (t->strs[idx].epoch != t->epoch) {
        o->reg = idx;
    }
}

static void refresh_reg(const tls_t *t, pref_t *r) {
    r->reg = (r->ref != 0 && !fxt_strref_is_inline(r->ref) && t->strs[r->ref].epoch != t->epoch) ? r->ref : 0;
}

/* The string as the record carries it (its bytes only when inline). */
static inline fxt__estr_t pref_estr(const pref_t *r) {
    return fxt_strref_is_inline(r->ref) ? fxt__estr_inline(r->ptr, r->len) : fxt__estr_index(r->ref);
}

static uint64_t pref_words(const pref_t *r) { return fxt_strref_is_inline(r->ref) ? fxt_words(r->len) : 0; }
static uint64_t reg_words(const pref_t *r) { return r->reg ? 1 + fxt_words(r->len) : 0; }

static void put_reg(tls_t *t, pref_t *r) {
    if (r->reg && t->strs[r->reg].epoch != t->epoch) {
        fxt__trace_put(&t->p, fxt__hdr_string(r->reg, r->len));
        fxt__trace_put_bytes(&t->p, r->ptr, r->len);
        t->strs[r->reg].epoch = t->epoch;
        FXT__TRACE_BUMP(t->records);
    }
}

static void put_inline(tls_t *t, const pref_t *r) {
    if (fxt_strref_is_inline(r->ref)) {
        fxt__trace_put_bytes(&t->p, r->ptr, r->len);
    }
}

typedef struct rec {
    uint32_t type;
    uint64_t ts, id, end_ts;
    int has_id, has_end;
    fxt_arg_t args[FXT_MAX_ARGS]; /* the macro's arguments, converted */
    unsigned nargs;
    pref_t cat, name, aname[FXT_MAX_ARGS], aval[FXT_MAX_ARGS];
} rec_t;

static uint64_t arg_words(const rec_t *r, unsigned i) {
    fxt__estr_t nm = pref_estr(&r->aname[i]), sv = pref_estr(&r->aval[i]);
    return fxt__arg_words(r->args[i].type, &nm, &sv);
}

/* Write an event (string registrations first), taking a new chunk if needed. */
static void emit(tls_t *t, rec_t *r) {
    for (int attempt = 0; attempt < 2; attempt++) {
        if (t->cur == NULL && !fxt__trace_next_chunk(t)) {
            break;
        }
        uint64_t need = 0, words = 2 + (uint64_t)(r->has_id || r->has_end);
        /* which strings this chunk has not registered yet */
        refresh_reg(t, &r->cat);
        refresh_reg(t, &r->name);
        for (unsigned i = 0; i < r->nargs; i++) {
            refresh_reg(t, &r->aname[i]);
            refresh_reg(t, &r->aval[i]);
        }
        need += reg_words(&r->cat);
        words += pref_words(&r->cat);
        need += reg_words(&r->name);
        words += pref_words(&r->name);
        for (unsigned i = 0; i < r->nargs; i++) {
            need += reg_words(&r->aname[i]) + reg_words(&r->aval[i]);
            words += arg_words(r, i);
        }
        if (words > FXT_MAX_RECORD_WORDS) {
            break; /* cannot be encoded: dropped */
        }
        if ((uint64_t)(t->end - t->p) < (need + words) * 8) {
            if (!fxt__trace_next_chunk(t)) {
                break;
            }
            /* new chunk: every string must be registered again */
            continue;
        }
        put_reg(t, &r->cat);
        put_reg(t, &r->name);
        for (unsigned i = 0; i < r->nargs; i++) {
            put_reg(t, &r->aname[i]);
            put_reg(t, &r->aval[i]);
        }
        fxt__trace_put(&t->p, fxt__hdr_event(r->type, r->nargs, 1, r->cat.ref, r->name.ref, words));
        fxt__trace_put(&t->p, r->ts);
        put_inline(t, &r->cat);
        put_inline(t, &r->name);
        for (unsigned i = 0; i < r->nargs; i++) {
            fxt__estr_t nm = pref_estr(&r->aname[i]), sv = pref_estr(&r->aval[i]);
            t->p = fxt__put_arg(t->p, 0, &r->args[i], &nm, &sv);
        }
        if (r->has_id) {
            fxt__trace_put(&t->p, r->id);
        } else if (r->has_end) {
            fxt__trace_put(&t->p, r->end_ts);
        }
        fxt__trace_commit(t);
        FXT__TRACE_BUMP(t->records);
        return;
    }
    FXT__TRACE_BUMP(t->dropped);
}

/*
 * The steady state: every string of the event is already registered in the
 * current chunk and the chunk has room. Then the event is encoded in one pass
 * over the arguments (read in place), straight into the chunk, with no string
 * preparation. Any other case returns 0 having committed nothing (bytes past
 * t->p are not part of the chunk yet), and the general path (prep + emit)
 * resolves, registers, takes a new chunk or drops, exactly as before.
 */

/* The index of `ptr` when the current chunk has registered it with this length, else 0. */
static inline uint16_t known_ref(const tls_t *t, const char *ptr, size_t len) {
    unsigned slot = cache_slot(ptr);
    uint16_t idx = t->cache[slot].idx;
    if (t->cache[slot].ptr != ptr || idx == 0 || t->strs[idx].len != len || t->strs[idx].epoch != t->epoch) {
        return 0;
    }
    return idx;
}

/*
 * The steady state of a call site with only non-string arguments: its last
 * event in this chunk left the record's header word and each argument's header
 * in the site cache, so an event is the timestamp, those words and the values.
 * 0 (nothing committed) when anything differs.
 */
FXT__INLINE int emit_fixed(tls_t *t, const site_cache_t *sc, uint32_t type, uint64_t ts,
                           const fxt__targ_t *args, size_t n, int has_tail, uint64_t tail) {
    uint8_t *p = t->p;
    if (!sc->fixed || sc->type != type || sc->nargs != n || (size_t)(t->end - p) < (size_t)sc->words * 8) {
        return 0;
    }
    uint8_t *q = p + 16;
    for (size_t k = 0; k < n; k++) {
        const fxt__targ_t *a = &args[k];
        /* a runtime name never enters the cache, so the pointer says it all */
        if (a->name != sc->arg[k].name || a->type != sc->arg[k].type) {
            return 0;
        }
        q = fxt__put_arg_fixed(q, 0, sc->arg[k].hdr, a->type, a->bits);
    }
    if (has_tail) {
        fxt__trace_put(&q, tail);
    }
    fxt__trace_put(&p, sc->hdr);
    fxt__trace_put(&p, ts);
    t->p = q;
    fxt__trace_commit(t);
    FXT__TRACE_BUMP(t->records);
    return 1;
}

/* tail: the id (has_id) or end timestamp (complete) word, if has_tail. 1 when written. */
FXT__INLINE int emit_fast(tls_t *t, uint32_t type, uint64_t ts, const fxt__site_t *site, const char *name,
                          size_t name_len, const fxt__targ_t *args, size_t n, int has_tail, uint64_t tail) {
    site_cache_t *sc = &t->sites[site_slot(site)];
    int hit = sc->site == site && sc->name == name && sc->name_len == name_len && sc->epoch == t->epoch &&
              sc->gen == t->gen;
    if (hit && emit_fixed(t, sc, type, ts, args, n, has_tail, tail)) {
        return 1;
    }
    uint8_t *p = t->p;
    /* room for the worst case without inline string values: header, timestamp,
     * 2 words per argument, tail (p == end == NULL without a chunk) */
    const char *cat = site->category;
    if (n > FXT_MAX_ARGS || cat == NULL || name == NULL || (size_t)(t->end - p) < (3 + 2 * n) * 8) {
        return 0;
    }
    uint16_t cref, nref;
    if (hit) {
        cref = sc->cref;
        nref = sc->nref;
    } else {
        /* lengths known in advance (a strlen per string per event was a fifth of an event's
         * cost): the category's measured by fxt__site_refresh, the name's at the call site */
        uint32_t cat_len = __atomic_load_n(&site->category_len, __ATOMIC_RELAXED);
        cref = known_ref(t, cat, cat_len ? cat_len : strlen(cat));
        nref = known_ref(t, name, name_len);
        if (cref == 0 || nref == 0) {
            return 0;
        }
        /* this chunk has both: remember them for the site's next events */
        sc->site = site;
        sc->name = name;
        sc->name_len = (uint32_t)name_len;
        sc->epoch = t->epoch;
        sc->gen = t->gen;
        sc->cref = cref;
        sc->nref = nref;
        sc->nargs = 0;
    }
    sc->fixed = 0;
    int fixed = n <= FXT__TRACE_SITE_CACHE_ARGS;
    uint8_t *q = p + 16;
    size_t k = 0;
    for (; k < n; k++) {
        const fxt__targ_t *a = &args[k];
        if (a->type >= FXT_ARG_TYPE_COUNT) {
            break; /* an invalid argument ends the list (as prep_args) */
        }
        if (a->flags & FXT__DYN) {
            return 0; /* runtime names are written inline: the general path */
        }
        uint16_t aref;
        if (k < sc->nargs && sc->arg[k].name == a->name) {
            aref = sc->arg[k].ref;
        } else {
            aref = known_ref(t, a->name, a->name_len);
            if (aref == 0) {
                return 0;
            }
            if (k == sc->nargs && k < FXT__TRACE_SITE_CACHE_ARGS) {
                sc->arg[k].name = a->name;
                sc->arg[k].ref = aref;
                sc->arg[k].type = FXT_ARG_TYPE_COUNT;
                sc->nargs++;
            }
        }
        if (a->type != FXT_ARG_STRING) {
            uint64_t ahdr = fxt__arg_hdr_fixed(a->type, aref);
            if (k < sc->nargs) {
                sc->arg[k].type = (uint8_t)a->type;
                sc->arg[k].hdr = ahdr;
            }
            q = fxt__put_arg_fixed(q, 0, ahdr, a->type, a->bits);
            continue;
        }
        fixed = 0;
        fxt_arg_t sa = {.type = FXT_ARG_STRING};
        fxt__estr_t nm = fxt__estr_index(aref), sv = fxt__estr_index(FXT_STRREF_EMPTY);
        /* cut like every other API (a UTF-8 boundary) */
        uint32_t len = a->str != NULL
                           ? fxt__str_clamp(a->str, a->bits > UINT32_MAX ? UINT32_MAX : (uint32_t)a->bits)
                           : 0;
        if (len != 0) {
            sv = fxt__estr_inline(a->str, len);
            /* beyond the 2 words reserved: keep room for the arguments left and the tail */
            if ((uint64_t)(t->end - q) < (1 + fxt__estr_words(&sv) + 2 * (n - k - 1) + 1) * 8) {
                return 0;
            }
        }
        q = fxt__put_arg(q, 0, &sa, &nm, &sv);
    }
    if (has_tail) {
        fxt__trace_put(&q, tail);
    }
    uint64_t words = (uint64_t)(q - p) / 8;
    if (words > FXT_MAX_RECORD_WORDS) {
        return 0; /* the general path drops it */
    }
    uint64_t hdr = fxt__hdr_event(type, (unsigned)k, 1, cref, nref, words);
    fxt__trace_put(&p, hdr);
    fxt__trace_put(&p, ts);
    t->p = q;
    fxt__trace_commit(t);
    FXT__TRACE_BUMP(t->records);
    if (fixed && k == n && sc->nargs == n) {
        /* the next event of this site can reuse every header word */
        sc->fixed = 1;
        sc->type = type;
        sc->words = (uint32_t)words;
        sc->hdr = hdr;
    }
    return 1;
}

/* Convert and resolve `n` macro arguments (an invalid type ends the list). Runtime
 * argument names and string values are written inline. */
static void prep_args(tls_t *t, rec_t *r, const fxt__targ_t *args, size_t n) {
    r->nargs = 0;
    if (n > FXT_MAX_ARGS) {
        n = FXT_MAX_ARGS;
    }
    for (size_t i = 0; i < n; i++) {
        const fxt__targ_t *a = &args[i];
        if (a->type >= FXT_ARG_TYPE_COUNT) {
            break;
        }
        fxt_arg_t *o = &r->args[r->nargs];
        memset(o, 0, sizeof *o);
        o->type = (uint8_t)a->type;
        o->name = fxt_str_n(a->name, a->name_len);
        if (a->flags & FXT__DYN) {
            o->name.ref = FXT_STRREF_INLINE_FLAG;
        }
        if (a->type == FXT_ARG_STRING) {
            o->str = fxt_str_n(a->str, a->bits > UINT32_MAX ? UINT32_MAX : (uint32_t)a->bits);
            o->str.ref = FXT_STRREF_INLINE_FLAG;
        } else {
            o->v.u64 = a->bits;
            if (a->type == FXT_ARG_INT32 || a->type == FXT_ARG_UINT32) {
                o->v.u32 = (uint32_t)a->bits; /* the union's first 4 bytes, whatever the byte order */
            } else if (a->type == FXT_ARG_BOOL) {
                o->v.boolean = a->bits != 0;
            } else if (a->type == FXT_ARG_DOUBLE) {
                memcpy(&o->v.f64, &a->bits, sizeof o->v.f64);
            }
        }
        prep(t, o->name, 0, &r->aname[r->nargs]);
        if (a->type == FXT_ARG_STRING) {
            prep(t, o->str, 0, &r->aval[r->nargs]);
        } else {
            r->aval[r->nargs].reg = 0;
            r->aval[r->nargs].ref = 0;
            r->aval[r->nargs].len = 0;
        }
        r->nargs++;
    }
}

static void start_rec_at(tls_t *t, rec_t *r, fxt__site_t *site, uint32_t type, const char *name,
                         uint32_t name_len, uint64_t ts) {
    r->type = type;
    r->ts = ts;
    r->has_id = r->has_end = 0;
    prep(t, fxt_cstr(site->category), 0, &r->cat);
    prep(t, fxt_str_n(name, name_len & ~FXT__NAME_DYN), (name_len & FXT__NAME_DYN) != 0, &r->name);
}

/* Everything the one-pass path leaves: resolve and register strings, take chunks,
 * drop. Out of line, so that the fast path keeps a small frame. */
FXT__NOINLINE void emit_general(tls_t *t, fxt__site_t *site, uint32_t type, const char *name,
                                uint32_t name_len, uint64_t ts, int has_id, uint64_t id, int has_end,
                                uint64_t end_ts, const fxt__targ_t *args, size_t nargs) {
    rec_t r;
    start_rec_at(t, &r, site, type, name, name_len, ts);
    r.has_id = has_id;
    r.id = id;
    r.has_end = has_end;
    r.end_ts = end_ts;
    prep_args(t, &r, args, nargs);
    emit(t, &r);
}

/* The one-pass paths take literal names only (interned by address); a runtime
 * name (FXT__NAME_DYN) goes to the general path, which interns it by content. */
void fxt__complete_args(fxt__site_t *site, const char *name, uint32_t name_len, uint64_t start,
                        const fxt__targ_t *args, size_t nargs) {
    tls_t *t = fxt__trace_enter();
    if (t == NULL) {
        return;
    }
    uint64_t end = fxt__trace_now();
    if ((name_len & FXT__NAME_DYN) ||
        !emit_fast(t, FXT_EVENT_DURATION_COMPLETE, start, site, name, name_len, args, nargs, 1, end)) {
        emit_general(t, site, FXT_EVENT_DURATION_COMPLETE, name, name_len, start, 0, 0, 1, end, args, nargs);
    }
    fxt__trace_leave(t);
}

void fxt__event_args_n(fxt__site_t *site, uint32_t type, const char *name, uint32_t name_len, int has_id,
                       uint64_t id, const fxt__targ_t *args, size_t nargs) {
    tls_t *t = fxt__trace_enter();
    if (t == NULL) {
        return;
    }
    uint64_t ts = fxt__trace_now();
    if ((name_len & FXT__NAME_DYN) ||
        !emit_fast(t, type, ts, site, name, name_len, args, nargs, has_id != 0, id)) {
        emit_general(t, site, type, name, name_len, ts, has_id != 0, id, 0, 0, args, nargs);
    }
    fxt__trace_leave(t);
}

/* A record with a byte stream (log message, blob payload). */
static void emit_stream(tls_t *t, int is_log, const char *name, uint32_t name_len, const void *data,
                        size_t len) {
    uint64_t ts = fxt__trace_now();
    for (int attempt = 0; attempt < 2; attempt++) {
        if (t->cur == NULL && !fxt__trace_next_chunk(t)) {
            break;
        }
        pref_t nm = {0, 0, NULL, 0};
        if (!is_log) {
            prep(t, fxt_str_n(name, name_len & ~FXT__NAME_DYN), (name_len & FXT__NAME_DYN) != 0, &nm);
            refresh_reg(t, &nm);
        }
        uint64_t words = (is_log ? 2 : 1 + pref_words(&nm)) + fxt_words(len);
        uint64_t need = words + reg_words(&nm);
        if ((uint64_t)(t->end - t->p) < need * 8) {
            if (!fxt__trace_next_chunk(t)) {
                break;
            }
            continue;
        }
        if (is_log) {
            fxt__trace_put(&t->p, fxt__hdr_log(words, (uint32_t)len, 1));
            fxt__trace_put(&t->p, ts);
        } else {
            put_reg(t, &nm);
            fxt__trace_put(&t->p, fxt__hdr_blob(words, nm.ref, len, FXT_BLOB_DATA));
            put_inline(t, &nm);
        }
        fxt__trace_put_bytes(&t->p, data, len);
        fxt__trace_commit(t);
        FXT__TRACE_BUMP(t->records);
        return;
    }
    FXT__TRACE_BUMP(t->dropped);
}

void fxt__log(fxt__site_t *site, const char *fmt, ...) {
    (void)site;
    tls_t *t = fxt__trace_enter();
    if (t == NULL) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->logbuf, sizeof t->logbuf, fmt, ap);
    va_end(ap);
    if (n >= 0) {
        size_t len = (size_t)n < sizeof t->logbuf ? (size_t)n : sizeof t->logbuf - 1;
        emit_stream(t, 1, NULL, 0, t->logbuf, len);
    }
    fxt__trace_leave(t);
}

void fxt__blob(fxt__site_t *site, const char *name, uint32_t name_len, const void *data, size_t size) {
    (void)site;
    tls_t *t = fxt__trace_enter();
    if (t == NULL) {
        return;
    }
    if (size > FXT_MAX_BLOB_SIZE || size + 64 > fxt__trace.chunk_size) {
        FXT__TRACE_BUMP(t->dropped); /* larger than a blob record (or a chunk) can hold */
    } else {
        emit_stream(t, 0, name, name_len, data, size);
    }
    fxt__trace_leave(t);
}

/*
 * An alert: an instant alert/NAME written whatever the categories (a trigger must not
 * depend on them), then, under a manager, one non-blocking message so that it acts
 * now rather than at its next poll. Sent inside the record (enter .. leave): a stop
 * waits for it before it closes the connection.
 */
fxt_status fxt_alert(const char *name) {
    static fxt__site_t site = {"alert", 0, 0};
    size_t len = name != NULL ? strlen(name) : 0;
    if (len == 0 || len > 63) {
        return FXT_E_INVALID_ARG;
    }
    (void)fxt__site_on(&site); /* starts the session from the environment, as a macro would */
    tls_t *t = fxt__trace_enter();
    if (t == NULL) {
        return FXT_E_STATE;
    }
    uint64_t ts = fxt__trace_now();
    emit_general(t, &site, FXT_EVENT_INSTANT, name, (uint32_t)len | FXT__NAME_DYN, ts, 0, 0, 0, 0, NULL, 0);
    fxt__trace_mgr_alert(name, ts);
    fxt__trace_leave(t);
    return FXT_OK;
}
