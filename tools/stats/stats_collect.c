/* SPDX-License-Identifier: MIT */
/* fxt stats: the summary of one range of records, and the in-order merge of ranges (stats.h). */
#include "stats.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_parallel.h"
#include "cli_trace.h"

/* Series keys are built in keybuf past the longest counter key (two strings of up to
 * 0x7fff bytes, their NULs and the 8-byte id), so the two never overlap. */
#define SERIES_KEY_OFF (2 * (FXT_MAX_INLINE_STRING_LEN + 2) + 16)
/* Direct-mapped caches of (category ref, name ref) and thread ref lookups, valid for one `gen`. */
#define NCACHE 4096

typedef struct name_cache {
    uint32_t refs;              /* (category ref << 16 | name ref) + 1: one compare; 0 = empty entry */
    uint32_t cat_ver, name_ver; /* the two indexes' versions when cached */
    uint32_t name;              /* map index + 1 */
    /* The pair's and the category's entries (NULL when out of memory): names_find drops every
     * cached pair when the names or cats map moves its entries. */
    st_name_t *np;
    uint64_t *cp;
} name_cache_t;

/* Counter (category ref, name ref, id) -> counter index, and (counter, argument name ref) ->
 * series index: counters repeat a few keys, and building and hashing the keys cost ~7 %. */
#define CCACHE 256
typedef struct counter_cache {
    uint64_t id;
    uint16_t cat_ref, name_ref;
    uint32_t cat_ver, name_ver;
    uint32_t counter; /* map index + 1; 0 = empty entry */
} counter_cache_t;

typedef struct series_cache {
    uint32_t counter, name_ver; /* counter: map index + 1; 0 = empty entry */
    uint32_t name_ref, series;  /* series: map index + 1 */
} series_cache_t;

/* thread: map index + 1, t its entry (NULL when out of memory): gen is bumped when the map moves
 * its entries. */
typedef struct thread_cache {
    uint32_t gen, thread;
    st_thread_t *t;
} thread_cache_t;

/* Pairs by their strings' bytes (names_find: no string versions; events with inline strings, and
 * those the ref cache misses), and inline threads (valid for one `gen`). */
#define ICACHE 4096
typedef struct inline_cache {
    uint32_t cat_len;
    name_cache_t c; /* name and entries only; c.name 0 = empty entry */
} inline_cache_t;

typedef struct inline_thread {
    uint64_t pid, tid;
    thread_cache_t c;
} inline_thread_t;

/* A range's state with its lookup caches (never merged: the first member, so a cast works). */
typedef struct st_range {
    st_state_t s;
    uint32_t gen;    /* thread cache: bumped by thread records and provider switches */
    st_prov_t *prov; /* the current provider's entry, valid while providers.count is prov_count */
    size_t prov_count;
    uint64_t tps; /* the reader's ticks per second for the current provider (a call per event otherwise) */
    /* Events of `prov` that st_on_record counted here, not yet in the state and provider's counts
     * (flush_events): two additions per event instead of six. ev_bytes sits after the pair cache
     * because the caches' offsets decide how gcc addresses their entries on the event path: this
     * order measured 0.9 % fewer instructions at -j 1 than with ev_bytes here (callgrind); a change
     * to st_state_t's size moves them all, worth measuring again. */
    uint64_t ev_n;
    /* Per string index, bumped when it is registered: one string record invalidates only the
     * cached pairs that use it (traces register strings all along). */
    uint32_t str_ver[1u << 15];
    name_cache_t ncache[NCACHE];
    uint16_t nused[NCACHE]; /* ncache entries filled since it was last emptied (names_clear) */
    uint32_t nnused;
    uint64_t ev_bytes; /* see ev_n */
    counter_cache_t ccache[CCACHE];
    series_cache_t scache[CCACHE];
    thread_cache_t tcache[256];
    inline_cache_t icache[ICACHE];
    uint16_t iused[ICACHE]; /* icache entries filled since it was last emptied (icache_clear) */
    uint32_t niused;
    name_cache_t nfound; /* names_find's answer when it cannot be cached */
    inline_thread_t itcache[64];
    struct st_range *next; /* in the trace's pool */
    /* The names map keeps its pairs from range to range (range_reset), so the inline cache holds
     * and known pairs are neither inserted nor looked up in the trace again: a pair is "used" by a
     * range (its acc set, from the range's thread) when the range first meets it; met lists them
     * in that order, and gix gives each pair's index + 1 in the trace once a merge found it (0:
     * not yet). */
    uint32_t *met;
    size_t nmet, metcap;
    uint32_t *gix;
    size_t gixcap;
} st_range_t;

/* Empties the pair cache: only the entries filled since the last time, as merged traces switch
 * providers often. */
static void names_clear(st_range_t *rg) {
    for (uint32_t i = 0; i < rg->nnused; i++) {
        rg->ncache[rg->nused[i]].refs = 0;
    }
    rg->nnused = 0;
}

static void icache_clear(st_range_t *rg) {
    for (uint32_t i = 0; i < rg->niused; i++) {
        rg->icache[rg->iused[i]].c.name = 0;
    }
    rg->niused = 0;
}

/* A provider switch changes every string: the cached pairs are dropped. */
static void strings_changed(st_range_t *rg) {
    names_clear(rg);
    memset(rg->ccache, 0, sizeof rg->ccache);
    memset(rg->scache, 0, sizeof rg->scache);
}

/* Sets up a zeroed state: 0, or -1 when out of memory. */
static int state_init(st_state_t *s, unsigned top, int tree) {
    s->first_ns = UINT64_MAX;
    s->slow_floor = top ? 0 : UINT64_MAX;
    s->top = top;
    s->tree = tree;
    s->keybuf = malloc(SERIES_KEY_OFF + 8 + FXT_MAX_INLINE_STRING_LEN + 8);
    s->slow = calloc(top ? top : 1, sizeof *s->slow);
    if (s->keybuf == NULL || s->slow == NULL) {
        free(s->keybuf);
        free(s->slow);
        return -1;
    }
    cli_map_init(&s->providers, sizeof(st_prov_t));
    cli_map_init(&s->threads, sizeof(st_thread_t));
    cli_map_init(&s->names, sizeof(st_name_t));
    cli_map_init(&s->cats, sizeof(uint64_t));
    cli_map_init(&s->counters, sizeof(st_counter_t));
    cli_map_init(&s->series, sizeof(st_series_t));
    cli_map_init(&s->objects, sizeof(st_object_t));
    cli_map_init(&s->nodes, sizeof(st_node_t));
    cli_map_init(&s->cpus, sizeof(st_cpu_t));
    cli_map_init(&s->oncpu, sizeof(uint64_t));
    return 0;
}

/* A new range state with its caches (the trace has none: it is a bare st_state_t). */
static st_state_t *range_new(unsigned top, int tree) {
    st_range_t *rg = calloc(1, sizeof *rg);
    if (rg == NULL || state_init(&rg->s, top, tree) != 0) {
        free(rg);
        return NULL;
    }
    rg->gen = 1;
    return &rg->s;
}

static void free_threads(st_state_t *s) {
    for (size_t i = 0; i < s->threads.count; i++) {
        st_thread_t *t = cli_map_at(&s->threads, i, NULL, NULL);
        free(t->stack);
        free(t->pops);
        free(t->pend);
        free(t->reach);
        free(t->gup);
    }
}

/* Pairs and categories a state keeps for its next range while they are at most twice the pairs
 * its last range met plus this many, and categories at most this many. */
#define KEEP_SLACK 4096

/* Makes a used range state as range_new leaves one, touching only what its last range filled:
 * the maps keep their memory, the string versions their values (no cache entry is left to
 * compare with them) and the thread caches are dropped by a new generation. The pairs and
 * categories (and the inline cache of their entries) stay, unused with zero counts (st_range_t),
 * unless they are many more than a range meets: resetting and merging cost what a range used. */
static void range_reset(st_range_t *rg) {
    st_state_t *s = &rg->s;
    free_threads(s);
    if (s->names.count <= 2 * rg->nmet + KEEP_SLACK && s->cats.count <= KEEP_SLACK) {
        for (size_t i = 0; i < rg->nmet; i++) {
            *(st_name_t *)cli_map_at(&s->names, rg->met[i], NULL, NULL) = (st_name_t){.min = UINT64_MAX};
        }
        for (size_t i = 0; i < s->cats.count; i++) {
            *(uint64_t *)cli_map_at(&s->cats, i, NULL, NULL) = 0;
        }
    } else {
        size_t known = s->names.count < rg->gixcap ? s->names.count : rg->gixcap;
        if (known) {
            memset(rg->gix, 0, known * sizeof *rg->gix);
        }
        cli_map_clear(&s->names);
        cli_map_clear(&s->cats);
        icache_clear(rg);
    }
    rg->nmet = 0;
    cli_map_t *maps[] = {&s->providers, &s->threads, &s->counters, &s->series,
                         &s->objects,   &s->nodes,   &s->cpus,     &s->oncpu};
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
        cli_map_clear(maps[i]);
    }
    s->records = s->errors = s->inline_strings = s->inline_bytes = 0;
    s->nerrmsg = 0;
    memset(s->kinds, 0, sizeof s->kinds);
    s->have_span = 0;
    s->first_ns = UINT64_MAX;
    s->last_ns = 0;
    s->nslow = 0;
    s->slow_floor = s->top ? 0 : UINT64_MAX;
    s->tree_full = 0;
    s->unnested = s->clamped = s->pairs_in_complete = 0;
    s->oom = 0;
    s->pend_capped = 0;
    s->tree_unnested = 0;
    s->gup_coalesced = 0;
    rg->gen++;
    rg->prov = NULL;
    rg->prov_count = 0;
    rg->tps = 0;
    rg->ev_n = rg->ev_bytes = 0;
    strings_changed(rg);
}

static st_acc_t *acc_new(void) {
    st_acc_t *a = calloc(1, sizeof *a);
    if (a) {
        cli_map_init(&a->hists, sizeof(st_hist_t *));
    }
    return a;
}

static void acc_free(st_acc_t *a) {
    if (a == NULL) {
        return;
    }
    for (size_t i = 0; i < a->hists.count; i++) {
        st_hist_t **h = cli_map_at(&a->hists, i, NULL, NULL);
        if (*h) {
            free((*h)->rows);
            free(*h);
        }
    }
    cli_map_free(&a->hists);
    free(a);
}

/* The histogram of name key in accumulator a, created empty; NULL when out of memory. A thread's
 * accumulator holds the pairs of all its ranges: past ST_MAX_NAMES + 1 of them (a range has at most
 * that many, "(other)" included) the trace has more than ST_MAX_NAMES pairs in more than one range,
 * so the merge asks for a re-read with one thread: the rest are refused as out of memory (never
 * shown), which bounds the memory. */
static st_hist_t *acc_hist(st_acc_t *a, const char *key, size_t kl) {
    st_hist_t **h = cli_map_get(&a->hists, key, kl, a->hists.count <= ST_MAX_NAMES);
    if (h != NULL && *h == NULL) {
        *h = calloc(1, sizeof **h);
    }
    return h ? *h : NULL;
}

/* Read ids (st_state_t.run) and the calling thread's accumulator for one of them. */
static uint64_t st_runs;
static _Thread_local struct {
    uint64_t run;
    st_acc_t *acc;
} thread_acc;

st_state_t *st_new(unsigned top, int tree) {
    st_state_t *s = calloc(1, sizeof *s);
    if (s == NULL || state_init(s, top, tree) != 0) {
        free(s);
        return NULL;
    }
    s->run = __atomic_add_fetch(&st_runs, 1, __ATOMIC_RELAXED);
    pthread_mutex_init(&s->mu, NULL);
    return s;
}

st_state_t *st_new_range(st_state_t *trace) {
    st_acc_t *a = NULL;
    if (thread_acc.run != trace->run && (a = acc_new()) == NULL) {
        return NULL;
    }
    pthread_mutex_lock(&trace->mu);
    if (a) {
        a->next = trace->accs;
        trace->accs = a;
        thread_acc.run = trace->run;
        thread_acc.acc = a;
    }
    st_range_t *rg = trace->pool;
    if (rg) {
        trace->pool = rg->next;
    }
    pthread_mutex_unlock(&trace->mu);
    st_state_t *s;
    if (rg) {
        range_reset(rg); /* here, on the range's thread, not in the merge */
        s = &rg->s;
    } else if ((s = range_new(trace->top, trace->tree)) == NULL) {
        return NULL;
    }
    s->acc = thread_acc.acc;
    /* The trace keeps `top` events at least this slow (and keeps them for good): shorter ones in the
     * range would only be dropped by the merge. */
    uint64_t floor = __atomic_load_n(&trace->range_floor, __ATOMIC_RELAXED);
    s->slow_floor = floor > s->slow_floor ? floor : s->slow_floor;
    return s;
}

