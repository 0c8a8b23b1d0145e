/* SPDX-License-Identifier: MIT */
/*
 * The FXT writer: validation, interning, and the encoding of every record.
 *
 * Each record is written in two phases: first its strings and threads are
 * resolved (interning may emit string/thread records, which must precede the
 * record), then its size is checked and its words are stored into the
 * internal buffer, which reaches the sink in large blocks.
 *
 * Interning tables recycle slots with the clock algorithm when full: every
 * use sets a slot's reference bit, the hand clears bits and evicts the first
 * slot whose bit is clear. Slots used by the record being written are pinned
 * (their `pin` equals the record serial) so a record never evicts its own
 * strings. Eviction re-registers the index, which the spec defines as
 * replacing the entry for the records that follow.
 */
#include <fxt/writer.h>

#include <stdlib.h>
#include <string.h>

#include "attrs.h"
#include "options.h"
#include "writer_internal.h"

#define DEFAULT_BUFFER (64u << 10)
#define MIN_BUFFER (32u << 10) /* holds any normal record (32760 bytes) */
#define STR_MAP_SIZE 65536u    /* power of two > 2 x 32767 */
#define THR_MAP_SIZE 512u      /* power of two > 2 x 255 */
#define SCACHE_SIZE 256u       /* power of two: (pointer, length) -> slot hints */

typedef struct sslot {
    char *p;
    uint32_t len, cap;
    uint32_t hash;
    uint8_t used, refbit;
    uint64_t pin;
} sslot_t;

/*
 * A hint: the caller's string at (p, len) was last found in slot idx. Only a
 * hint: a hit is checked against the slot's own bytes, so a reused buffer
 * with new bytes misses and a recycled slot misses.
 */
typedef struct scache {
    const char *p;
    uint32_t len;
    uint16_t idx;
} scache_t;

typedef struct tslot {
    uint64_t pid, tid;
    uint32_t hash;
    uint8_t used, refbit;
    uint64_t pin;
} tslot_t;

struct fxt_writer {
    fxt_sink_t sink;
    fxt_status status;
    uint32_t flags;
    int swap;
    uint8_t *buf;
    size_t cap, len;
    uint64_t flushed; /* bytes handed to the sink */
    uint64_t records;
    uint64_t truncations;
    uint64_t serial;                                               /* record being written, for pinning */
    uint64_t trunc_mark;                                           /* truncations before the current call */
    uint64_t str_regs, str_evict, str_inline, thr_regs, thr_evict; /* fxt_writer_get_stats() */
    size_t reserved;                                               /* fxt_writer_reserve(): bytes promised */

    uint32_t max_strings, nstrings, shand;
    sslot_t *strings; /* [1..max_strings] */
    uint16_t *smap;   /* hash -> string index, 0 = empty */
    scache_t scache[SCACHE_SIZE];

    uint32_t max_threads, nthreads, thand;
    uint8_t thint; /* slot of the last thread looked up: checked before hashing */
    tslot_t threads[256];
    uint8_t tmap[THR_MAP_SIZE];
};

/* ---- buffer ---------------------------------------------------------------------- */

static fxt_status set_error(fxt_writer_t *w, fxt_status st) {
    if (w->status == FXT_OK) {
        w->status = st;
    }
    return w->status;
}

static fxt_status flush_buf(fxt_writer_t *w) {
    if (w->len == 0) {
        return FXT_OK;
    }
    fxt_status st = w->sink.write(w->sink.ctx, w->buf, w->len);
    if (st != FXT_OK) {
        return set_error(w, st);
    }
    w->flushed += w->len;
    w->len = 0;
    return FXT_OK;
}

/* Make room for `bytes` (<= cap) contiguous bytes. */
static inline fxt_status reserve(fxt_writer_t *w, size_t bytes) {
    if (w->cap - w->len < bytes) {
        return flush_buf(w);
    }
    return FXT_OK;
}

/* Output through the encoding core (src/encode.h), at the buffer's end, in the writer's byte order. */
static inline void put(fxt_writer_t *w, uint64_t v) {
    fxt__put_word(w->buf + w->len, v, w->swap);
    w->len += 8;
}

static inline void put_stream(fxt_writer_t *w, const void *p, size_t n) {
    w->len = (size_t)(fxt__put_bytes(w->buf + w->len, p, n) - w->buf);
}

/* ---- lifecycle ---------------------------------------------------------------------- */

fxt_status fxt_writer_create(const fxt_writer_options_t *opt, fxt_sink_t sink, fxt_writer_t **out) {
    if (out == NULL || sink.write == NULL) {
        return FXT_E_INVALID_ARG;
    }
    *out = NULL;
    fxt_writer_options_t o = FXT_WRITER_OPTIONS_INIT;
    if (fxt__options_read(&o, sizeof o, opt) != FXT_OK) {
        return FXT_E_INVALID_ARG;
    }
    if (o.max_strings > FXT_MAX_STRING_INDEX || o.max_threads > FXT_MAX_THREAD_INDEX) {
        return FXT_E_INVALID_ARG;
    }
    fxt_writer_t *w = calloc(1, sizeof *w);
    if (w == NULL) {
        return FXT_E_NOMEM;
    }
    w->sink = sink;
    w->flags = o.flags;
    w->swap = ((o.flags & FXT_WRITE_BIG_ENDIAN) != 0) != fxt_host_is_big_endian();
    w->cap = o.buffer_size ? o.buffer_size : DEFAULT_BUFFER;
    if (w->cap < MIN_BUFFER) {
        w->cap = MIN_BUFFER;
    }
    w->cap &= ~(size_t)7;
    w->max_strings = o.max_strings ? o.max_strings : FXT_MAX_STRING_INDEX;
    w->max_threads = o.max_threads ? o.max_threads : FXT_MAX_THREAD_INDEX;
    w->buf = malloc(w->cap);
    w->strings = calloc((size_t)w->max_strings + 1, sizeof *w->strings);
    w->smap = calloc(STR_MAP_SIZE, sizeof *w->smap);
    if (w->buf == NULL || w->strings == NULL || w->smap == NULL) {
        fxt_writer_destroy(w);
        return FXT_E_NOMEM;
    }
    *out = w;
    return FXT_OK;
}

void fxt_writer_destroy(fxt_writer_t *w) {
    if (w == NULL) {
        return;
    }
    if (w->strings != NULL) {
        for (uint32_t i = 0; i <= w->max_strings; i++) {
            free(w->strings[i].p);
        }
    }
    free(w->strings);
    free(w->smap);
    free(w->buf);
    free(w);
}

fxt_status fxt_writer_flush(fxt_writer_t *w) {
    if (w == NULL) {
        return FXT_E_INVALID_ARG;
    }
    if (w->status != FXT_OK) {
        return w->status;
    }
    return flush_buf(w);
}

fxt_status fxt_writer_finish(fxt_writer_t *w) { return fxt_writer_flush(w); }

fxt_status fxt_writer_status(const fxt_writer_t *w) { return w ? w->status : FXT_E_INVALID_ARG; }
uint64_t fxt_writer_truncations(const fxt_writer_t *w) { return w ? w->truncations : 0; }
uint64_t fxt_writer_bytes(const fxt_writer_t *w) { return w ? w->flushed + w->len : 0; }
uint64_t fxt_writer_records(const fxt_writer_t *w) { return w ? w->records : 0; }

void fxt_writer_reset_tables(fxt_writer_t *w) {
    if (w == NULL) {
        return;
    }
    for (uint32_t i = 1; i <= w->max_strings; i++) {
        w->strings[i].used = 0;
        w->strings[i].refbit = 0;
    }
    memset(w->smap, 0, STR_MAP_SIZE * sizeof *w->smap);
    memset(w->scache, 0, sizeof w->scache);
    w->nstrings = 0;
    w->shand = 0;
    memset(w->threads, 0, sizeof w->threads);
    memset(w->tmap, 0, sizeof w->tmap);
    w->thint = 0;
    w->nthreads = 0;
    w->thand = 0;
}

/* ---- hashing and the index maps ---------------------------------------------------------- */

/*
 * The bytes of a string shorter than 8 as one word, without a variable-length
 * memcpy (a libc call per string): two overlapping 4-byte loads cover 4..7
 * bytes, three byte loads cover 1..3. Equal words <=> equal bytes for the same
 * n, so it serves both hashing and comparison.
 */
FXT__INLINE uint64_t load_tail(const char *p, uint32_t n) {
    if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, p, 4);
        memcpy(&b, p + n - 4, 4);
        return (uint64_t)a | ((uint64_t)b << 32);
    }
    if (n == 0) {
        return 0;
    }
    return (uint64_t)(uint8_t)p[0] | ((uint64_t)(uint8_t)p[n / 2] << 8) | ((uint64_t)(uint8_t)p[n - 1] << 16);
}

static inline uint32_t hash_bytes(const char *p, uint32_t n) {
    uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
    while (n >= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        h = (h ^ v) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
        p += 8;
        n -= 8;
    }
    h = (h ^ load_tail(p, n)) * 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 29;
    return (uint32_t)h;
}

/* Equality of two strings of length n; short ones without a libc call. */
FXT__INLINE int same_bytes(const char *a, const char *b, uint32_t n) {
    if (n < 8) {
        return load_tail(a, n) == load_tail(b, n);
    }
    if (n <= 16) {
        /* first and last 8 bytes (they overlap when n < 16) */
        uint64_t x0, y0, x1, y1;
        memcpy(&x0, a, 8);
        memcpy(&y0, b, 8);
        memcpy(&x1, a + n - 8, 8);
        memcpy(&y1, b + n - 8, 8);
        return x0 == y0 && x1 == y1;
    }
    return memcmp(a, b, n) == 0;
}

static uint32_t hash_thread(uint64_t pid, uint64_t tid) {
    uint64_t h = (pid * 0x9e3779b97f4a7c15ull) ^ (tid * 0xc2b2ae3d27d4eb4full);
    h ^= h >> 31;
    return (uint32_t)h;
}

/*
 * Remove the entry at map position `pos` from a linear-probing map, shifting
 * later entries of the cluster back so lookups stay correct (no tombstones).
 * hash_of(index) gives an entry's hash.
 */
#define MAP_REMOVE(map, mask, pos, hash_of)                                                                  \
    do {                                                                                                     \
        size_t p_ = (pos), j_ = (pos);                                                                       \
        for (;;) {                                                                                           \
            j_ = (j_ + 1) & (mask);                                                                          \
            if ((map)[j_] == 0) {                                                                            \
                break;                                                                                       \
            }                                                                                                \
            size_t k_ = (size_t)(hash_of((map)[j_])) & (mask);                                               \
            /* move j_ back to p_ unless its home k_ lies cyclically in (p_, j_] */                          \
            int stay_ = p_ <= j_ ? (p_ < k_ && k_ <= j_) : (p_ < k_ || k_ <= j_);                            \
            if (!stay_) {                                                                                    \
                (map)[p_] = (map)[j_];                                                                       \
                p_ = j_;                                                                                     \
            }                                                                                                \
        }                                                                                                    \
        (map)[p_] = 0;                                                                                       \
    } while (0)

#define SHASH(i) (w->strings[(i)].hash)
#define THASH(i) (w->threads[(i)].hash)

/* Drop string slot idx from the lookup map (it stays allocated for reuse). */
static void string_unmap(fxt_writer_t *w, uint16_t idx) {
    size_t mask = STR_MAP_SIZE - 1, pos = w->strings[idx].hash & mask;
    while (w->smap[pos] != idx) {
        pos = (pos + 1) & mask;
    }
    MAP_REMOVE(w->smap, mask, pos, SHASH);
    w->strings[idx].used = 0;
}

/* Enter string slot idx (hash already set) into the lookup map. */
static void string_map(fxt_writer_t *w, uint16_t idx) {
    size_t mask = STR_MAP_SIZE - 1, pos = w->strings[idx].hash & mask;
    while (w->smap[pos] != 0) {
        pos = (pos + 1) & mask;
    }
    w->smap[pos] = idx;
    w->strings[idx].used = 1;
}

static void thread_unmap(fxt_writer_t *w, uint8_t idx) {
    size_t mask = THR_MAP_SIZE - 1, pos = w->threads[idx].hash & mask;
    while (w->tmap[pos] != idx) {
        pos = (pos + 1) & mask;
    }
    MAP_REMOVE(w->tmap, mask, pos, THASH);
    w->threads[idx].used = 0;
}

static void thread_map(fxt_writer_t *w, uint8_t idx) {
    size_t mask = THR_MAP_SIZE - 1, pos = w->threads[idx].hash & mask;
    while (w->tmap[pos] != 0) {
        pos = (pos + 1) & mask;
    }
    w->tmap[pos] = idx;
    w->threads[idx].used = 1;
}

/* ---- string interning ---------------------------------------------------------------------- */