void st_release(st_state_t *trace, st_state_t *s) {
    st_range_t *rg = (st_range_t *)s; /* s is the first member of its st_range_t */
    pthread_mutex_lock(&trace->mu);
    rg->next = trace->pool;
    trace->pool = rg;
    pthread_mutex_unlock(&trace->mu);
}

void st_free(st_state_t *s) {
    if (s == NULL) {
        return;
    }
    for (size_t i = 0; i < s->names.count; i++) {
        st_name_t *n = cli_map_at(&s->names, i, NULL, NULL);
        if (n->acc == NULL) { /* else the rows are the accumulator's */
            free(n->hist);
        }
    }
    if (s->run) { /* the trace */
        while (s->accs) {
            st_acc_t *next = s->accs->next;
            acc_free(s->accs);
            s->accs = next;
        }
        while (s->pool) {
            st_range_t *next = s->pool->next;
            st_free(&s->pool->s);
            s->pool = next;
        }
        pthread_mutex_destroy(&s->mu);
        free(s->mbuf);
        for (size_t i = 0; i < s->ndefs; i++) {
            free(s->defs[i].pend);
        }
        free(s->defs);
    }
    free_threads(s);
    cli_map_t *maps[] = {&s->providers, &s->threads, &s->names, &s->cats, &s->counters,
                         &s->series,    &s->objects, &s->nodes, &s->cpus, &s->oncpu};
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
        cli_map_free(maps[i]);
    }
    free(s->keybuf);
    free(s->slow);
    if (s->run) {
        free(s);
        return;
    }
    st_range_t *rg = (st_range_t *)s; /* s is the first member of its st_range_t */
    free(rg->met);
    free(rg->gix);
    free(rg);
}

/* ---- histograms ------------------------------------------------------------------- */

/* Log-linear bucket of v: the exponent picks the power of two, the next 4 bits the sub-bucket. */
static unsigned hbucket(uint64_t v) {
    if (v < 16) {
        return (unsigned)v;
    }
    unsigned e = 63u - (unsigned)__builtin_clzll(v); /* >= 4 */
    unsigned mant = (unsigned)((v >> (e - 4)) & 15u);
    return 16u + (e - 4u) * 16u + mant;
}

/* The smallest value of bucket b: the inverse of hbucket, the reported percentile. */
static uint64_t hbucket_low(unsigned b) {
    if (b < 16) {
        return b;
    }
    unsigned e = (b - 16u) / 16u + 4u, mant = (b - 16u) % 16u;
    return ((uint64_t)(16u + mant)) << (e - 4u);
}

/* The lower bound of the bucket holding rank floor(q * n), clamped to [min, max] (docs/stats.md). */
uint64_t st_percentile(const st_name_t *ns, double q) {
    uint64_t target = (uint64_t)((double)ns->ndur * q);
    if (target >= ns->ndur) {
        target = ns->ndur - 1;
    }
    uint64_t seen = 0;
    for (unsigned i = 0; i < 16u * ns->hrows; i++) {
        seen += ns->hist[i];
        if (seen > target) {
            uint64_t v = hbucket_low(16u * ns->hlo + i);
            return v < ns->min ? ns->min : v > ns->max ? ns->max : v;
        }
    }
    return ns->max;
}

/* Widens the histogram to hold rows [lo, hi] (allocated on the first duration: most pairs,
 * instants and counters, never need one); -1 when out of memory. add_duration asks for a row
 * of slack on each side, so a spread of durations widens it a few times, not once per row. */
static int hist_fit(st_hist_t *h, unsigned lo, unsigned hi) {
    if (h->rows != NULL && lo >= h->lo && hi < (unsigned)h->lo + h->nrows) {
        return 0;
    }
    if (h->rows != NULL) {
        lo = lo < h->lo ? lo : h->lo;
        hi = hi >= (unsigned)h->lo + h->nrows ? hi : (unsigned)h->lo + h->nrows - 1u;
    }
    unsigned nrows = hi - lo + 1u;
    uint32_t *rows = calloc(16u * nrows, sizeof *rows);
    if (rows == NULL) {
        return -1;
    }
    if (h->rows != NULL) {
        memcpy(rows + 16u * (h->lo - lo), h->rows, 16u * h->nrows * sizeof *rows);
        free(h->rows);
    }
    *h = (st_hist_t){rows, (uint8_t)lo, (uint8_t)nrows};
    return 0;
}

/* hist_fit of a name's histogram, and of the thread's that a range's name is a copy of. */
static int name_fit(st_name_t *ns, unsigned lo, unsigned hi) {
    st_hist_t h = {ns->hist, ns->hlo, ns->hrows};
    if (hist_fit(&h, lo, hi) != 0) {
        return -1;
    }
    ns->hist = h.rows;
    ns->hlo = h.lo;
    ns->hrows = h.nrows;
    if (ns->acc) {
        *ns->acc = h;
    }
    return 0;
}

/* Without memory for the histogram the duration is not counted. */
static inline void add_duration(st_name_t *ns, uint64_t d, uint64_t self) {
    unsigned b = hbucket(d), row = b / 16u;
    /* inline test: name_fit is a call, and nearly every duration lands in the rows there */
    if ((ns->hist == NULL || row < ns->hlo || row >= (unsigned)ns->hlo + ns->hrows) &&
        name_fit(ns, row > 0 ? row - 1u : 0u, row + 1u < ST_HROWS ? row + 1u : row) != 0) {
        return;
    }
    ns->ndur++;
    ns->total += d;
    ns->self += self;
    ns->min = d < ns->min ? d : ns->min;
    ns->max = d > ns->max ? d : ns->max;
    ns->hist[b - 16u * ns->hlo]++;
}

/* ---- arguments kept for the slowest events ------------------------------------------ */

/* memcpy of the short names and values of arguments as fixed-size moves, which compilers
 * inline (a library call per field cost more than the copy): exactly n bytes read and written. */
static inline void copy_short(uint8_t *d, const char *src, size_t n) {
    if (n > 16) {
        memcpy(d, src, n);
    } else if (n >= 8) {
        memcpy(d, src, 8);
        memcpy(d + n - 8, src + n - 8, 8);
    } else if (n >= 4) {
        memcpy(d, src, 4);
        memcpy(d + n - 4, src + n - 4, 4);
    } else if (n > 0) {
        /* 1 to 3 bytes: first, middle and last cover them without a loop */
        d[0] = (uint8_t)src[0];
        d[n / 2] = (uint8_t)src[n / 2];
        d[n - 1] = (uint8_t)src[n - 1];
    }
}

/* Layout: [count][truncated] then per argument [type][name length][name][value]: the 8 bytes of
 * the value union for numbers (st_args_each reads back the member of the type: no switch per
 * argument here, where every begin with arguments pays), [length][bytes] for strings. Cut at
 * ST_ARGS_BYTES with the truncated flag set. */
_Static_assert(ST_ARGS_BYTES <= 255 + 2, "one bound check covers the 8-bit name and string lengths");
CLI_INLINE void args_save(uint8_t *blob, const fxt_record_t *rec) {
    uint8_t *d = blob + 2;
    unsigned saved = 0;
    blob[1] = 0;
    for (const fxt_arg_t *a = rec->args, *ae = a + rec->nargs; a < ae; a++) {
        const char *np = a->name.unresolved ? "?" : a->name.ptr;
        size_t nl = a->name.unresolved ? 1 : a->name.len;
        int is_str = a->type == FXT_ARG_STRING;
        size_t sl = is_str ? (a->str.unresolved ? 1 : a->str.len) : 0;
        size_t vl = is_str ? 1 + sl : 8;
        if ((size_t)(blob + ST_ARGS_BYTES - d) < 2 + nl + vl) {
            blob[1] = 1;
            break;
        }
        d[0] = a->type;
        d[1] = (uint8_t)nl;
        copy_short(d + 2, np, nl);
        d += 2 + nl;
        if (is_str) {
            d[0] = (uint8_t)sl;
            copy_short(d + 1, a->str.unresolved ? "?" : a->str.ptr, sl);
        } else {
            memcpy(d, &a->v, 8);
        }
        d += vl;
        saved++;
    }
    blob[0] = (uint8_t)saved;
}

/* args_save for complete events among the slowest: rare, out of line. */
CLI_NOINLINE void args_save_slow(uint8_t *blob, const fxt_record_t *rec) { args_save(blob, rec); }

int st_args_each(const uint8_t *blob, st_arg_fn fn, void *ctx) {
    size_t n = 2;
    char buf[64];
    for (unsigned i = 0; i < blob[0]; i++) {
        unsigned type = blob[n++];
        size_t nl = blob[n++];
        const char *name = (const char *)blob + n;
        n += nl;
        if (type == FXT_ARG_STRING) {
            size_t vl = blob[n++];
            fn(ctx, name, nl, 1, (const char *)blob + n, vl);
            n += vl;
            continue;
        }
        fxt_arg_t a;
        memcpy(&a.v, blob + n, 8);
        n += 8;
        int len;
        switch (type) {
        case FXT_ARG_NULL:
            len = snprintf(buf, sizeof buf, "null");
            break;
        case FXT_ARG_INT32:
            len = snprintf(buf, sizeof buf, "%" PRId32, a.v.i32);
            break;
        case FXT_ARG_INT64:
            len = snprintf(buf, sizeof buf, "%" PRId64, a.v.i64);
            break;
        case FXT_ARG_UINT32:
            len = snprintf(buf, sizeof buf, "%" PRIu32, a.v.u32);
            break;
        case FXT_ARG_DOUBLE:
            len = snprintf(buf, sizeof buf, "%.17g", a.v.f64);
            break;
        case FXT_ARG_POINTER:
            len = snprintf(buf, sizeof buf, "0x%" PRIx64, a.v.pointer);
            break;
        case FXT_ARG_BOOL:
            len = snprintf(buf, sizeof buf, "%s", a.v.boolean ? "true" : "false");
            break;
        default:
            len = snprintf(buf, sizeof buf, "%" PRIu64, a.v.u64);
            break;
        }
        fn(ctx, name, nl, 0, buf, (size_t)len);
    }
    return blob[1];
}

/* ---- the slowest events -------------------------------------------------------------- */

/* Slowest first; ties by earlier start, then earlier end record: the same order for any split. */
static int slower(const st_slow_t *a, uint64_t dur, uint64_t ts, uint64_t end_off) {
    if (a->dur != dur) {
        return a->dur > dur;
    }
    if (a->ts != ts) {
        return a->ts < ts;
    }
    return a->end_off < end_off;
}

/* slow_slot's insertion, for an event that is one of the `top` slowest. */
static st_slow_t *slow_insert(st_state_t *s, uint64_t dur, uint64_t ts, uint64_t end_off) {
    unsigned i = s->nslow < s->top ? s->nslow++ : s->nslow - 1;
    while (i > 0 && !slower(&s->slow[i - 1], dur, ts, end_off)) {
        s->slow[i] = s->slow[i - 1];
        i--;
    }
    st_slow_t *e = &s->slow[i];
    e->dur = dur;
    e->ts = ts;
    e->end_off = end_off;
    if (s->nslow == s->top) {
        s->slow_floor = s->slow[s->nslow - 1].dur;
    }
    return e;
}

/* The slot for an event of this duration among the `top` slowest, or NULL when it is not one
 * (inline: nearly every duration is not). */
static inline st_slow_t *slow_slot(st_state_t *s, uint64_t dur, uint64_t ts, uint64_t end_off) {
    if (dur < s->slow_floor || s->top == 0 ||
        (s->nslow == s->top && slower(&s->slow[s->nslow - 1], dur, ts, end_off))) {
        return NULL;
    }
    return slow_insert(s, dur, ts, end_off);
}

/* ---- one range --------------------------------------------------------------------- */

/* The provider `id`, created with the default 1 tick = 1 ns (spec-notes). Records before any
 * provider record (has_id 0) are provider 0's, as the reader has them (docs/reader.md): has_id says
 * whether a provider record named it. */
static st_prov_t *prov_get(st_state_t *s, int has_id, uint32_t id, size_t *ix) {
    st_prov_t *p = cli_map_get_ix(&s->providers, &(uint64_t[2]){0, id}, 16, 1, ix);
    if (p && p->ticks == 0) {
        p->id = id;
        p->ticks = 1000000000u;
    }
    if (p && has_id) {
        p->has_id = 1;
    }
    return p;
}

/* key = category \0 name (unresolved strings are "?") */
static size_t name_key(char *buf, fxt_str_t cat, fxt_str_t name) {
    size_t n = 0;
    const fxt_str_t *parts[2] = {&cat, &name};
    for (int k = 0; k < 2; k++) {
        const char *p = parts[k]->unresolved ? "?" : parts[k]->ptr;
        size_t l = parts[k]->unresolved ? 1 : parts[k]->len;
        if (l) {
            memcpy(buf + n, p, l);
        }
        n += l;
        buf[n++] = '\0';
    }
    return n;
}