static fxt_status emit_string_record(fxt_writer_t *w, uint16_t index, const char *p, uint32_t len) {
    uint64_t words = 1 + fxt_words(len);
    fxt_status st = reserve(w, (size_t)words * 8);
    if (st != FXT_OK) {
        return st;
    }
    put(w, fxt__hdr_string(index, len));
    put_stream(w, p, len);
    w->records++;
    return FXT_OK;
}

/* Pick a slot for a new string: a free one, else the clock's victim. */
static uint16_t string_victim(fxt_writer_t *w) {
    while (w->nstrings < w->max_strings) {
        if (!w->strings[++w->nstrings].used) {
            return (uint16_t)w->nstrings;
        }
    }
    /* two sweeps clear every reference bit; after that only pinned slots remain */
    for (uint32_t n = 0; n <= 2 * w->max_strings + 1; n++) {
        w->shand = w->shand % w->max_strings + 1;
        sslot_t *s = &w->strings[w->shand];
        if (s->pin == w->serial) {
            continue;
        }
        if (s->refbit) {
            s->refbit = 0;
            continue;
        }
        string_unmap(w, (uint16_t)w->shand); /* evict */
        w->str_evict++;
        return (uint16_t)w->shand;
    }
    return 0; /* every slot is used by the current record: caller writes inline */
}

static inline scache_t *scache_entry(fxt_writer_t *w, const char *p, uint32_t len) {
    uint64_t k = ((uint64_t)(uintptr_t)p + len) * 0x9e3779b97f4a7c15ull;
    return &w->scache[k >> 56];
}

/*
 * Callers mostly pass the same literals again: try the slot this buffer was
 * last found in, comparing contents (cheaper than hashing them). The slot's
 * index (marked used by this record), or 0 on a miss.
 */
FXT__INLINE uint16_t scache_hit(fxt_writer_t *w, const char *p, uint32_t len) {
    const scache_t *c = scache_entry(w, p, len);
    if (c->p == p && c->len == len) {
        sslot_t *s = &w->strings[c->idx];
        if (s->used && s->len == len && same_bytes(s->p, p, len)) {
            s->refbit = 1;
            s->pin = w->serial;
            return c->idx;
        }
    }
    return 0;
}

static void scache_note(fxt_writer_t *w, const char *p, uint32_t len, uint16_t idx) {
    scache_t *c = scache_entry(w, p, len);
    c->p = p;
    c->len = len;
    c->idx = idx;
}

static fxt_status intern_string(fxt_writer_t *w, const char *p, uint32_t len, uint16_t *ref) {
    uint16_t hit = scache_hit(w, p, len);
    if (hit != 0) {
        *ref = hit;
        return FXT_OK;
    }
    uint32_t h = hash_bytes(p, len);
    size_t mask = STR_MAP_SIZE - 1, pos = h & mask;
    for (uint16_t idx; (idx = w->smap[pos]) != 0; pos = (pos + 1) & mask) {
        sslot_t *s = &w->strings[idx];
        if (s->hash == h && s->len == len && same_bytes(s->p, p, len)) {
            s->refbit = 1;
            s->pin = w->serial;
            *ref = idx;
            scache_note(w, p, len, idx);
            return FXT_OK;
        }
    }
    uint16_t idx = string_victim(w);
    if (idx == 0) {
        w->str_inline++;
        *ref = fxt_strref_inline((uint16_t)len);
        return FXT_OK;
    }
    w->str_regs++;
    sslot_t *s = &w->strings[idx];
    if (len > s->cap || s->p == NULL) {
        uint32_t ncap = len < 32 ? 32 : len;
        char *np = realloc(s->p, ncap);
        if (np == NULL) {
            return set_error(w, FXT_E_NOMEM);
        }
        s->p = np;
        s->cap = ncap;
    }
    memcpy(s->p, p, len);
    s->len = len;
    s->hash = h;
    s->refbit = 1;
    s->pin = w->serial;
    string_map(w, idx);
    *ref = idx;
    scache_note(w, p, len, idx);
    return emit_string_record(w, idx, p, len);
}

/* A string resolved for a record: its ref and, when inline, its bytes. */
typedef fxt__estr_t pstr_t;

/* Truncate to 32000 bytes at a UTF-8 boundary (never split a sequence), and count it. */
static uint32_t clamp_len(fxt_writer_t *w, const char *p, uint32_t len) {
    uint32_t n = fxt__str_clamp(p, len);
    if (n != len) {
        w->truncations++;
    }
    return n;
}

/*
 * Validation before anything is interned (so a refused record writes
 * nothing, not even string or thread records): check strings and arguments
 * and add the words they will take. An interned string takes no words; it
 * would be written inline only if every table slot were pinned by the same
 * record (possible only with a tiny max_strings), and that case is caught by
 * start_record() later.
 */
FXT__INLINE fxt_status plan_str(const fxt_writer_t *w, fxt_str_t s, uint64_t *words) {
    if (s.ptr == NULL && s.len != 0) {
        return FXT_E_INVALID_ARG;
    }
    if (s.len != 0 && ((s.ref & FXT_STRREF_INLINE_FLAG) || (w->flags & FXT_WRITE_NO_INTERN))) {
        *words += fxt_words(fxt__str_clamp(s.ptr, s.len));
    }
    return FXT_OK;
}

/* ref 0: interned (inline under NO_INTERN); FXT_THREAD_INLINE_FLAG: inline; 1..255: the caller's index. */
FXT__INLINE fxt_status plan_thread(const fxt_writer_t *w, const fxt_thread_ref_t *t, uint64_t *words) {
    if (t->ref == 0) {
        *words += (w->flags & FXT_WRITE_NO_INTERN) ? 2 : 0;
    } else if (t->ref == FXT_THREAD_INLINE_FLAG) {
        *words += 2;
    } else if (t->ref > FXT_MAX_THREAD_INDEX) {
        return FXT_E_BAD_INDEX;
    }
    return FXT_OK;
}

/* Inlined into fxt_write_event only (the hot path); other records call plan_args(). */
FXT__INLINE fxt_status plan_args_in(const fxt_writer_t *w, const fxt_arg_t *args, unsigned nargs,
                                    uint64_t *words) {
    if (nargs > FXT_MAX_ARGS) {
        return FXT_E_TOO_MANY_ARGS;
    }
    if (nargs != 0 && args == NULL) {
        return FXT_E_INVALID_ARG;
    }
    for (unsigned i = 0; i < nargs; i++) {
        if (args[i].type >= FXT_ARG_TYPE_COUNT) {
            return FXT_E_BAD_ARG;
        }
        *words += 1 + (uint64_t)fxt_arg_has_value_word(args[i].type);
        fxt_status st = plan_str(w, args[i].name, words);
        if (st == FXT_OK && args[i].type == FXT_ARG_STRING) {
            st = plan_str(w, args[i].str, words);
        }
        if (st != FXT_OK) {
            return st;
        }
    }
    return FXT_OK;
}