static const char other_key[] = "(other)\0(other)";

/* The index + 1 of key's pair, or of "(other)" once ST_MAX_NAMES pairs exist: bounds memory
 * against adversarial traces (docs/stats.md). 0 when out of memory. */
static uint32_t name_ix(cli_map_t *names, const char *key, size_t n) {
    size_t ix = 0;
    st_name_t *v = cli_map_get_ix(names, key, n, 0, &ix);
    if (v == NULL) {
        size_t had = names->count;
        if (had >= ST_MAX_NAMES) {
            v = cli_map_get_ix(names, other_key, sizeof other_key, 1, &ix);
        } else {
            v = cli_map_get_ix(names, key, n, 1, &ix);
        }
        if (v && names->count > had) {
            v->min = UINT64_MAX; /* so the first duration sets it */
        }
    }
    return v ? (uint32_t)ix + 1 : 0;
}

/* A call-tree node's index + 1 (0 when the tree is full or out of memory). */
static uint32_t node_ix(st_state_t *s, uint32_t thread, uint32_t parent, uint32_t ctx, uint32_t name) {
    st_node_key_t k = {thread, parent, ctx, name};
    size_t ix = 0;
    if (name == 0 || !s->tree) {
        return 0;
    }
    void *v = cli_map_get_ix(&s->nodes, &k, sizeof k, 0, &ix);
    if (v == NULL && s->nodes.count < ST_MAX_NODES) {
        v = cli_map_get_ix(&s->nodes, &k, sizeof k, 1, &ix);
    }
    if (v == NULL) {
        s->tree_full = 1;
        return 0;
    }
    return (uint32_t)ix + 1;
}

/* The call-tree node of a frame opened (or a complete event) at the thread's depth: a range's
 * top-level frames hang from the root of the current context (stats.h). */
static uint32_t frame_node(st_state_t *s, const st_thread_t *t, uint32_t tix, uint32_t name) {
    uint32_t parent = t->depth ? t->stack[t->depth - 1].node : 0;
    return t->depth && parent == 0 ? 0 : node_ix(s, tix, parent, t->depth ? 0 : t->npops, name);
}

static void node_add(st_state_t *s, uint32_t node, uint64_t dur, uint64_t self) {
    if (node) {
        st_node_t *n = cli_map_at(&s->nodes, node - 1, NULL, NULL);
        n->total += dur;
        n->self += self;
        n->count++;
    }
}

static inline int push_frame(st_thread_t *t) {
    if (t->depth >= t->cap) {
        uint32_t ncap = t->cap ? t->cap * 2 : 8;
        ncap = ncap > ST_MAX_DEPTH ? ST_MAX_DEPTH : ncap;
        st_frame_t *ns = realloc(t->stack, ncap * sizeof *ns);
        if (ns == NULL) {
            return -1;
        }
        t->stack = ns;
        t->cap = ncap;
    }
    return 0;
}

/* A finished duration: its name, node, parent's child time (or the range's top-level time)
 * and the slowest events. The thread's key is tkey, or (tkey NULL) the event record's. Inline:
 * the calls cost as much as the work. */
CLI_INLINE void close_slice(st_state_t *s, st_thread_t *t, const uint64_t *tkey, uint32_t name, uint32_t node,
                            uint64_t begin, uint64_t dur, uint64_t child, uint64_t end_off,
                            const uint8_t *args, const fxt_record_t *rec) {
    uint64_t self = dur - child;
    if (child > dur) {
        self = 0; /* children overlapping each other or their parent's end: counted (docs/stats.md) */
        s->clamped++;
    }
    if (name) {
        add_duration(cli_map_at(&s->names, name - 1, NULL, NULL), dur, self);
    }
    node_add(s, node, dur, self);
    if (t->depth > 0) {
        if (t->depth <= ST_MAX_DEPTH) {
            t->stack[t->depth - 1].child_ns += dur;
        }
    } else {
        t->ctx_child += dur;
    }
    st_slow_t *e = slow_slot(s, dur, begin, end_off);
    if (e) {
        e->provider = tkey ? tkey[0] : rec->provider;
        e->pid = tkey ? tkey[1] : rec->u.event.thread.pid;
        e->tid = tkey ? tkey[2] : rec->u.event.thread.tid;
        e->name = name;
        if (args) {
            memcpy(e->args, args, ST_ARGS_BYTES);
        } else {
            args_save_slow(e->args, rec);
        }
    }
}

/* ---- nesting of complete events ----------------------------------------------------------
 *
 * A complete event is written when its scope ends, after the durations inside it: each closed
 * duration of a thread waits in the thread's ring (st_pend_t) for a complete event that encloses it,
 * until its parent is known: the pair open around it ends, ST_PEND_K more durations close on the
 * thread, or the range ends. Complete events are measured (count, total, self, slowest) when they
 * are read, since what they enclose came before them; their time goes to their parent, and their
 * call-tree nodes are made, when they are settled. Begin/end pairs are counted in their enclosing
 * pair when they end (as before); a complete event that encloses one moves its time. */

/* Why a block is settled: its parent ended, a limit gave it up, or its range ended. */
enum { PEND_PARENT, PEND_LIMIT, PEND_RANGE };

static inline st_pend_t *pend_at(const st_thread_t *t, uint32_t i) {
    return &t->pend[(t->phead + i) & (t->pcap - 1)];
}

/* Coalesces the older half of a full gup stack, two entries of a level into one (st_gup_t). */
static void gup_coalesce(st_state_t *s, st_thread_t *t) {
    uint32_t half = t->gn / 2, o = 0;
    for (uint32_t i = 0; i < half; i++) {
        st_gup_t *g = &t->gup[i];
        st_gup_t *prev = o ? &t->gup[o - 1] : NULL;
        if (prev && prev->level == g->level && (i & 1)) {
            prev->end = g->end;
            prev->ns += g->ns;
            prev->pairs += g->pairs;
        } else {
            t->gup[o++] = *g;
        }
    }
    memmove(t->gup + o, t->gup + half, (t->gn - half) * sizeof *t->gup);
    t->gn -= half - o;
    s->gup_coalesced = 1;
}

/* A duration given up by the limit (its time counted in its parent already): a complete event written
 * later may still take it (st_gup_t). Out of memory: its time stays where it is, as before. */
static void gup_push(st_state_t *s, st_thread_t *t, uint64_t start, uint64_t end, uint32_t pair,
                     uint32_t level) {
    if (t->gn == t->gcap) {
        if (t->gcap < ST_GUP_CAP) {
            uint32_t ncap = t->gcap ? 2 * t->gcap : 16;
            st_gup_t *ng = realloc(t->gup, ncap * sizeof *ng);
            if (ng == NULL) {
                s->oom = 1;
                return;
            }
            t->gup = ng;
            t->gcap = ncap;
        } else {
            gup_coalesce(s, t);
        }
    }
    t->gup[t->gn++] = (st_gup_t){start, end, end - start, pair, level};
    t->gpeak = t->gn > t->gpeak ? t->gn : t->gpeak;
}

/* A complete event [begin, end] on level lv that enclosed every duration of its level in the ring:
 * takes the given-up ones it encloses (their time, *pairs of them pairs). Returns their time; *stop
 * is set when an entry of the level is left (nothing older is inside it), and an entry it starts
 * inside (a coalesced block, or a partial overlap) is counted in `unnested`. */
static uint64_t gup_take(st_state_t *s, st_thread_t *t, uint32_t lv, uint64_t begin, uint64_t end,
                         uint64_t *pairs, int *stop) {
    uint64_t ns = 0;
    while (t->gn > 0) {
        const st_gup_t *g = &t->gup[t->gn - 1];
        if (g->level != lv) {
            break;
        }
        if (g->start < begin || g->end > end) {
            if (g->end > begin) {
                s->unnested++; /* starts inside it: its time cannot be split */
            }
            *stop = 1;
            break;
        }
        ns += g->ns;
        *pairs += g->pairs;
        t->gn--;
    }
    return ns;
}

/* The reach event closed as the thread's seq-th duration, if it is one, got call-tree node `node`
 * (st_reach_t.rnode: the merge may give it children from earlier ranges). Reach events are in seq
 * order. */
static void reach_node(st_thread_t *t, uint64_t seq, uint32_t node) {
    uint32_t lo = 0, hi = t->nreach;
    while (lo < hi) {
        uint32_t m = (lo + hi) / 2;
        if (t->reach[m].seq < seq) {
            lo = m + 1;
        } else {
            hi = m;
        }
    }
    if (lo < t->nreach && t->reach[lo].seq == seq) {
        t->reach[lo].rnode = node;
    }
}

/* Call-tree nodes of the settled complete event at ring position r and of those it encloses. */
static void pend_nodes(st_state_t *s, st_thread_t *t, uint32_t tix, uint32_t r, uint32_t parent, uint32_t ctx,
                       unsigned depth) {
    const st_pend_t *e = pend_at(t, r);
    if (e->pair || depth > ST_MAX_DEPTH) {
        return; /* a pair has its nodes (docs/stats.md); deeper frames are not in the tree */
    }
    uint32_t node = node_ix(s, tix, parent, ctx, e->name);
    if (node == 0) {
        return;
    }
    if (t->nreach) {
        reach_node(t, e->seq, node);
    }
    uint64_t dur = e->end - e->start;
    node_add(s, node, dur, dur > e->child ? dur - e->child : 0);
    for (uint32_t c = r, lo = r + 1 - e->size; c > lo; c -= pend_at(t, c - 1)->size) {
        pend_nodes(s, t, tix, c - 1, node, 0, depth + 1);
    }
}

/* Settles the block whose root is at ring position r: its time goes to the pair open around it (or
 * the range's top level), its nodes under that pair's. */
static void pend_settle(st_state_t *s, st_thread_t *t, uint32_t tix, uint32_t r, int how) {
    const st_pend_t *e = pend_at(t, r);
    uint32_t lv = e->level;
    st_frame_t *f = lv ? &t->stack[lv - 1] : NULL;
    if (how == PEND_LIMIT) {
        uint64_t *fin = f ? &f->fin : &t->fin0;
        *fin = e->end > *fin ? e->end : *fin;
        gup_push(s, t, e->start, e->end, e->pair, lv);
    }
    if (e->pair) {
        return; /* counted where it ended */
    }
    if (f) {
        f->child_ns += e->end - e->start;
    } else {
        t->ctx_child += e->end - e->start;
    }
    if (s->tree && (f == NULL || f->node != 0)) {
        pend_nodes(s, t, tix, r, f ? f->node : 0, f ? 0 : t->npops, lv + 1);
    }
}

/* pend_settle of the newest block. */
CLI_NOINLINE void pend_settle_newest(st_state_t *s, st_thread_t *t, uint32_t tix, int how) {
    uint32_t size = pend_at(t, t->pn - 1)->size;
    pend_settle(s, t, tix, t->pn - 1, how);
    t->pn -= size;
}

/* Settles the newest blocks down to those of `level` (all with level 0). A pair whose parent ended
 * needs nothing: dropped inline. */
CLI_INLINE void pend_settle_above(st_state_t *s, st_thread_t *t, uint32_t tix, uint32_t level, int how) {
    while (t->pn > 0) {
        const st_pend_t *e = &t->pend[(t->phead + t->pn - 1) & (t->pcap - 1)];
        if (e->level < level) {
            break;
        }
        if (e->pair && how == PEND_PARENT) {
            t->pn--; /* a pair encloses no entry: size 1 */
            continue;
        }
        pend_settle_newest(s, t, tix, how);
    }
    /* the given-up durations of those levels are inside the parent that ended (their time is in it) */
    while (t->gn > 0 && t->gup[t->gn - 1].level >= level) {
        t->gn--;
    }
}

/* Gives up the oldest block (a limit): settled as it is. */
static void pend_give_up_oldest(st_state_t *s, st_thread_t *t, uint32_t tix) {
    uint32_t size = pend_at(t, 0)->head;
    pend_settle(s, t, tix, size - 1, PEND_LIMIT);
    t->phead = (t->phead + size) & (t->pcap - 1);
    t->pn -= size;
}

/* Gives up the blocks that ST_PEND_K later durations have passed. */
CLI_NOINLINE void pend_limit(st_state_t *s, st_thread_t *t, uint32_t tix) {
    while (t->pn > 0 && t->pseq - 1 - pend_at(t, pend_at(t, 0)->head - 1)->seq >= ST_PEND_K) {
        pend_give_up_oldest(s, t, tix);
    }
    /* Until ST_PEND_K more close after the oldest block's root, nothing is given up: one compare per
     * closed duration (the ring's front entry is older than its root, which a long scope keeps open:
     * calls that did nothing cost 5 % of a scope-heavy trace). Blocks only grow newer roots, and
     * entries pushed later are newer: a lower bound stays one. */
    t->proot = t->pn > 0 ? pend_at(t, pend_at(t, 0)->head - 1)->seq : t->pseq;
}

/* Room for one more entry: the ring grows up to ST_PEND_CAP, then gives up its oldest block. 0, or
 * -1 when the ring is empty and cannot be allocated (out of memory: not kept). */
CLI_NOINLINE int pend_room(st_state_t *s, st_thread_t *t, uint32_t tix) {
    if (t->pcap < ST_PEND_CAP) {
        uint32_t ncap = t->pcap ? t->pcap * 2 : 16;
        st_pend_t *np = malloc(ncap * sizeof *np);
        if (np != NULL) {
            for (uint32_t i = 0; i < t->pn; i++) {
                np[i] = *pend_at(t, i);
            }
            free(t->pend);
            t->pend = np;
            t->pcap = ncap;
            t->phead = 0;
            return 0;
        }
    }
    if (t->pn == 0) {
        return -1;
    }
    s->pend_capped = 1; /* depends on what the ring held: the same only in one range */
    pend_give_up_oldest(s, t, tix);
    return 0;
}

/* A pair that ended on level `level`: a complete event written later may enclose it. Inline: one
 * per pair. */
CLI_INLINE void pend_pair(st_state_t *s, st_thread_t *t, uint32_t tix, uint64_t begin, uint64_t end,
                          uint32_t level) {
    if (t->pn == t->pcap && pend_room(s, t, tix) != 0) {
        return;
    }
    st_pend_t *e = &t->pend[(t->phead + t->pn) & (t->pcap - 1)];
    e->start = begin;
    e->end = end;
    e->seq = t->pseq++;
    e->level = (uint16_t)level;
    e->size = 1;
    e->head = 1;
    e->pair = 1;
    t->pn++;
    /* the oldest entry is no older than its block's root: one compare tells the limit is far */
    if (t->pseq - 1 - t->proot >= ST_PEND_K) {
        pend_limit(s, t, tix);
    }
}

/* A top-level complete event that enclosed all its context had waiting: the merge looks for more in
 * the trace's ring (st_reach_t). Rare: about one per range and thread. */
CLI_NOINLINE void reach_add(st_thread_t *t, uint64_t begin, uint64_t end, uint64_t child, uint32_t name,
                            int counted) {
    if (t->nreach == ST_MAX_REACH) {
        t->reach_over = 1;
        return;
    }
    if (t->nreach == t->reachcap) {
        uint32_t ncap = t->reachcap ? 2 * t->reachcap : 4;
        st_reach_t *nr = realloc(t->reach, ncap * sizeof *nr);
        if (nr == NULL) {
            t->reach_over = 1; /* the merge asks for a read with one thread */
            return;
        }
        t->reach = nr;
        t->reachcap = ncap;
    }
    t->reach[t->nreach++] =
        (st_reach_t){begin, end, child, t->pseq, t->npops, name, (uint32_t)counted, 0, 0, 0};
}

/* A complete event [begin, end]: encloses the newest blocks of its level that lie inside it; its
 * child time is known now, so it is measured here (close_slice's measures, without the parent's). */
CLI_NOINLINE void on_complete(st_state_t *s, st_thread_t *t, uint32_t tix, const fxt_record_t *rec,
                              uint32_t name, uint64_t begin, uint64_t end) {
    uint32_t lv = t->depth;
    if (t->pn == t->pcap && pend_room(s, t, tix) != 0) {
        return;
    }
    uint64_t child = 0;
    uint32_t k = t->pn;
    int before = 0; /* a duration of its level ends before it begins: nothing older is inside it */
    while (k > 0) {
        const st_pend_t *e = pend_at(t, k - 1);
        if (e->level != lv) {
            break;
        }
        if (e->start < begin || e->end > end) {
            if (e->end > begin) {
                s->unnested++; /* a partial overlap: not nesting */
            }
            before = 1;
            break;
        }
        uint64_t d = e->end - e->start;
        child += d;
        if (e->pair) {
            /* counted in the enclosing pair (or the top level) when it ended: moved here */
            if (lv) {
                t->stack[lv - 1].child_ns -= d;
            } else {
                t->ctx_child -= d;
            }
            s->pairs_in_complete++;
        }
        k -= e->size;
    }
    if (!before && t->gn > 0) {
        uint64_t pairs = 0, d = gup_take(s, t, lv, begin, end, &pairs, &before);
        if (d) {
            /* counted in the pair open around them (or the top level): moved here */
            child += d;
            if (lv) {
                t->stack[lv - 1].child_ns -= d;
            } else {
                t->ctx_child -= d;
            }
            s->pairs_in_complete += pairs;
        }
    }
    if (!before) {
        uint64_t fin = lv ? t->stack[lv - 1].fin : t->fin0;
        int counted = begin < fin;
        if (counted) {
            s->tree_unnested++; /* it encloses durations given up by the limits: time exact, tree not */
        }
        if (lv == 0) {
            /* nothing before it in this context: it may enclose what earlier ranges left waiting */
            reach_add(t, begin, end, child, name, counted);
        }
    }
    uint64_t dur = end - begin;
    uint64_t self = dur - child;
    if (child > dur) {
        self = 0;
        s->clamped++;
    }
    if (name) {
        add_duration(cli_map_at(&s->names, name - 1, NULL, NULL), dur, self);
    }
    st_slow_t *sl = slow_slot(s, dur, begin, rec->offset);
    if (sl) {
        sl->provider = rec->provider;
        sl->pid = rec->u.event.thread.pid;
        sl->tid = rec->u.event.thread.tid;
        sl->name = name;
        args_save_slow(sl->args, rec);
    }
    uint32_t size = t->pn - k + 1;
    st_pend_t *e = pend_at(t, t->pn);
    *e = (st_pend_t){begin, end, child, t->pseq++, name, (uint16_t)lv, (uint16_t)size, 1, 0};
    t->pn++;
    st_pend_t *first = pend_at(t, k);
    first->head = size > first->head ? (uint16_t)size : first->head;
    if (t->pseq - 1 - t->proot >= ST_PEND_K) {
        pend_limit(s, t, tix);
    }
}

/* Duration matching, call tree and self time of one begin, end or complete event. */
CLI_INLINE void on_duration(st_state_t *s, st_thread_t *t, uint32_t tix, const fxt_record_t *rec,
                            uint32_t name, uint64_t ns, uint64_t end_ns) {
    switch (rec->u.event.type) {
    case FXT_EVENT_DURATION_BEGIN:
        if (t->depth < ST_MAX_DEPTH) {
            /* No room for the frame: the depth must not count it (an end would read the frame past
             * the stack), and the run fails as out of memory. */
            if (push_frame(t) != 0) {
                s->oom = 1;
                return;
            }
            st_frame_t *f = &t->stack[t->depth];
            f->begin_ns = ns;
            f->child_ns = 0;
            f->fin = 0;
            f->name = name;
            f->node = s->tree ? frame_node(s, t, tix, name) : 0;
            f->args[0] = 0;
            f->args[1] = 0;
            /* Only --top shows arguments. */
            if (s->top && rec->nargs) {
                args_save(f->args, rec);
            }
        }
        t->depth++;
        t->max_depth = t->depth > t->max_depth ? t->depth : t->max_depth;
        break;
    case FXT_EVENT_DURATION_END:
        if (t->depth == 0) {
            /* Ends a frame opened before this range, if any: resolved by the merge. What closed on
             * the top level since the previous pop was inside it. */
            pend_settle_above(s, t, tix, 0, PEND_PARENT);
            t->fin0 = 0;
            if (t->npops == t->popcap) {
                uint32_t ncap = t->popcap ? t->popcap * 2 : 8;
                st_pop_t *np = realloc(t->pops, ncap * sizeof *np);
                if (np == NULL) {
                    return;
                }
                t->pops = np;
                t->popcap = ncap;
            }
            t->pops[t->npops++] = (st_pop_t){ns, rec->offset, t->ctx_child, t->pseq};
            t->ctx_child = 0;
            return;
        }
        t->depth--;
        if (t->depth < ST_MAX_DEPTH) {
            /* The durations still waiting inside it are its children. */
            pend_settle_above(s, t, tix, t->depth + 1, PEND_PARENT);
            const st_frame_t *f = &t->stack[t->depth];
            /* Clamped at 0: an end before its begin must not wrap around. */
            uint64_t dur = ns >= f->begin_ns ? ns - f->begin_ns : 0;
            uint64_t begin = f->begin_ns;
            close_slice(s, t, NULL, f->name ? f->name : name, f->node, begin, dur, f->child_ns, rec->offset,
                        f->args, rec);
            pend_pair(s, t, tix, begin, begin + dur, t->depth);
        }
        break;
    case FXT_EVENT_DURATION_COMPLETE:
        if (t->depth <= ST_MAX_DEPTH && t->depth <= t->cap) {
            /* An end before its start is an empty duration (never a wrapped one). */
            on_complete(s, t, tix, rec, name, ns, end_ns >= ns ? end_ns : ns);
        }
        break;
    default:
        break;
    }
}

/* The counter's index + 1 for (category, name, id), through the range's cache; 0 when out of memory. */
static uint32_t counter_ix(st_range_t *rg, const fxt_record_t *rec) {
    st_state_t *s = &rg->s;
    const fxt_str_t *c = &rec->u.event.category, *nm = &rec->u.event.name;
    uint64_t id = rec->u.event.id;
    counter_cache_t *e = NULL;
    if (!fxt_strref_is_inline(c->ref) && !fxt_strref_is_inline(nm->ref)) {
        uint32_t key = ((uint32_t)c->ref << 16 | nm->ref) ^ (uint32_t)id ^ (uint32_t)(id >> 32);
        e = &rg->ccache[(key * 2654435761u) >> 24];
        if (e->counter != 0 && e->id == id && e->cat_ref == c->ref && e->name_ref == nm->ref &&
            e->cat_ver == rg->str_ver[c->ref] && e->name_ver == rg->str_ver[nm->ref]) {
            return e->counter;
        }
    }
    size_t n = name_key(s->keybuf, *c, *nm);
    /* A counter is identified by (category, name, id): the id tells series of one name apart. */
    memcpy(s->keybuf + n, &id, 8);
    size_t cix = 0;
    if (cli_map_get_ix(&s->counters, s->keybuf, n + 8, 1, &cix) == NULL) {
        return 0;
    }
    if (e) {
        *e = (counter_cache_t){
            id, c->ref, nm->ref, rg->str_ver[c->ref], rg->str_ver[nm->ref], (uint32_t)cix + 1};
    }
    return (uint32_t)cix + 1;
}

/* The series' index + 1 for argument `a` of counter index cix, through the range's cache. */
static uint32_t series_ix(st_range_t *rg, size_t cix, const fxt_arg_t *a) {
    st_state_t *s = &rg->s;
    series_cache_t *e = NULL;
    if (!fxt_strref_is_inline(a->name.ref)) {
        e = &rg->scache[(((uint32_t)cix << 16 ^ a->name.ref) * 2654435761u) >> 24];
        if (e->counter == cix + 1 && e->name_ref == a->name.ref && e->name_ver == rg->str_ver[a->name.ref]) {
            return e->series;
        }
    }
    char *k = s->keybuf + SERIES_KEY_OFF;
    uint64_t c64 = cix;
    size_t nl = a->name.ptr ? a->name.len : 0;
    memcpy(k, &c64, 8);
    if (nl) {
        memcpy(k + 8, a->name.ptr, nl);
    }
    size_t six = 0;
    if (cli_map_get_ix(&s->series, k, 8 + nl, 1, &six) == NULL) {
        return 0;
    }
    if (e) {
        *e = (series_cache_t){(uint32_t)cix + 1, rg->str_ver[a->name.ref], a->name.ref, (uint32_t)six + 1};
    }
    return (uint32_t)six + 1;
}

/* Samples of a counter and of each numeric argument (a series). */
static void on_counter(st_range_t *rg, const fxt_record_t *rec, uint64_t ns) {
    st_state_t *s = &rg->s;
    uint32_t cref = counter_ix(rg, rec);
    if (cref == 0) {
        return;
    }
    size_t cix = cref - 1;
    st_counter_t *c = cli_map_at(&s->counters, cix, NULL, NULL);
    if (c->samples++ == 0) {
        c->first_ns = ns;
    }
    c->last_ns = ns;
    for (unsigned i = 0; i < rec->nargs; i++) {
        const fxt_arg_t *a = &rec->args[i];
        double v; /* 64-bit integers beyond 2^53 are rounded as doubles (docs/stats.md) */
        if (fxt_arg_number(a, &v) != FXT_OK) {
            continue; /* not a numeric series */
        }
        uint32_t sref = series_ix(rg, cix, a);
        if (sref == 0) {
            continue;
        }
        st_series_t *se = cli_map_at(&s->series, sref - 1, NULL, NULL);
        if (se->samples++ == 0) {
            se->counter = cix;
            se->min = se->max = v;
        }
        se->min = v < se->min ? v : se->min;
        se->max = v > se->max ? v : se->max;
        se->last = v;
    }
}