static fxt_status plan_args(const fxt_writer_t *w, const fxt_arg_t *args, unsigned nargs, uint64_t *words) {
    return plan_args_in(w, args, nargs, words);
}

static fxt_status plan_done(uint64_t words) {
    return words > FXT_MAX_RECORD_WORDS ? FXT_E_RECORD_TOO_LARGE : FXT_OK;
}

static fxt_status prep_str_slow(fxt_writer_t *w, fxt_str_t s, pstr_t *out) {
    if (s.ptr == NULL && s.len != 0) {
        return FXT_E_INVALID_ARG;
    }
    uint32_t len = clamp_len(w, s.ptr, s.len);
    if (len == 0 || (s.ref & FXT_STRREF_INLINE_FLAG) || (w->flags & FXT_WRITE_NO_INTERN)) {
        *out = fxt__estr_inline(s.ptr, len);
        return FXT_OK;
    }
    uint16_t ref = FXT_STRREF_EMPTY;
    fxt_status st = intern_string(w, s.ptr, len, &ref);
    /* no slot could be freed: inline */
    *out = fxt_strref_is_inline(ref) ? fxt__estr_inline(s.ptr, len) : fxt__estr_index(ref);
    return st;
}

/*
 * The common case inline (a call per string costs as much as the check): a
 * string to intern, not truncated, found where its hint says. Everything
 * else, including every statistic and error, goes the general way.
 */
FXT__INLINE fxt_status prep_str(fxt_writer_t *w, fxt_str_t s, pstr_t *out) {
    if (s.ptr != NULL && s.len - 1u < FXT_MAX_STRING_LEN && !(s.ref & FXT_STRREF_INLINE_FLAG) &&
        !(w->flags & FXT_WRITE_NO_INTERN)) {
        uint16_t hit = scache_hit(w, s.ptr, s.len);
        if (hit != 0) {
            *out = fxt__estr_index(hit);
            return FXT_OK;
        }
    }
    return prep_str_slow(w, s, out);
}

static inline uint64_t pstr_words(const pstr_t *s) { return fxt__estr_words(s); }

static inline void put_pstr(fxt_writer_t *w, const pstr_t *s) {
    w->len = (size_t)(fxt__put_estr(w->buf + w->len, s) - w->buf);
}

/* ---- thread interning ------------------------------------------------------------------------ */

typedef struct pthr {
    uint8_t ref;
    uint64_t pid, tid;
} pthr_t;

static uint8_t thread_victim(fxt_writer_t *w) {
    while (w->nthreads < w->max_threads) {
        if (!w->threads[++w->nthreads].used) {
            return (uint8_t)w->nthreads;
        }
    }
    for (uint32_t n = 0; n <= 2 * w->max_threads + 1; n++) {
        w->thand = w->thand % w->max_threads + 1;
        tslot_t *t = &w->threads[w->thand];
        if (t->pin == w->serial) {
            continue;
        }
        if (t->refbit) {
            t->refbit = 0;
            continue;
        }
        thread_unmap(w, (uint8_t)w->thand);
        w->thr_evict++;
        return (uint8_t)w->thand;
    }
    return 0;
}

static fxt_status prep_thread_slow(fxt_writer_t *w, const fxt_thread_ref_t *tp, pthr_t *out) {
    fxt_thread_ref_t t = *tp;
    out->pid = t.pid;
    out->tid = t.tid;
    if (t.ref != 0 && t.ref != FXT_THREAD_INLINE_FLAG) {
        out->ref = (uint8_t)t.ref; /* the caller's index (checked by plan_thread) */
        return FXT_OK;
    }
    if (t.ref != 0 || (w->flags & FXT_WRITE_NO_INTERN)) {
        out->ref = FXT_THREADREF_INLINE;
        return FXT_OK;
    }
    uint32_t h = hash_thread(t.pid, t.tid);
    size_t mask = THR_MAP_SIZE - 1, pos = h & mask;
    for (uint8_t idx; (idx = w->tmap[pos]) != 0; pos = (pos + 1) & mask) {
        tslot_t *s = &w->threads[idx];
        if (s->pid == t.pid && s->tid == t.tid) {
            s->refbit = 1;
            s->pin = w->serial;
            out->ref = idx;
            w->thint = idx;
            return FXT_OK;
        }
    }
    uint8_t idx = thread_victim(w);
    if (idx == 0) {
        out->ref = FXT_THREADREF_INLINE;
        return FXT_OK;
    }
    tslot_t *s = &w->threads[idx];
    s->pid = t.pid;
    s->tid = t.tid;
    s->hash = h;
    s->refbit = 1;
    s->pin = w->serial;
    thread_map(w, idx);
    out->ref = idx;
    w->thint = idx;
    w->thr_regs++;
    fxt_status st = reserve(w, 24);
    if (st != FXT_OK) {
        return st;
    }
    put(w, fxt__hdr_thread(idx));
    put(w, t.pid);
    put(w, t.tid);
    w->records++;
    return FXT_OK;
}

/*
 * Inline: the thread of the previous event (the common case); else the
 * general way. Taken by pointer and read field by field: a by-value copy
 * became one 16-byte load of pid and tid, which the CPU cannot forward from
 * the caller's two 8-byte stores.
 */
FXT__INLINE fxt_status prep_thread(fxt_writer_t *w, const fxt_thread_ref_t *t, pthr_t *out) {
    tslot_t *last = &w->threads[w->thint];
    if (last->used && last->pid == t->pid && last->tid == t->tid && t->ref == 0 &&
        !(w->flags & FXT_WRITE_NO_INTERN)) {
        last->refbit = 1;
        last->pin = w->serial;
        out->ref = w->thint;
        out->pid = last->pid;
        out->tid = last->tid;
        return FXT_OK;
    }
    return prep_thread_slow(w, t, out);
}

static inline uint64_t pthr_words(const pthr_t *t) { return fxt__thread_words(t->ref); }

static inline void put_pthr(fxt_writer_t *w, const pthr_t *t) {
    w->len = (size_t)(fxt__put_thread(w->buf + w->len, w->swap, t->ref, t->pid, t->tid) - w->buf);
}

/* ---- arguments --------------------------------------------------------------------------- */