/* A cheap signature of a string for the inline caches: its length and up to 4 bytes at each end. */
static inline uint32_t str_sig(const char *p, size_t n) {
    uint32_t a = 0, b = 0;
    if (n >= 4) {
        memcpy(&a, p, 4);
        memcpy(&b, p + n - 4, 4);
    } else if (n > 0) {
        a = (uint8_t)p[0];
        b = (uint32_t)(uint8_t)p[n / 2] << 8 | (uint8_t)p[n - 1];
    }
    return (a * 2654435761u ^ b) * 2246822519u + (uint32_t)n;
}

/* The range's first event of pair `ne` (index + 1 `name`, key `key`): its histogram is its thread's
 * (stats.h). -1 when out of memory (the pair is then not counted). */
static int name_use(st_range_t *rg, st_name_t *ne, uint32_t name, const char *key, size_t kl) {
    if (cli_grow(&rg->met, &rg->metcap, rg->nmet + 1, sizeof *rg->met, 256) != 0 ||
        (ne->acc = acc_hist(rg->s.acc, key, kl)) == NULL) {
        return -1;
    }
    rg->met[rg->nmet++] = name - 1;
    ne->hist = ne->acc->rows;
    ne->hlo = ne->acc->lo;
    ne->hrows = ne->acc->nrows;
    return 0;
}

/* event_names when the ref cache cannot answer (e: its entry to fill, NULL when a string is
 * inline: counted here). Out of line: rare, and a large frame. */
CLI_NOINLINE const name_cache_t *names_find(st_range_t *rg, const fxt_record_t *rec, name_cache_t *e) {
    st_state_t *s = &rg->s;
    const fxt_str_t *c = &rec->u.event.category, *nm = &rec->u.event.name;
    const char *cp = c->unresolved ? "?" : c->ptr, *np = nm->unresolved ? "?" : nm->ptr;
    size_t cl = c->unresolved ? 1 : c->len, nl = nm->unresolved ? 1 : nm->len;
    if (e == NULL) {
        if (fxt_strref_is_inline(c->ref)) {
            s->inline_strings++;
            s->inline_bytes += c->len;
        }
        if (fxt_strref_is_inline(nm->ref)) {
            s->inline_strings++;
            s->inline_bytes += nm->len;
        }
    }
    /* Pairs cached by their strings' bytes: inline strings have no ref to cache by, and a pair met
     * by refs is found here again when its strings are registered anew or the state's next range
     * starts (st_range_t keeps the pairs). The entry holds if the pair's key in the names map is
     * the one name_key would build (the category's length tells where it ends). */
    inline_cache_t *ie = &rg->icache[((str_sig(cp, cl) * 2654435761u ^ str_sig(np, nl)) * 2246822519u) >> 20];
    name_cache_t found;
    const char *key = NULL;
    size_t kl = 0;
    if (ie->c.name && ie->cat_len == cl) {
        cli_map_at(&s->names, ie->c.name - 1, &key, &kl);
    }
    if (key && kl == cl + nl + 2 && key[cl] == '\0' && (cl == 0 || memcmp(key, cp, cl) == 0) &&
        (nl == 0 || memcmp(key + cl + 1, np, nl) == 0)) {
        /* The entry may be from an earlier range of this state: the pair is then unused. */
        if (ie->c.np->acc == NULL && name_use(rg, ie->c.np, ie->c.name, key, kl) != 0) {
            rg->nfound = (name_cache_t){0, 0, 0, 0, NULL, ie->c.cp};
            return &rg->nfound;
        }
        if (e == NULL) {
            return &ie->c;
        }
        found = ie->c;
    } else {
        const uint8_t *names_at = s->names.entries, *cats_at = s->cats.entries;
        size_t n = name_key(s->keybuf, *c, *nm);
        uint32_t name = name_ix(&s->names, s->keybuf, n);
        st_name_t *ne = name ? cli_map_at(&s->names, name - 1, &key, &kl) : NULL;
        if (ne && ne->acc == NULL && name_use(rg, ne, name, key, kl) != 0) {
            ne = NULL;
            name = 0; /* out of memory */
        }
        size_t cix = 0;
        uint64_t *cat = cli_map_get_ix(&s->cats, cp, cl, 1, &cix);
        if (s->names.entries != names_at || s->cats.entries != cats_at) {
            names_clear(rg);
            icache_clear(rg);
        }
        found = (name_cache_t){0, 0, 0, name, ne, cat};
        if (name == 0) {
            rg->nfound = found; /* not cached: out of memory */
            return &rg->nfound;
        }
        if (ie->c.name == 0) {
            rg->iused[rg->niused++] = (uint16_t)(ie - rg->icache);
        }
        ie->cat_len = (uint32_t)cl;
        ie->c = found;
        if (e == NULL) {
            return &ie->c;
        }
    }
    if (e->refs == 0) {
        rg->nused[rg->nnused++] = (uint16_t)(e - rg->ncache);
    }
    found.refs = ((uint32_t)c->ref << 16 | nm->ref) + 1;
    found.cat_ver = rg->str_ver[c->ref];
    found.name_ver = rg->str_ver[nm->ref];
    *e = found;
    return e;
}

/* The (category, name) pair and category count entries of an event, cached by string refs. */
CLI_INLINE const name_cache_t *event_names(st_range_t *rg, const fxt_record_t *rec) {
    const fxt_str_t *c = &rec->u.event.category, *nm = &rec->u.event.name;
    if ((c->ref | nm->ref) & FXT_STRREF_INLINE_FLAG) {
        return names_find(rg, rec, NULL);
    }
    uint32_t key = (uint32_t)c->ref << 16 | nm->ref;
    name_cache_t *e = &rg->ncache[(key * 2654435761u) >> 20];
    /* Non-inline refs are 15 bits: key + 1 cannot wrap to the empty entry's 0. */
    if (e->refs == key + 1 && e->cat_ver == rg->str_ver[c->ref] && e->name_ver == rg->str_ver[nm->ref]) {
        return e;
    }
    return names_find(rg, rec, e);
}

/* The event's thread when its ref's cache entry cannot answer (an inline thread: a cache of its
 * own). Its entry's t is NULL when out of memory. */
CLI_NOINLINE const thread_cache_t *thread_find(st_range_t *rg, const fxt_record_t *rec) {
    const fxt_thread_ref_t *tr = &rec->u.event.thread;
    thread_cache_t *tc = &rg->tcache[tr->ref];
    inline_thread_t *it = NULL;
    if (tr->ref == FXT_THREADREF_INLINE) {
        it = &rg->itcache[((tr->pid ^ tr->tid) * UINT64_C(0x9e3779b97f4a7c15)) >> 58];
        if (it->c.gen == rg->gen && it->pid == tr->pid && it->tid == tr->tid) {
            return &it->c;
        }
    }
    st_state_t *s = &rg->s;
    const uint8_t *entries = s->threads.entries;
    uint64_t key[3] = {rec->provider, tr->pid, tr->tid};
    size_t ix = 0;
    st_thread_t *t = cli_map_get_ix(&s->threads, key, sizeof key, 1, &ix);
    if (s->threads.entries != entries) {
        rg->gen++; /* the cached entries moved */
    }
    thread_cache_t c = {rg->gen, t ? (uint32_t)ix + 1 : 0, t};
    if (it) {
        *it = (inline_thread_t){tr->pid, tr->tid, c};
        return &it->c;
    }
    *tc = c;
    return tc;
}

/* Span, counts, the thread's duration stack and counter series of one event. */
CLI_INLINE void on_event(st_range_t *rg, const fxt_record_t *rec) {
    st_state_t *s = &rg->s;
    uint64_t tps = rg->tps;
    uint64_t ns = cli_ticks_to_ns(rec->u.event.ts, tps);
    /* first_ns starts at UINT64_MAX (st_new): no test for the first event. Branches, not
     * conditional moves: the stores are rare. have_span is set where events are counted. */
    if (ns < s->first_ns) {
        s->first_ns = ns;
    }
    if (ns > s->last_ns) {
        s->last_ns = ns;
    }
    const name_cache_t *nc = event_names(rg, rec);
    uint32_t nix = nc->name;
    if (nc->cp) {
        (*nc->cp)++;
    }
    if (nc->np) {
        nc->np->events++;
    }
    const fxt_thread_ref_t *tr = &rec->u.event.thread;
    /* Per provider: thread state belongs to the provider section (spec-notes). */
    const thread_cache_t *tc = &rg->tcache[tr->ref];
    if (tr->ref == FXT_THREADREF_INLINE || tc->gen != rg->gen) {
        tc = thread_find(rg, rec);
    }
    st_thread_t *t = tc->t;
    uint32_t tix = tc->thread;
    if (t == NULL) {
        return;
    }
    t->events++;
    switch (rec->u.event.type) {
    case FXT_EVENT_DURATION_BEGIN:
    case FXT_EVENT_DURATION_END:
        on_duration(s, t, tix, rec, nix, ns, 0);
        break;
    case FXT_EVENT_DURATION_COMPLETE: {
        uint64_t end = cli_ticks_to_ns(rec->u.event.end_ts, tps);
        on_duration(s, t, tix, rec, nix, ns, end);
        /* The span includes the end of duration complete events (docs/stats.md). */
        s->last_ns = end > s->last_ns ? end : s->last_ns;
        break;
    }
    case FXT_EVENT_COUNTER:
        on_counter(rg, rec, ns);
        break;
    default:
        break;
    }
}

/* On-CPU time: the interval since the CPU's previous record (a context switch or a wakeup on it)
 * belongs to the thread its last switch switched in; after the CPU's last record nothing is known
 * (docs/stats.md). A switch (`sw`) switches in in_tid. */
static void on_cpu_record(st_state_t *s, uint32_t cpu, uint64_t ns, int sw, uint64_t in_tid) {
    st_cpu_t *c = cli_map_get_u64(&s->cpus, cpu, 0, 1);
    if (c == NULL) {
        return;
    }
    if (c->running) {
        uint64_t *t = cli_map_get_u64(&s->oncpu, c->tid, 0, 1);
        if (t) {
            *t += ns >= c->since_ns ? ns - c->since_ns : 0;
        }
        c->since_ns = ns > c->since_ns ? ns : c->since_ns;
    } else {
        /* Before the range's first switch on the CPU: the merge gives the time up to its last such
         * record to the thread running then. */
        c->have_first = 1;
        c->first_ns = ns;
    }
    if (sw) {
        c->running = 1;
        c->tid = in_tid;
        c->since_ns = ns;
    }
}

static void set_bit(uint8_t *set, unsigned i, uint64_t *rereg) {
    if (set[i >> 3] & (1u << (i & 7))) {
        (*rereg)++;
    }
    set[i >> 3] |= (uint8_t)(1u << (i & 7));
}

/* Adds the events st_on_record counted in rg to the state and rg->prov, before anything that may
 * change or move the provider's entry, and before a merge. */
static void flush_events(st_range_t *rg) {
    if (rg->ev_n) {
        st_state_t *s = &rg->s;
        s->records += rg->ev_n;
        s->kinds[FXT_KIND_EVENT].count += rg->ev_n;
        s->kinds[FXT_KIND_EVENT].bytes += rg->ev_bytes;
        rg->prov->records += rg->ev_n;
        rg->prov->bytes += rg->ev_bytes;
        rg->prov->events += rg->ev_n;
        s->have_span = 1;
        rg->ev_n = 0;
        rg->ev_bytes = 0;
    }
}

/* Per-kind and per-provider record counts, then the kinds that feed the summary, for all but
 * events of the current provider (st_on_record): out of line, so the event path keeps a small
 * frame. 1 when rec is an event for on_event. */