typedef struct pargs {
    unsigned n;
    uint64_t words;
    pstr_t name[FXT_MAX_ARGS];
    pstr_t sval[FXT_MAX_ARGS];
} pargs_t;

/* Inlined into fxt_write_event only (the hot path); other records call prep_args(). */
FXT__INLINE fxt_status prep_args_in(fxt_writer_t *w, const fxt_arg_t *args, unsigned nargs, pargs_t *pa) {
    if (nargs > FXT_MAX_ARGS) {
        return FXT_E_TOO_MANY_ARGS;
    }
    if (nargs && args == NULL) {
        return FXT_E_INVALID_ARG;
    }
    pa->n = nargs;
    pa->words = 0;
    for (unsigned i = 0; i < nargs; i++) {
        const fxt_arg_t *a = &args[i];
        if (a->type >= FXT_ARG_TYPE_COUNT) {
            return FXT_E_BAD_ARG;
        }
        fxt_status st = prep_str(w, a->name, &pa->name[i]);
        if (st != FXT_OK) {
            return st;
        }
        if (a->type == FXT_ARG_STRING) {
            st = prep_str(w, a->str, &pa->sval[i]);
            if (st != FXT_OK) {
                return st;
            }
        }
        uint64_t words = fxt__arg_words(a->type, &pa->name[i], &pa->sval[i]);
        if (words > FXT_MAX_RECORD_WORDS) {
            return FXT_E_RECORD_TOO_LARGE;
        }
        pa->words += words;
    }
    return FXT_OK;
}

static fxt_status prep_args(fxt_writer_t *w, const fxt_arg_t *args, unsigned nargs, pargs_t *pa) {
    return prep_args_in(w, args, nargs, pa);
}

/* Inlined into fxt_write_event only (the hot path); other records call put_args(). */
FXT__INLINE void put_args_in(fxt_writer_t *w, const fxt_arg_t *args, const pargs_t *pa) {
    w->len = (size_t)(fxt__put_args(w->buf + w->len, w->swap, args, pa->n, pa->name, pa->sval) - w->buf);
}

static void put_args(fxt_writer_t *w, const fxt_arg_t *args, const pargs_t *pa) { put_args_in(w, args, pa); }

/* ---- records ------------------------------------------------------------------------------ */

#define BEGIN(w)                                                                                             \
    do {                                                                                                     \
        if ((w) == NULL) {                                                                                   \
            return FXT_E_INVALID_ARG;                                                                        \
        }                                                                                                    \
        if ((w)->status != FXT_OK) {                                                                         \
            return (w)->status;                                                                              \
        }                                                                                                    \
        (w)->serial++;                                                                                       \
        (w)->trunc_mark = (w)->truncations;                                                                  \
    } while (0)

/* Check a normal record's size and make room for it. */
static fxt_status start_record(fxt_writer_t *w, uint64_t words) {
    if (words > FXT_MAX_RECORD_WORDS) {
        return FXT_E_RECORD_TOO_LARGE;
    }
    TRY(reserve(w, (size_t)words * 8));
    w->records++;
    return FXT_OK;
}

static fxt_status simple_meta(fxt_writer_t *w, uint64_t header) {
    BEGIN(w);
    TRY(start_record(w, 1));
    put(w, header);
    return FXT_OK;
}

fxt_status fxt_write_magic(fxt_writer_t *w) { return simple_meta(w, fxt__hdr_magic()); }

fxt_status fxt_write_provider_info(fxt_writer_t *w, uint32_t provider_id, fxt_str_t name) {
    BEGIN(w);
    TRY(fxt__check_provider_name(name));
    TRY(start_record(w, 1 + fxt_words(name.len)));
    put(w, fxt__hdr_provider_info(provider_id, name.len));
    put_stream(w, name.ptr, name.len);
    fxt_writer_reset_tables(w); /* a new provider context: its tables start empty for us */
    return FXT_OK;
}

fxt_status fxt_write_provider_section(fxt_writer_t *w, uint32_t provider_id) {
    fxt_status st = simple_meta(w, fxt__hdr_provider_section(provider_id));
    if (st == FXT_OK) {
        fxt_writer_reset_tables(w);
    }
    return st;
}

fxt_status fxt_write_provider_event(fxt_writer_t *w, uint32_t provider_id, uint32_t event) {
    if (w != NULL && fxt__check_provider_event(event) != FXT_OK) {
        return FXT_E_INVALID_ARG;
    }
    return simple_meta(w, fxt__hdr_provider_event(provider_id, event));
}

fxt_status fxt_write_trace_info(fxt_writer_t *w, uint32_t info_type, uint64_t data) {
    if (w != NULL && fxt__check_trace_info(info_type, data) != FXT_OK) {
        return FXT_E_INVALID_ARG;
    }
    return simple_meta(w, fxt__hdr_trace_info(info_type, data));
}

fxt_status fxt_write_init(fxt_writer_t *w, uint64_t ticks_per_second) {
    BEGIN(w);
    if (ticks_per_second == 0) {
        return FXT_E_INVALID_ARG;
    }
    TRY(start_record(w, 2));
    put(w, fxt__hdr_init());
    put(w, ticks_per_second);
    return FXT_OK;
}

fxt_status fxt_write_string_record(fxt_writer_t *w, uint16_t index, fxt_str_t value) {
    BEGIN(w);
    if (index == 0 || index > FXT_MAX_STRING_INDEX) {
        return FXT_E_BAD_INDEX;
    }
    if (value.ptr == NULL && value.len) {
        return FXT_E_INVALID_ARG;
    }
    uint32_t len = clamp_len(w, value.ptr, value.len);
    if (index <= w->max_strings) {
        /* an explicit registration replaces the slot and is interned like any other */
        sslot_t *s = &w->strings[index];
        if (s->used) {
            string_unmap(w, index);
        }
        /* the hints must keep naming the slot a lookup would find, and this
           slot may now duplicate another's string */
        memset(w->scache, 0, sizeof w->scache);
        /* a different slot holding the same string keeps serving it: fine */
        if (len > s->cap || s->p == NULL) {
            uint32_t ncap = len < 32 ? 32 : len;
            char *np = realloc(s->p, ncap);
            if (np == NULL) {
                return set_error(w, FXT_E_NOMEM);
            }
            s->p = np;
            s->cap = ncap;
        }
        if (len) {
            memcpy(s->p, value.ptr, len);
        }
        s->len = len;
        s->hash = hash_bytes(value.ptr ? value.ptr : "", len);
        s->refbit = 1;
        string_map(w, index);
    }
    return emit_string_record(w, index, value.ptr, len);
}