CLI_NOINLINE int on_other(st_range_t *rg, fxt_reader_t *r, const fxt_record_t *rec) {
    st_state_t *s = &rg->s;
    flush_events(rg);
    s->records++;
    s->kinds[rec->kind].count++;
    s->kinds[rec->kind].bytes += rec->size;
    /* The provider's entry, looked up again only when the context changes or the map grew
     * (which may move its entries). */
    st_prov_t *p = rg->prov;
    if (p == NULL || rg->prov_count != s->providers.count || rec->kind == FXT_KIND_PROVIDER_INFO ||
        rec->kind == FXT_KIND_PROVIDER_SECTION) {
        int changed = p == NULL || rec->kind != FXT_KIND_EVENT;
        p = rg->prov = prov_get(s, rec->has_provider, rec->provider, NULL);
        rg->prov_count = s->providers.count;
        rg->tps = fxt_reader_ticks_per_second(r);
        if (changed) {
            rg->gen++;
            strings_changed(rg);
        }
        if (p == NULL) {
            return 0; /* out of memory: the record is counted only globally */
        }
    }
    p->records++;
    p->bytes += rec->size;
    switch (rec->kind) {
    case FXT_KIND_EVENT:
        p->events++;
        s->have_span = 1;
        return 1;
    case FXT_KIND_PROVIDER_INFO:
        /* The name length is 8 bits (spec: Provider info metadata): it always fits. */
        snprintf(p->name, sizeof p->name, "%.*s", (int)rec->u.provider_info.name.len,
                 rec->u.provider_info.name.ptr);
        p->named = 1;
        break;
    case FXT_KIND_PROVIDER_EVENT:
        /* Drops count for the provider the event names, which need not be the current one. */
        if (rec->u.provider_event.event == FXT_PROVIDER_EVENT_BUFFER_FULL) {
            st_prov_t *d = prov_get(s, 1, rec->u.provider_event.id, NULL);
            if (d) {
                d->overflows++;
            }
        }
        break;
    case FXT_KIND_INIT:
        rg->tps = fxt_reader_ticks_per_second(r);
        p->ticks = rec->u.init.ticks_per_second;
        p->ticks_set = 1;
        break;
    case FXT_KIND_STRING:
        p->strings++;
        /* Re-registration replaces the earlier string (spec-notes); counted as a hint of slot recycling. */
        set_bit(p->str_set, rec->u.string.index, &p->string_rereg);
        rg->str_ver[rec->u.string.index & 0x7fff]++;
        break;
    case FXT_KIND_THREAD:
        p->threads++;
        set_bit(p->thr_set, rec->u.thread.index, &p->thread_rereg);
        rg->gen++;
        break;
    case FXT_KIND_KERNEL_OBJECT: {
        uint32_t ot = rec->u.kernel_object.obj_type;
        if ((ot == FXT_OBJ_PROCESS || ot == FXT_OBJ_THREAD) && !rec->u.kernel_object.name.unresolved) {
            st_object_t *o = cli_map_get_u64(&s->objects, rec->u.kernel_object.koid, ot, 1);
            if (o) {
                o->is_thread = ot == FXT_OBJ_THREAD;
                /* Truncated to 127 bytes: object names are only printed. */
                snprintf(o->name, sizeof o->name, "%.*s", (int)rec->u.kernel_object.name.len,
                         rec->u.kernel_object.name.ptr);
                for (unsigned i = 0; i < rec->nargs; i++) {
                    const fxt_arg_t *a = &rec->args[i];
                    if (a->type == FXT_ARG_KOID && a->name.ptr && a->name.len == 7 &&
                        !memcmp(a->name.ptr, "process", 7)) {
                        o->pid = a->v.koid;
                        o->has_pid = 1;
                    }
                }
            }
        }
        break;
    }
    case FXT_KIND_CONTEXT_SWITCH:
        on_cpu_record(s, rec->u.context_switch.cpu, cli_ticks_to_ns(rec->u.context_switch.ts, rg->tps), 1,
                      rec->u.context_switch.in_tid);
        break;
    case FXT_KIND_THREAD_WAKEUP:
        on_cpu_record(s, rec->u.thread_wakeup.cpu, cli_ticks_to_ns(rec->u.thread_wakeup.ts, rg->tps), 0, 0);
        break;
    case FXT_KIND_LEGACY_CONTEXT_SWITCH:
        on_cpu_record(s, rec->u.legacy_context_switch.cpu,
                      cli_ticks_to_ns(rec->u.legacy_context_switch.ts, rg->tps), 1,
                      rec->u.legacy_context_switch.in.tid);
        break;
    case FXT_KIND_MAGIC:
    case FXT_KIND_PROVIDER_SECTION:
    case FXT_KIND_TRACE_INFO:
    case FXT_KIND_BLOB:
    case FXT_KIND_USERSPACE_OBJECT:
    case FXT_KIND_LOG:
    case FXT_KIND_LARGE_BLOB:
    case FXT_KIND_UNKNOWN:
        break;
    }
    return 0;
}

int st_on_record(void *ctx, fxt_reader_t *r, const fxt_record_t *rec) {
    st_range_t *rg = ctx;
    /* Events of the current provider, counted in rg (flush_events); the rest out of line. */
    if (rec->kind == FXT_KIND_EVENT && rg->prov != NULL && rg->prov_count == rg->s.providers.count) {
        rg->ev_n++;
        rg->ev_bytes += rec->size;
    } else if (!on_other(rg, r, rec)) {
        return 0;
    }
    on_event(rg, rec);
    return 0;
}

/* Damaged records are counted; the first ST_MAX_ERRMSG are kept for stderr, printed in order. */
void st_on_error(void *ctx, fxt_reader_t *r, const fxt_diag_t *d) {
    st_state_t *s = ctx;
    (void)r;
    if (s->nerrmsg < ST_MAX_ERRMSG) {
        snprintf(s->errmsg[s->nerrmsg++], sizeof s->errmsg[0], "offset %" PRIu64 ": %s", d->offset, d->msg);
    }
    s->errors++;
}

/* ---- merging ranges in order ------------------------------------------------------------ */

/* Adds top-level time of a range to the frame open in the trace, or to the thread's busy time. */
static void give_child(st_thread_t *g, uint64_t ns) {
    if (g->depth > 0) {
        g->stack[g->depth - 1].child_ns += ns;
    } else {
        g->busy_ns += ns;
    }
}

/* ---- nesting across ranges ------------------------------------------------------------------
 *
 * A range knows nothing of the durations earlier ranges left waiting for an enclosing complete
 * event: at its end, what waits in its ring moves to the trace thread's ring (g_append), and the
 * merge does there what a read with one thread does with them while it reads the range: pops
 * settle what their frame encloses and wait themselves (apply_pop), the limit gives up the oldest
 * (g_limit, by the same count of closed durations), and a top-level complete event of the range
 * that enclosed all its context had waiting (st_reach_t) takes those of the trace's it encloses
 * (g_reach). So the output does not depend on where ranges start. */

/* pend_settle_above in the trace: its top-level time is busy time. */
static void g_settle_above(st_state_t *g, st_thread_t *gt, uint32_t gtix, uint32_t level, int how) {
    pend_settle_above(g, gt, gtix, level, how);
    gt->busy_ns += gt->ctx_child;
    gt->ctx_child = 0;
}

/* The trace thread has closed `seq` durations: gives up its oldest blocks that ST_PEND_K later ones
 * passed, as pend_limit (not the newest `taken` entries, which a reach event of the range took). */
static void g_limit(st_state_t *g, st_thread_t *gt, uint32_t gtix, uint64_t seq, uint32_t taken) {
    gt->pseq = seq;
    while (gt->pn > taken && seq - 1 - pend_at(gt, pend_at(gt, 0)->head - 1)->seq >= ST_PEND_K) {
        pend_give_up_oldest(g, gt, gtix);
    }
    gt->busy_ns += gt->ctx_child;
    gt->ctx_child = 0;
}

/* The range ring's position of the entry closed as the range's seq-th duration, or -1 when it is no
 * longer there (a pop or a limit settled it). Entries are in seq order. */
static int64_t ring_find(const st_thread_t *lt, uint64_t seq) {
    uint32_t lo = 0, hi = lt->pn;
    while (lo < hi) {
        uint32_t m = (lo + hi) / 2;
        if (pend_at(lt, m)->seq < seq) {
            lo = m + 1;
        } else {
            hi = m;
        }
    }
    return lo < lt->pn && pend_at(lt, lo)->seq == seq ? (int64_t)lo : -1;
}

/* Reach event r of range thread lt, its context's pops applied: on_complete's walk continued in the
 * trace's ring. 0, or CLI_PAR_RERUN when it takes durations but its entry is settled already (a
 * later pop or a limit of the range settled it with the range's child time only). */
static int g_reach(st_state_t *g, st_thread_t *gt, uint32_t gtix, st_thread_t *lt, st_reach_t *r,
                   const uint32_t *nmap) {
    g_limit(g, gt, gtix, lt->gbase + lt->gclosed + r->seq, lt->gtook);
    uint32_t lv = gt->depth;
    if (lv > ST_MAX_DEPTH) {
        return CLI_PAR_RERUN; /* with one range the event is beyond the stack: not measured */
    }
    uint32_t k = gt->pn - lt->gtook;
    int before = 0;
    uint64_t took_ns = 0;
    while (k > 0) {
        const st_pend_t *e = pend_at(gt, k - 1);
        if (e->level != lv) {
            break;
        }
        if (e->start < r->begin || e->end > r->end) {
            if (e->end > r->begin) {
                g->unnested++; /* a partial overlap: not nesting */
            }
            before = 1;
            break;
        }
        uint64_t d = e->end - e->start;
        took_ns += d;
        if (e->pair) {
            /* counted in its enclosing pair (or busy time) when it ended: moved here */
            if (lv) {
                gt->stack[lv - 1].child_ns -= d;
            } else {
                gt->busy_ns -= d;
            }
            g->pairs_in_complete++;
        }
        k -= e->size;
    }
    if (!before && gt->gn > 0) {
        /* and the given-up ones it encloses, as on_complete */
        uint64_t pairs = 0, d = gup_take(g, gt, lv, r->begin, r->end, &pairs, &before);
        if (d) {
            took_ns += d;
            if (lv) {
                gt->stack[lv - 1].child_ns -= d;
            } else {
                gt->busy_ns -= d;
            }
            g->pairs_in_complete += pairs;
        }
    }
    if (!before && !r->counted && r->begin < (lv ? gt->stack[lv - 1].fin : gt->fin0)) {
        g->tree_unnested++; /* it encloses durations the limit gave up (the range counted its own) */
    }
    uint32_t took = gt->pn - lt->gtook - k;
    if (took == 0 && took_ns == 0) {
        return 0;
    }
    /* its self time was measured with the range's children only */
    uint64_t dur = r->end - r->begin, child = r->child + took_ns;
    uint64_t self0 = r->child > dur ? 0 : dur - r->child, self = child > dur ? 0 : dur - child;
    if (r->name && nmap[r->name - 1]) {
        ((st_name_t *)cli_map_at(&g->names, nmap[r->name - 1] - 1, NULL, NULL))->self -= self0 - self;
    }
    if (r->child <= dur && child > dur) {
        g->clamped++;
    }
    if (r->ctx == lt->npops && ring_find(lt, r->seq) >= 0) {
        /* still waiting at the range's end: its block takes them in the trace's ring (g_append) */
        r->took = took;
        r->took_ns = took_ns;
        lt->gtook += took;
        return 0;
    }
    /* The range settled it (a pop, or the limit) with its own children: the ones taken leave the
     * trace's ring with it, their nodes under its node once the range's nodes are merged. */
    if (lt->gtook != 0) {
        return CLI_PAR_RERUN; /* not expected: one it encloses was still waiting */
    }
    if (cli_grow(&g->defs, &g->defcap, g->ndefs + 1, sizeof *g->defs, 4) != 0) {
        return -1;
    }
    uint32_t pcap = 16;
    while (pcap < took) {
        pcap *= 2;
    }
    st_defer_t *d = &g->defs[g->ndefs];
    *d = (st_defer_t){malloc(pcap * sizeof *d->pend), took, pcap, gtix, r->rnode, lv, self0 - self};
    if (d->pend == NULL) {
        return -1;
    }
    g->ndefs++;
    for (uint32_t i = 0; i < took; i++) {
        d->pend[i] = *pend_at(gt, k + i);
    }
    gt->pn -= took;
    return 0;
}

/* After the range's nodes are in the trace (node_map): the deferred children of reach events that
 * the range had settled (g_reach), and their nodes' self time. */
static void g_defer_nodes(st_state_t *g, const uint32_t *node_map) {
    for (size_t i = 0; i < g->ndefs; i++) {
        st_defer_t *d = &g->defs[i];
        uint32_t node = d->rnode ? node_map[d->rnode - 1] : 0;
        if (node) {
            ((st_node_t *)cli_map_at(&g->nodes, node - 1, NULL, NULL))->self -= d->dself;
            st_thread_t ring = {0};
            ring.pend = d->pend;
            ring.pcap = d->pcap;
            ring.pn = d->n;
            for (uint32_t c = d->n; c > 0; c -= pend_at(&ring, c - 1)->size) {
                pend_nodes(g, &ring, d->gtix, c - 1, node, 0, d->level + 2);
            }
        }
        free(d->pend);
    }
    g->ndefs = 0;
}

/* Top-level time since the range's previous pop, then the pop: closes the trace's open frame (what
 * its ring holds inside the frame is settled into it first, and the frame waits there itself). 0,
 * or CLI_PAR_RERUN. */
static int apply_pop(st_state_t *g, st_thread_t *gt, uint32_t gtix, const uint64_t *tkey, st_thread_t *lt,
                     const st_pop_t *pop) {
    give_child(gt, pop->child_ns);
    uint64_t seq = lt->gbase + lt->gclosed + pop->seq;
    g_limit(g, gt, gtix, seq, lt->gtook);
    if (gt->depth == 0) {
        /* an end without a begin: ignored (docs/stats.md), but it settles the top level */
        g_settle_above(g, gt, gtix, 0, PEND_PARENT);
        gt->fin0 = 0;
        return 0;
    }
    g_settle_above(g, gt, gtix, gt->depth, PEND_PARENT);
    gt->depth--;
    st_frame_t f = gt->stack[gt->depth];
    uint64_t dur = pop->end_ns >= f.begin_ns ? pop->end_ns - f.begin_ns : 0;
    close_slice(g, gt, tkey, f.name, f.node, f.begin_ns, dur, f.child_ns, pop->end_off, f.args, NULL);
    /* close_slice gave the duration to the range's top level when the trace has no open frame left. */
    gt->busy_ns += gt->ctx_child;
    gt->ctx_child = 0;
    if (gt->depth < ST_MAX_DEPTH) {
        uint64_t had = gt->pseq;
        pend_pair(g, gt, gtix, f.begin_ns, f.begin_ns + dur, gt->depth);
        lt->gclosed += (uint32_t)(gt->pseq - had);
        gt->busy_ns += gt->ctx_child;
        gt->ctx_child = 0;
    }
    return g->pend_capped ? CLI_PAR_RERUN : 0;
}

/* Applies the range's pops up to `upto`, each context's reach events before the pop that ends it. */
static int advance(st_state_t *g, st_thread_t *gt, uint32_t gtix, const uint64_t *tkey, st_thread_t *lt,
                   uint32_t upto, const uint32_t *nmap) {
    for (;;) {
        while (lt->rapplied < lt->nreach && lt->reach[lt->rapplied].ctx == lt->applied) {
            if (g_reach(g, gt, gtix, lt, &lt->reach[lt->rapplied++], nmap) != 0) {
                return CLI_PAR_RERUN;
            }
        }
        if (lt->applied >= upto || lt->applied >= lt->npops) {
            return 0;
        }
        if (apply_pop(g, gt, gtix, tkey, lt, &lt->pops[lt->applied++]) != 0) {
            return CLI_PAR_RERUN;
        }
    }
}

/* At the range's end (every pop and reach event applied): what still waits in its ring moves to the
 * trace's, after the entries reach events took, which join their blocks. 0, CLI_PAR_RERUN (the ring
 * would pass ST_PEND_CAP) or -1 (out of memory). */
static int g_append(st_state_t *g, st_thread_t *gt, uint32_t gtix, st_thread_t *lt, const uint32_t *nmap) {
    uint64_t off = lt->gbase + lt->gclosed;
    g_limit(g, gt, gtix, off + lt->pseq, lt->gtook);
    if (lt->gn > 0) {
        /* Given up in the range: newer than the trace's, so after them, each level in time order as
         * long as the trace's ring holds nothing of their levels (the limit gave it up). */
        uint32_t lv0 = gt->depth;
        if (gt->pn > 0 && pend_at(gt, gt->pn - 1)->level >= lt->gup[0].level + lv0) {
            return CLI_PAR_RERUN; /* not expected */
        }
        if (gt->gn + lt->gn > gt->gcap) {
            uint32_t ncap = gt->gcap ? gt->gcap : 16;
            while (ncap < gt->gn + lt->gn) {
                ncap *= 2;
            }
            st_gup_t *ng = realloc(gt->gup, ncap * sizeof *ng);
            if (ng == NULL) {
                return -1;
            }
            gt->gup = ng;
            gt->gcap = ncap;
        }
        for (uint32_t i = 0; i < lt->gn; i++) {
            st_gup_t *e = &gt->gup[gt->gn++];
            *e = lt->gup[i];
            e->level += lv0;
        }
    }
    uint32_t n = lt->pn;
    if (n == 0) {
        return 0;
    }
    if (gt->pn + n > gt->pcap) {
        uint32_t ncap = gt->pcap ? gt->pcap : 16;
        while (ncap < gt->pn + n) {
            ncap *= 2;
        }
        if (ncap > ST_PEND_CAP) {
            return CLI_PAR_RERUN;
        }
        st_pend_t *np = malloc(ncap * sizeof *np);
        if (np == NULL) {
            return -1;
        }
        for (uint32_t i = 0; i < gt->pn; i++) {
            np[i] = *pend_at(gt, i);
        }
        free(gt->pend);
        gt->pend = np;
        gt->pcap = ncap;
        gt->phead = 0;
    }
    uint32_t base = gt->pn, lv0 = gt->depth;
    for (uint32_t i = 0; i < n; i++) {
        st_pend_t *e = pend_at(gt, gt->pn++);
        *e = *pend_at(lt, i);
        e->seq += off;
        e->level = (uint16_t)(e->level + lv0);
        e->name = e->name && !e->pair ? nmap[e->name - 1] : 0; /* a pair's is not set */
    }
    /* The reach events that took entries, inner first: each block grows by what it and those inside
     * it took, and starts at the oldest entry taken. */
    uint32_t cum = 0;
    for (uint32_t i = 0; i < lt->nreach; i++) {
        const st_reach_t *r = &lt->reach[i];
        if (r->ctx != lt->npops) {
            continue;
        }
        int64_t at = ring_find(lt, r->seq);
        if (at < 0) {
            continue; /* settled by a limit: it took nothing (g_reach) */
        }
        cum += r->took;
        st_pend_t *e = pend_at(gt, base + (uint32_t)at);
        e->child += r->took_ns; /* given-up durations too (no entries) */
        if (cum == 0) {
            continue;
        }
        e->size = (uint16_t)(e->size + cum);
        st_pend_t *first = pend_at(gt, base + (uint32_t)at + 1 - e->size);
        first->head = e->size > first->head ? e->size : first->head;
    }
    return 0;
}

/* A word at a time, skipping the range's empty words (most: ranges register few indexes). n is a
 * multiple of 8. */
static void merge_bits(uint8_t *gset, const uint8_t *lset, size_t n, uint64_t *rereg) {
    for (size_t i = 0; i < n; i += 8) {
        uint64_t g, l;
        memcpy(&l, lset + i, 8);
        if (l == 0) {
            continue;
        }
        memcpy(&g, gset + i, 8);
        *rereg += (uint64_t)__builtin_popcountll(g & l);
        g |= l;
        memcpy(gset + i, &g, 8);
    }
}

/* A range's indexes in the trace's maps (index + 1 for names and threads; 0: none). */
typedef struct merge_maps {
    uint32_t *names, *threads, *nodes, *counters;
} merge_maps_t;

/* The range's notes of what could not be nested; CLI_PAR_RERUN when the ring overflowed in a
 * range that is not the first (where it was full depends on where the range starts). */
static int merge_notes(st_state_t *g, const st_state_t *l) {
    g->oom |= l->oom;
    g->unnested += l->unnested;
    g->clamped += l->clamped;
    g->pairs_in_complete += l->pairs_in_complete;
    g->tree_unnested += l->tree_unnested;
    g->gup_coalesced |= l->gup_coalesced;
    return g->merged > 0 && (l->pend_capped || l->gup_coalesced) ? CLI_PAR_RERUN : 0;
}

/* Record counts, error messages, inline strings, records by kind, the time span. */
static void merge_totals(st_state_t *g, const st_state_t *l) {
    g->records += l->records;
    g->errors += l->errors;
    for (unsigned i = 0; i < l->nerrmsg && g->nerrmsg < ST_MAX_ERRMSG; i++) {
        memcpy(g->errmsg[g->nerrmsg++], l->errmsg[i], sizeof l->errmsg[i]);
    }
    g->inline_strings += l->inline_strings;
    g->inline_bytes += l->inline_bytes;
    for (int k = 0; k < FXT_KIND_COUNT_; k++) {
        g->kinds[k].count += l->kinds[k].count;
        g->kinds[k].bytes += l->kinds[k].bytes;
    }
    if (l->have_span) {
        g->first_ns = !g->have_span || l->first_ns < g->first_ns ? l->first_ns : g->first_ns;
        g->last_ns = !g->have_span || l->last_ns > g->last_ns ? l->last_ns : g->last_ns;
        g->have_span = 1;
    }
    g->tree_full |= l->tree_full;
}

static int merge_providers(st_state_t *g, const st_state_t *l) {
    for (size_t i = 0; i < l->providers.count; i++) {
        st_prov_t *lp = cli_map_at(&l->providers, i, NULL, NULL);
        st_prov_t *gp = prov_get(g, lp->has_id, lp->id, NULL);
        if (gp == NULL) {
            return CLI_EXIT_LIMIT;
        }
        gp->records += lp->records;
        gp->bytes += lp->bytes;
        gp->events += lp->events;
        gp->overflows += lp->overflows;
        gp->strings += lp->strings;
        gp->threads += lp->threads;
        gp->string_rereg += lp->string_rereg;
        gp->thread_rereg += lp->thread_rereg;
        /* A range's first registration of an index re-registers it if an earlier range did. */
        merge_bits(gp->str_set, lp->str_set, sizeof gp->str_set, &gp->string_rereg);
        merge_bits(gp->thr_set, lp->thr_set, sizeof gp->thr_set, &gp->thread_rereg);
        if (lp->named) {
            memcpy(gp->name, lp->name, sizeof gp->name);
            gp->named = 1;
        }
        if (lp->ticks_set) {
            gp->ticks = lp->ticks;
            gp->ticks_set = 1;
        }
    }
    return 0;
}

static int merge_cats(st_state_t *g, const st_state_t *l) {
    for (size_t i = 0; i < l->cats.count; i++) {
        const char *key;
        size_t kl;
        uint64_t *lc = cli_map_at(&l->cats, i, &key, &kl);
        if (*lc == 0) {
            continue; /* kept from an earlier range (range_reset): in the trace already */
        }
        uint64_t *gc = cli_map_get(&g->cats, key, kl, 1);
        if (gc == NULL) {
            return CLI_EXIT_LIMIT;
        }
        *gc += *lc;
    }
    return 0;
}

/* Room for the maps: the names' kept with the range (pairs it met in an earlier use stay mapped),
 * the others in the trace's buffer. */
static int merge_maps(st_state_t *g, st_range_t *lr, merge_maps_t *m) {
    const st_state_t *l = &lr->s;
    /* Every entry is set before it is read: the buffer needs no clearing (+ 1: never NULL). */
    size_t had = lr->gixcap;
    if (cli_grow(&g->mbuf, &g->mcap, l->threads.count + l->nodes.count + l->counters.count + 1,
                 sizeof *g->mbuf, 256) != 0 ||
        cli_grow(&lr->gix, &lr->gixcap, l->names.count + 1, sizeof *lr->gix, 256) != 0) {
        return CLI_EXIT_LIMIT;
    }
    memset(lr->gix + had, 0, (lr->gixcap - had) * sizeof *lr->gix);
    m->names = lr->gix; /* the pairs the range met are all there once merge_names is done */
    m->threads = g->mbuf;
    m->nodes = m->threads + l->threads.count;
    m->counters = m->nodes + l->nodes.count;
    return 0;
}

/* The pairs in the order the range met them: new ones join the trace in the order they would
 * from a range of fresh state (pairs kept from earlier ranges are in it already). */
static int merge_names(st_state_t *g, const st_range_t *lr, uint32_t *nmap) {
    const st_state_t *l = &lr->s;
    for (size_t k = 0; k < lr->nmet; k++) {
        const char *key;
        size_t kl, i = lr->met[k];
        st_name_t *ln = cli_map_at(&l->names, i, &key, &kl);
        if (nmap[i] == 0 && (nmap[i] = name_ix(&g->names, key, kl)) == 0) {
            return CLI_EXIT_LIMIT;
        }
        st_name_t *gn = cli_map_at(&g->names, nmap[i] - 1, NULL, NULL);
        gn->events += ln->events;
        /* Not the histogram: the range's durations are in its thread's (st_fold). */
        if (ln->ndur) {
            gn->ndur += ln->ndur;
            gn->total += ln->total;
            gn->self += ln->self;
            gn->min = ln->min < gn->min ? ln->min : gn->min;
            gn->max = ln->max > gn->max ? ln->max : gn->max;
        }
    }
    /* Pooling into "(other)" and a full call tree depend on what earlier ranges saw: exact only in one. */
    return g->merged > 0 && (g->names.count >= ST_MAX_NAMES || l->tree_full) ? CLI_PAR_RERUN : 0;
}

static int merge_objects(st_state_t *g, const st_state_t *l) {
    for (size_t i = 0; i < l->objects.count; i++) {
        const char *key;
        size_t kl;
        st_object_t *lo = cli_map_at(&l->objects, i, &key, &kl);
        st_object_t *go = cli_map_get(&g->objects, key, kl, 1);
        if (go == NULL) {
            return CLI_EXIT_LIMIT;
        }
        go->is_thread = lo->is_thread;
        memcpy(go->name, lo->name, sizeof go->name);
        if (lo->has_pid) {
            go->pid = lo->pid;
            go->has_pid = 1;
        }
    }
    return 0;
}