fxt_status fxt_write_thread_record(fxt_writer_t *w, uint8_t index, uint64_t pid, uint64_t tid) {
    BEGIN(w);
    if (index == 0) {
        return FXT_E_BAD_INDEX;
    }
    if (index <= w->max_threads) {
        tslot_t *t = &w->threads[index];
        if (t->used) {
            thread_unmap(w, index);
        }
        w->thint = 0; /* this slot may now duplicate another's thread: look up afresh */
        t->pid = pid;
        t->tid = tid;
        t->hash = hash_thread(pid, tid);
        t->refbit = 1;
        thread_map(w, index);
    }
    TRY(start_record(w, 3));
    put(w, fxt__hdr_thread(index));
    put(w, pid);
    put(w, tid);
    return FXT_OK;
}

fxt_status fxt_write_event(fxt_writer_t *w, const fxt_event_desc_t *ev) {
    BEGIN(w);
    if (ev == NULL || ev->type >= FXT_EVENT_TYPE_COUNT) {
        return FXT_E_INVALID_ARG;
    }
    if (ev->nextra && ev->extra == NULL) {
        return FXT_E_INVALID_ARG;
    }
    int has_id = fxt_event_has_id(ev->type);
    int has_end = fxt_event_has_end_ts(ev->type);
    uint64_t tail = fxt__event_tail_words(ev->type);
    uint64_t plan = 2 + tail + ev->nextra;
    TRY(plan_thread(w, &ev->thread, &plan));
    TRY(plan_str(w, ev->category, &plan));
    TRY(plan_str(w, ev->name, &plan));
    TRY(plan_args_in(w, ev->args, ev->nargs, &plan));
    TRY(plan_done(plan));
    pthr_t t;
    pstr_t cat, name;
    pargs_t pa;
    TRY(prep_thread(w, &ev->thread, &t));
    TRY(prep_str(w, ev->category, &cat));
    TRY(prep_str(w, ev->name, &name));
    TRY(prep_args_in(w, ev->args, ev->nargs, &pa));
    uint64_t words = 2 + pthr_words(&t) + pstr_words(&cat) + pstr_words(&name) + pa.words + tail + ev->nextra;
    TRY(start_record(w, words));
    put(w, fxt__hdr_event(ev->type, pa.n, t.ref, cat.ref, name.ref, words));
    put(w, ev->ts);
    put_pthr(w, &t);
    put_pstr(w, &cat);
    put_pstr(w, &name);
    put_args_in(w, ev->args, &pa);
    if (has_id) {
        put(w, ev->id);
    } else if (has_end) {
        put(w, ev->end_ts);
    }
    for (unsigned i = 0; i < ev->nextra; i++) {
        put(w, ev->extra[i]);
    }
    return FXT_OK;
}

int fxt__writer_swapped(const fxt_writer_t *w) { return w->swap; }

static fxt_status simple_event(fxt_writer_t *w, uint32_t type, uint64_t ts, fxt_thread_ref_t t, fxt_str_t cat,
                               fxt_str_t name, uint64_t id, uint64_t end_ts, const fxt_arg_t *args,
                               unsigned nargs) {
    fxt_event_desc_t ev;
    ev.type = type;
    ev.ts = ts;
    ev.thread = t;
    ev.category = cat;
    ev.name = name;
    ev.id = id;
    ev.end_ts = end_ts;
    ev.args = args;
    ev.nargs = nargs;
    ev.extra = NULL;
    ev.nextra = 0;
    return fxt_write_event(w, &ev);
}

fxt_status fxt_write_instant(fxt_writer_t *w, uint64_t ts, fxt_thread_ref_t t, fxt_str_t cat, fxt_str_t name,
                             const fxt_arg_t *args, unsigned nargs) {
    return simple_event(w, FXT_EVENT_INSTANT, ts, t, cat, name, 0, 0, args, nargs);
}

fxt_status fxt_write_counter(fxt_writer_t *w, uint64_t ts, fxt_thread_ref_t t, fxt_str_t cat, fxt_str_t name,
                             uint64_t counter_id, const fxt_arg_t *args, unsigned nargs) {
    return simple_event(w, FXT_EVENT_COUNTER, ts, t, cat, name, counter_id, 0, args, nargs);
}

fxt_status fxt_write_duration_begin(fxt_writer_t *w, uint64_t ts, fxt_thread_ref_t t, fxt_str_t cat,
                                    fxt_str_t name, const fxt_arg_t *args, unsigned nargs) {
    return simple_event(w, FXT_EVENT_DURATION_BEGIN, ts, t, cat, name, 0, 0, args, nargs);
}

fxt_status fxt_write_duration_end(fxt_writer_t *w, uint64_t ts, fxt_thread_ref_t t, fxt_str_t cat,
                                  fxt_str_t name, const fxt_arg_t *args, unsigned nargs) {
    return simple_event(w, FXT_EVENT_DURATION_END, ts, t, cat, name, 0, 0, args, nargs);
}

fxt_status fxt_write_duration_complete(fxt_writer_t *w, uint64_t start_ts, uint64_t end_ts,
                                       fxt_thread_ref_t t, fxt_str_t cat, fxt_str_t name,
                                       const fxt_arg_t *args, unsigned nargs) {
    return simple_event(w, FXT_EVENT_DURATION_COMPLETE, start_ts, t, cat, name, 0, end_ts, args, nargs);
}

fxt_status fxt_write_blob(fxt_writer_t *w, fxt_str_t name, uint32_t blob_type, const void *data,
                          size_t size) {
    BEGIN(w);
    TRY(fxt__check_blob(blob_type, data, size));
    uint64_t plan = 1 + fxt_words(size);
    TRY(plan_str(w, name, &plan));
    TRY(plan_done(plan));
    pstr_t nm;
    TRY(prep_str(w, name, &nm));
    uint64_t words = 1 + pstr_words(&nm) + fxt_words(size);
    TRY(start_record(w, words));
    put(w, fxt__hdr_blob(words, nm.ref, size, blob_type));
    put_pstr(w, &nm);
    put_stream(w, data, size);
    return FXT_OK;
}