/* Counters, then their series (keyed by the trace's counter index, cmap). */
static int merge_counters(st_state_t *g, const st_state_t *l, uint32_t *cmap) {
    for (size_t i = 0; i < l->counters.count; i++) {
        const char *key;
        size_t kl, gix = 0;
        st_counter_t *lc = cli_map_at(&l->counters, i, &key, &kl);
        st_counter_t *gc = cli_map_get_ix(&g->counters, key, kl, 1, &gix);
        if (gc == NULL) {
            return CLI_EXIT_LIMIT;
        }
        cmap[i] = (uint32_t)gix;
        if (gc->samples == 0) {
            gc->first_ns = lc->first_ns;
        }
        gc->samples += lc->samples;
        gc->last_ns = lc->last_ns;
    }
    for (size_t i = 0; i < l->series.count; i++) {
        const char *key;
        size_t kl;
        st_series_t *ls = cli_map_at(&l->series, i, &key, &kl);
        char *k = g->keybuf + SERIES_KEY_OFF;
        uint64_t c64 = cmap[ls->counter];
        memcpy(k, &c64, 8);
        memcpy(k + 8, key + 8, kl - 8);
        st_series_t *gs = cli_map_get(&g->series, k, kl, 1);
        if (gs == NULL) {
            return CLI_EXIT_LIMIT;
        }
        if (gs->samples == 0) {
            gs->counter = c64;
            gs->min = ls->min;
            gs->max = ls->max;
        }
        gs->samples += ls->samples;
        gs->min = ls->min < gs->min ? ls->min : gs->min;
        gs->max = ls->max > gs->max ? ls->max : gs->max;
        gs->last = ls->last;
    }
    return 0;
}

/* The range's threads in the trace (tmap), with their event counts; CLI_PAR_RERUN where the
 * range's stack or rings together with the trace's would not hold as with one range. */
static int merge_threads(st_state_t *g, st_state_t *l, uint32_t *tmap) {
    for (size_t i = 0; i < l->threads.count; i++) {
        const char *key;
        size_t kl, gix = 0;
        st_thread_t *lt = cli_map_at(&l->threads, i, &key, &kl);
        st_thread_t *gt = cli_map_get_ix(&g->threads, key, kl, 1, &gix);
        if (gt == NULL) {
            return CLI_EXIT_LIMIT;
        }
        tmap[i] = (uint32_t)gix + 1;
        gt->events += lt->events;
        /* Stack limits hold per range: with frames open before it, the sums may pass them. */
        if (gt->depth > 0 && (uint64_t)gt->depth + lt->max_depth > ST_MAX_DEPTH) {
            return CLI_PAR_RERUN;
        }
        /* The trace's ring and the range's together, and the reach events left out, hold as with one
         * range only when there is nothing to share (a bound: the ring never holds more). */
        /* Nor may the given-up durations of both reach ST_GUP_CAP where a read with one thread could
         * have had more (coalesced): both, the range's most, and rings' worth of slack. */
        if (g->merged > 0 &&
            (gt->pn + lt->npops + lt->pcap > ST_PEND_CAP ||
             (lt->reach_over && (gt->pn > 0 || lt->npops > 0)) ||
             (uint64_t)gt->gn + gt->pn + lt->gpeak + lt->npops + lt->pcap + ST_PEND_CAP > ST_GUP_CAP)) {
            return CLI_PAR_RERUN;
        }
        lt->gbase = gt->pseq;
        lt->gclosed = lt->gtook = lt->rapplied = 0;
    }
    return 0;
}

/* Call-tree nodes in the range's order, each after the pops of its thread that came before it. */
static int merge_nodes(st_state_t *g, st_state_t *l, const merge_maps_t *m) {
    for (size_t i = 0; i < l->nodes.count; i++) {
        const char *key;
        st_node_t *ln = cli_map_at(&l->nodes, i, &key, NULL);
        st_node_key_t k;
        memcpy(&k, key, sizeof k);
        const char *tkey;
        st_thread_t *lt = cli_map_at(&l->threads, k.thread - 1, &tkey, NULL);
        st_thread_t *gt = cli_map_at(&g->threads, m->threads[k.thread - 1] - 1, NULL, NULL);
        uint32_t gparent;
        if (k.parent) {
            gparent = m->nodes[k.parent - 1];
        } else {
            uint64_t tk[3];
            memcpy(tk, tkey, sizeof tk);
            if (advance(g, gt, m->threads[k.thread - 1], tk, lt, k.ctx, m->names) != 0) {
                return CLI_PAR_RERUN;
            }
            gparent = gt->depth ? gt->stack[gt->depth - 1].node : 0;
        }
        m->nodes[i] = k.parent && gparent == 0
                          ? 0
                          : node_ix(g, m->threads[k.thread - 1], gparent, 0, m->names[k.name - 1]);
        if (m->nodes[i]) {
            st_node_t *gn = cli_map_at(&g->nodes, m->nodes[i] - 1, NULL, NULL);
            gn->total += ln->total;
            gn->self += ln->self;
            gn->count += ln->count;
        }
    }
    return 0;
}

/* Frames still open at the range's end stay open in the trace. */
static int merge_open_frames(st_thread_t *gt, const st_thread_t *lt, const merge_maps_t *m) {
    uint32_t stored = lt->depth < ST_MAX_DEPTH ? lt->depth : ST_MAX_DEPTH;
    for (uint32_t d = 0; d < stored; d++) {
        if (push_frame(gt) != 0) {
            return CLI_EXIT_LIMIT;
        }
        st_frame_t *f = &gt->stack[gt->depth];
        *f = lt->stack[d];
        f->name = f->name ? m->names[f->name - 1] : 0;
        f->node = f->node ? m->nodes[f->node - 1] : 0;
        gt->depth++;
    }
    gt->depth += lt->depth - stored;
    gt->max_depth = gt->depth > gt->max_depth ? gt->depth : gt->max_depth;
    return 0;
}

/* Each thread's stack at the range's end: its last pops, what waits for an enclosing complete
 * event, its open frames. */
static int merge_stacks(st_state_t *g, st_state_t *l, const merge_maps_t *m) {
    for (size_t i = 0; i < l->threads.count; i++) {
        const char *key;
        st_thread_t *lt = cli_map_at(&l->threads, i, &key, NULL);
        st_thread_t *gt = cli_map_at(&g->threads, m->threads[i] - 1, NULL, NULL);
        uint64_t tk[3];
        memcpy(tk, key, sizeof tk);
        if (advance(g, gt, m->threads[i], tk, lt, lt->npops, m->names) != 0) {
            return CLI_PAR_RERUN;
        }
        give_child(gt, lt->ctx_child);
        /* What still waits for an enclosing complete event waits in the trace (nesting across ranges) */
        int arc = g_append(g, gt, m->threads[i], lt, m->names);
        if (arc != 0) {
            return arc < 0 ? CLI_EXIT_LIMIT : CLI_PAR_RERUN;
        }
        int frc = merge_open_frames(gt, lt, m);
        if (frc != 0) {
            return frc;
        }
    }
    return 0;
}

static void merge_slowest(st_state_t *g, const st_state_t *l, const uint32_t *nmap) {
    for (unsigned i = 0; i < l->nslow; i++) {
        const st_slow_t *ls = &l->slow[i];
        st_slow_t *gs = slow_slot(g, ls->dur, ls->ts, ls->end_off);
        if (gs) {
            uint32_t name = ls->name ? nmap[ls->name - 1] : 0;
            *gs = *ls;
            gs->name = name;
        }
    }
}

/* Per CPU the thread running at the range's end; on-cpu time across the boundary, then the range's. */
static int merge_cpus(st_state_t *g, const st_state_t *l) {
    for (size_t i = 0; i < l->cpus.count; i++) {
        const char *key;
        size_t kl;
        st_cpu_t *lc = cli_map_at(&l->cpus, i, &key, &kl);
        st_cpu_t *gc = cli_map_get(&g->cpus, key, kl, 1);
        if (gc == NULL) {
            return CLI_EXIT_LIMIT;
        }
        if (lc->have_first && gc->running) {
            uint64_t *t = cli_map_get_u64(&g->oncpu, gc->tid, 0, 1);
            if (t) {
                *t += lc->first_ns >= gc->since_ns ? lc->first_ns - gc->since_ns : 0;
            }
            gc->since_ns = lc->first_ns > gc->since_ns ? lc->first_ns : gc->since_ns;
        }
        if (!gc->running && !gc->have_first) {
            gc->have_first = lc->have_first;
            gc->first_ns = lc->first_ns;
        }
        if (lc->running) { /* else the range had only wakeups on it: the same thread runs */
            gc->running = 1;
            gc->tid = lc->tid;
            gc->since_ns = lc->since_ns;
        }
    }
    for (size_t i = 0; i < l->oncpu.count; i++) {
        const char *key;
        size_t kl;
        uint64_t *lv = cli_map_at(&l->oncpu, i, &key, &kl);
        uint64_t *gv = cli_map_get(&g->oncpu, key, kl, 1);
        if (gv == NULL) {
            return CLI_EXIT_LIMIT;
        }
        *gv += *lv;
    }
    return 0;
}

/* The range's call-tree part: its names, objects, counters, threads, nodes and stacks, in that
 * order (each step maps the range's indexes the next ones use). 0, CLI_PAR_RERUN or CLI_EXIT_LIMIT. */
static int merge_tree(st_state_t *g, st_range_t *lr) {
    st_state_t *l = &lr->s;
    merge_maps_t m;
    int rc = merge_maps(g, lr, &m);
    rc = rc ? rc : merge_names(g, lr, m.names);
    rc = rc ? rc : merge_objects(g, l);
    rc = rc ? rc : merge_counters(g, l, m.counters);
    rc = rc ? rc : merge_threads(g, l, m.threads);
    rc = rc ? rc : merge_nodes(g, l, &m);
    rc = rc ? rc : merge_stacks(g, l, &m);
    if (rc == 0) {
        g_defer_nodes(g, m.nodes);
        merge_slowest(g, l, m.names);
    }
    return rc;
}

int st_merge(st_state_t *g, st_state_t *l) {
    st_range_t *lr = (st_range_t *)l; /* l is the first member of its st_range_t */
    flush_events(lr);
    int rc = merge_notes(g, l);
    if (rc != 0) {
        return rc;
    }
    merge_totals(g, l);
    rc = merge_providers(g, l);
    rc = rc ? rc : merge_cats(g, l);
    rc = rc ? rc : merge_tree(g, lr);
    rc = rc ? rc : merge_cpus(g, l);
    if (rc != 0) {
        return rc;
    }
    /* Which paths a full tree leaves out must not depend on the split either. */
    if (g->merged > 0 && g->tree_full) {
        return CLI_PAR_RERUN;
    }
    g->merged++;
    if (g->top && g->nslow == g->top) {
        __atomic_store_n(&g->range_floor, g->slow_floor, __ATOMIC_RELAXED);
    }
    return 0;
}

int st_settle(st_state_t *g) {
    int full = g->tree_full;
    for (size_t i = 0; i < g->threads.count; i++) {
        st_thread_t *gt = cli_map_at(&g->threads, i, NULL, NULL);
        g_settle_above(g, gt, (uint32_t)i + 1, 0, PEND_RANGE);
    }
    /* which paths a full tree leaves out depends on the order nodes are made */
    return !full && g->tree_full && g->merged > 1 ? CLI_PAR_RERUN : 0;
}

int st_fold(st_state_t *g) {
    int rc = 0;
    while (g->accs) {
        st_acc_t *a = g->accs;
        for (size_t i = 0; i < a->hists.count && rc == 0; i++) {
            const char *key;
            size_t kl;
            st_hist_t **lh = cli_map_at(&a->hists, i, &key, &kl);
            st_hist_t *l = *lh;
            if (l == NULL || l->rows == NULL) {
                continue; /* no durations */
            }
            /* Every range is merged: the pair is in the trace (or pooled as the merge pooled it). */
            uint32_t ix = name_ix(&g->names, key, kl);
            st_name_t *gn = ix ? cli_map_at(&g->names, ix - 1, NULL, NULL) : NULL;
            if (gn != NULL && gn->hist == NULL) {
                /* The first histogram of the pair (all of them with one thread): taken, not copied. */
                gn->hist = l->rows;
                gn->hlo = l->lo;
                gn->hrows = l->nrows;
                l->rows = NULL;
                continue;
            }
            if (gn == NULL || name_fit(gn, l->lo, l->lo + l->nrows - 1u) != 0) {
                rc = CLI_EXIT_LIMIT;
                break;
            }
            uint32_t *gh = gn->hist + 16u * (l->lo - gn->hlo);
            for (unsigned b = 0; b < 16u * l->nrows; b++) {
                gh[b] += l->rows[b];
            }
        }
        g->accs = a->next;
        acc_free(a);
    }
    return rc;
}