fxt_status fxt_write_userspace_object(fxt_writer_t *w, uint64_t ptr, uint64_t process, fxt_str_t name,
                                      const fxt_arg_t *args, unsigned nargs) {
    BEGIN(w);
    /* the process is a thread ref; inline it is one koid word */
    uint64_t plan = 3;
    TRY(plan_str(w, name, &plan));
    TRY(plan_args(w, args, nargs, &plan));
    TRY(plan_done(plan));
    pstr_t nm;
    pargs_t pa;
    TRY(prep_str(w, name, &nm));
    TRY(prep_args(w, args, nargs, &pa));
    uint64_t words = 3 + pstr_words(&nm) + pa.words;
    TRY(start_record(w, words));
    put(w, fxt__hdr_userspace_object(words, FXT_THREADREF_INLINE, nm.ref, pa.n));
    put(w, ptr);
    put(w, process);
    put_pstr(w, &nm);
    put_args(w, args, &pa);
    return FXT_OK;
}

fxt_status fxt_write_kernel_object(fxt_writer_t *w, uint64_t koid, uint32_t obj_type, fxt_str_t name,
                                   const fxt_arg_t *args, unsigned nargs) {
    BEGIN(w);
    TRY(fxt__check_object_type(obj_type));
    uint64_t plan = 2;
    TRY(plan_str(w, name, &plan));
    TRY(plan_args(w, args, nargs, &plan));
    TRY(plan_done(plan));
    pstr_t nm;
    pargs_t pa;
    TRY(prep_str(w, name, &nm));
    TRY(prep_args(w, args, nargs, &pa));
    uint64_t words = 2 + pstr_words(&nm) + pa.words;
    TRY(start_record(w, words));
    put(w, fxt__hdr_kernel_object(words, obj_type, nm.ref, pa.n));
    put(w, koid);
    put_pstr(w, &nm);
    put_args(w, args, &pa);
    return FXT_OK;
}

fxt_status fxt_write_context_switch(fxt_writer_t *w, uint64_t ts, uint32_t cpu, uint32_t out_state,
                                    uint64_t out_tid, uint64_t in_tid, const fxt_arg_t *args,
                                    unsigned nargs) {
    BEGIN(w);
    TRY(fxt__check_context_switch(cpu, out_state));
    uint64_t plan = 4;
    TRY(plan_args(w, args, nargs, &plan));
    TRY(plan_done(plan));
    pargs_t pa;
    TRY(prep_args(w, args, nargs, &pa));
    uint64_t words = 4 + pa.words;
    TRY(start_record(w, words));
    put(w, fxt__hdr_context_switch(words, pa.n, cpu, out_state));
    put(w, ts);
    put(w, out_tid);
    put(w, in_tid);
    put_args(w, args, &pa);
    return FXT_OK;
}

fxt_status fxt_write_thread_wakeup(fxt_writer_t *w, uint64_t ts, uint32_t cpu, uint64_t tid,
                                   const fxt_arg_t *args, unsigned nargs) {
    BEGIN(w);
    TRY(fxt__check_thread_wakeup(cpu));
    uint64_t plan = 3;
    TRY(plan_args(w, args, nargs, &plan));
    TRY(plan_done(plan));
    pargs_t pa;
    TRY(prep_args(w, args, nargs, &pa));
    uint64_t words = 3 + pa.words;
    TRY(start_record(w, words));
    put(w, fxt__hdr_thread_wakeup(words, pa.n, cpu));
    put(w, ts);
    put(w, tid);
    put_args(w, args, &pa);
    return FXT_OK;
}

fxt_status fxt_write_legacy_context_switch(fxt_writer_t *w, uint64_t ts, uint32_t cpu, uint32_t out_state,
                                           fxt_thread_ref_t out, fxt_thread_ref_t in, uint32_t out_prio,
                                           uint32_t in_prio) {
    BEGIN(w);
    TRY(fxt__check_legacy_context_switch(cpu, out_state, out_prio, in_prio));
    uint64_t unused = 0;
    TRY(plan_thread(w, &out, &unused));
    TRY(plan_thread(w, &in, &unused));
    pthr_t o, i;
    TRY(prep_thread(w, &out, &o));
    TRY(prep_thread(w, &in, &i));
    uint64_t words = 2 + pthr_words(&o) + pthr_words(&i);
    TRY(start_record(w, words));
    put(w, fxt__hdr_legacy_context_switch(words, cpu, out_state, o.ref, i.ref, out_prio, in_prio));
    put(w, ts);
    put_pthr(w, &o);
    put_pthr(w, &i);
    return FXT_OK;
}

fxt_status fxt_write_log(fxt_writer_t *w, uint64_t ts, fxt_thread_ref_t t, fxt_str_t message) {
    BEGIN(w);
    if (message.ptr == NULL && message.len) {
        return FXT_E_INVALID_ARG;
    }
    uint64_t unused = 0;
    TRY(plan_thread(w, &t, &unused));
    pthr_t th;
    TRY(prep_thread(w, &t, &th));
    uint32_t len = clamp_len(w, message.ptr, message.len);
    uint64_t words = 2 + pthr_words(&th) + fxt_words(len);
    TRY(start_record(w, words));
    put(w, fxt__hdr_log(words, len, th.ref));
    put(w, ts);
    put_pthr(w, &th);
    put_stream(w, message.ptr, len);
    return FXT_OK;
}

fxt_status fxt_write_large_blob(fxt_writer_t *w, const fxt_large_blob_desc_t *b) {
    BEGIN(w);
    if (b == NULL || b->format > FXT_LARGE_BLOB_NO_METADATA || (b->data == NULL && b->size)) {
        return FXT_E_INVALID_ARG;
    }
    int meta_ = b->format == FXT_LARGE_BLOB_WITH_METADATA;
    uint64_t plan = 3;
    TRY(plan_str(w, b->category, &plan));
    TRY(plan_str(w, b->name, &plan));
    if (meta_) {
        plan += 1;
        TRY(plan_thread(w, &b->thread, &plan));
        TRY(plan_args(w, b->args, b->nargs, &plan));
    }
    if (plan * 8 > w->cap) {
        return FXT_E_RECORD_TOO_LARGE; /* metadata must fit the buffer */
    }
    if (b->size > (FXT_MAX_LARGE_RECORD_WORDS - plan) * 8) {
        return FXT_E_RECORD_TOO_LARGE;
    }
    pstr_t cat, name;
    pthr_t t = {0, 0, 0};
    pargs_t pa;
    pa.n = 0;
    pa.words = 0;
    TRY(prep_str(w, b->category, &cat));
    TRY(prep_str(w, b->name, &name));
    int meta = b->format == FXT_LARGE_BLOB_WITH_METADATA;
    if (meta) {
        TRY(prep_thread(w, &b->thread, &t));
        TRY(prep_args(w, b->args, b->nargs, &pa));
    }
    uint64_t head = 2 + pstr_words(&cat) + pstr_words(&name) + (meta ? 1 + pthr_words(&t) + pa.words : 0) + 1;
    if (b->size > (FXT_MAX_LARGE_RECORD_WORDS - head) * 8) {
        return FXT_E_RECORD_TOO_LARGE;
    }
    if (head * 8 > w->cap) {
        return FXT_E_RECORD_TOO_LARGE; /* metadata must fit the buffer */
    }
    uint64_t words = head + fxt_words(b->size);
    TRY(reserve(w, (size_t)head * 8));
    w->records++;
    put(w, fxt__hdr_large_blob(words, b->format));
    put(w, fxt__large_blob_format_word(cat.ref, name.ref, meta, pa.n, t.ref));
    put_pstr(w, &cat);
    put_pstr(w, &name);
    if (meta) {
        put(w, b->ts);
        put_pthr(w, &t);
        put_args(w, b->args, &pa);
    }
    put(w, b->size);
    /* the payload may exceed the buffer: pass big payloads straight to the sink */
    const uint8_t *p = b->data;
    uint64_t left = b->size;
    if (left > w->cap - w->len) {
        TRY(flush_buf(w));
        uint64_t direct = left & ~(uint64_t)7;
        if (direct > 0 && direct > w->cap / 2) {
            fxt_status st = w->sink.write(w->sink.ctx, p, (size_t)direct);
            if (st != FXT_OK) {
                return set_error(w, st);
            }
            w->flushed += direct;
            p += direct;
            left -= direct;
        }
    }
    TRY(reserve(w, (size_t)fxt_pad8(left)));
    put_stream(w, p, (size_t)left);
    return FXT_OK;
}

fxt_status fxt_write_raw(fxt_writer_t *w, const void *bytes, size_t size) {
    BEGIN(w);
    if (bytes == NULL || size == 0 || (size & 7) != 0) {
        return FXT_E_INVALID_ARG;
    }
    uint64_t h = fxt_load64_swapped(bytes, w->swap);
    uint64_t words = fxt_get_rec_type(h) == FXT_RECORD_LARGE ? fxt_get_large_size(h) : fxt_get_rec_size(h);
    if (words * 8 != size) {
        return FXT_E_BAD_RECORD_SIZE;
    }
    w->records++;
    if (size > w->cap - w->len) {
        TRY(flush_buf(w));
        if (size > w->cap) {
            fxt_status st = w->sink.write(w->sink.ctx, bytes, size);
            if (st != FXT_OK) {
                return set_error(w, st);
            }
            w->flushed += size;
            return FXT_OK;
        }
    }
    memcpy(w->buf + w->len, bytes, size);
    w->len += size;
    return FXT_OK;
}

/* ---- reuse, explicit refs ------------------------------------------------------------------- */

void fxt_writer_reset(fxt_writer_t *w, fxt_sink_t sink) {
    if (w == NULL) {
        return;
    }
    if (sink.write != NULL) {
        w->sink = sink;
    }
    w->status = FXT_OK;
    w->len = 0;
    w->flushed = 0;
    w->records = 0;
    w->truncations = 0;
    w->trunc_mark = 0;
    w->reserved = 0;
    w->str_regs = w->str_evict = w->str_inline = w->thr_regs = w->thr_evict = 0;
    fxt_writer_reset_tables(w);
}

void fxt_writer_get_stats(const fxt_writer_t *w, fxt_writer_stats_t *out) {
    if (out == NULL) {
        return;
    }
    memset(out, 0, sizeof *out);
    if (w == NULL) {
        return;
    }
    out->bytes = w->flushed + w->len;
    out->records = w->records;
    out->truncations = w->truncations;
    out->strings_registered = w->str_regs;
    out->string_evictions = w->str_evict;
    out->strings_inline = w->str_inline;
    out->threads_registered = w->thr_regs;
    out->thread_evictions = w->thr_evict;
}

int fxt_writer_last_truncated(const fxt_writer_t *w) { return w != NULL && w->truncations != w->trunc_mark; }

fxt_status fxt_writer_reserve(fxt_writer_t *w, size_t bytes, void **out) {
    if (w == NULL || out == NULL) {
        return FXT_E_INVALID_ARG;
    }
    *out = NULL;
    if (w->status != FXT_OK) {
        return w->status;
    }
    if (bytes > FXT_MAX_RECORD_BYTES) {
        return FXT_E_RECORD_TOO_LARGE;
    }
    TRY(reserve(w, (size_t)fxt_pad8(bytes)));
    w->reserved = (size_t)fxt_pad8(bytes);
    *out = w->buf + w->len;
    return FXT_OK;
}

fxt_status fxt_writer_commit(fxt_writer_t *w, size_t bytes) {
    if (w == NULL) {
        return FXT_E_INVALID_ARG;
    }
    if (w->status != FXT_OK) {
        return w->status;
    }
    if (w->swap) {
        return FXT_E_UNSUPPORTED; /* encoders write host order; inline streams cannot be swapped blindly */
    }
    if (bytes > w->reserved || (bytes & 7) != 0) {
        return FXT_E_INVALID_ARG;
    }
    /* whole records only: walk their headers (host order) before accepting any */
    uint64_t n = 0;
    for (size_t off = 0; off < bytes; n++) {
        uint64_t h = fxt_load64(w->buf + w->len + off);
        uint64_t words =
            fxt_get_rec_type(h) == FXT_RECORD_LARGE ? fxt_get_large_size(h) : fxt_get_rec_size(h);
        if (words == 0 || words > (bytes - off) / 8) {
            return FXT_E_BAD_RECORD_SIZE;
        }
        off += (size_t)words * 8;
    }
    w->len += bytes;
    w->records += n;
    w->reserved = 0;
    return FXT_OK;
}

fxt_status fxt_write_event_refs(fxt_writer_t *w, const fxt_event_desc_t *ev) {
    BEGIN(w);
    size_t size;
    /* encode straight into the buffer's free space, in the writer's byte order;
       flush once if it does not fit */
    fxt_status st = fxt__encode_event(w->buf + w->len, w->cap - w->len, &size, ev, w->swap);
    if (st == FXT_E_BUFFER_FULL) {
        TRY(flush_buf(w));
        st = fxt__encode_event(w->buf + w->len, w->cap - w->len, &size, ev, w->swap);
    }
    if (st != FXT_OK) {
        return st; /* validation: nothing written, not sticky */
    }
    w->len += size;
    w->records++;
    return FXT_OK;
}
