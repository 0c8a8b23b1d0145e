/* SPDX-License-Identifier: MIT */
/*
 * fxt stats: a summary of a trace in one streaming pass. Memory grows with
 * the number of distinct providers, threads, (category, name) pairs and
 * counters, never with the number of events: duration percentiles come from a
 * log-linear histogram (16 sub-buckets per power of two: within 6.25%).
 */
#include <fxt/reader.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_json.h"
#include "cli_map.h"
#include "cli_trace.h"

/* 16 exact buckets for 0..15 ns, then 16 per power of two for exponents 4..63 (docs/stats.md). */
#define HBUCKETS (16 + 60 * 16)
/* Open durations tracked per thread; deeper ones are counted but not measured (docs/stats.md). */
#define MAX_DEPTH 256
#define MAX_NAMES 200000 /* distinct (category, name) pairs kept apart; the rest pool in "(other)" */

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

typedef struct name_stat {
    uint64_t count; /* events of this (category, name) */
    uint64_t ndur;  /* durations measured */
    uint64_t total, min, max;
    uint32_t *hist; /* HBUCKETS, allocated on the first duration */
} name_stat_t;

typedef struct kind_stat {
    uint64_t count, bytes;
} kind_stat_t;

typedef struct prov_stat {
    uint32_t id;
    int has_id;
    char name[256];
    uint64_t records, bytes, events, overflows, ticks;
    uint64_t strings, string_rereg, threads, thread_rereg;
    /* String indexes are 15 bits (spec: String record), thread indexes 8 bits: 32768 and 256 bits. */
    uint8_t str_set[4096]; /* bitmap of registered string indexes */
    uint8_t thr_set[32];
} prov_stat_t;

typedef struct thr_stat {
    uint64_t events;
    uint32_t depth;
    uint64_t begin_ns[MAX_DEPTH];
    uint32_t begin_name[MAX_DEPTH]; /* index into names + 1, 0 = none */
} thr_stat_t;

typedef struct counter_stat {
    uint64_t samples;
    uint64_t first_ns, last_ns;
} counter_stat_t;

/* One series of a counter (an argument name): numeric values as doubles
 * (64-bit integers beyond 2^53 are rounded). */
typedef struct series_stat {
    uint64_t counter; /* index of the counter in `counters` */
    uint64_t samples;
    double min, max, last;
} series_stat_t;

/* Series keys are built in keybuf past the longest counter key (two strings of up to
 * 0x7fff bytes, their NULs and the 8-byte id), so the two never overlap. */
#define SERIES_KEY_OFF (2 * (FXT_MAX_INLINE_STRING_LEN + 2) + 16)

typedef struct obj_name {
    uint64_t pid; /* process koid for threads, 0 for processes */
    char name[128];
    int is_thread;
} obj_name_t;

typedef struct sctx {
    int json;
    unsigned top;
    uint64_t records, errors, inline_strings, inline_bytes;
    kind_stat_t kinds[FXT_KIND_COUNT_];
    cli_map_t providers; /* (has_id, id) -> prov_stat_t */
    cli_map_t threads;   /* (provider, pid, tid) -> thr_stat_t */
    cli_map_t names;     /* category \0 name -> name_stat_t */
    cli_map_t cats;      /* category -> uint64 count */
    cli_map_t counters;  /* category \0 name \0 id -> counter_stat_t */
    cli_map_t series;    /* counter index, argument name -> series_stat_t */
    cli_map_t objects;   /* koid -> obj_name_t */
    int have_span;
    uint64_t first_ns, last_ns;
    char *keybuf;
} sctx_t;

/* The current provider's stats, created on first sight with the default 1 tick = 1 ns (spec-notes). */
static prov_stat_t *cur_prov(sctx_t *s, const fxt_record_t *rec) {
    prov_stat_t *p = cli_map_get_u64(&s->providers, (uint64_t)rec->has_provider, rec->provider, 1);
    if (p && p->records == 0 && !p->has_id) {
        p->id = rec->provider;
        p->has_id = rec->has_provider;
        p->ticks = 1000000000u;
    }
    return p;
}

/* key = category \0 name (unresolved strings are "?") */
static size_t name_key(sctx_t *s, fxt_str_t cat, fxt_str_t name) {
    size_t n = 0;
    const fxt_str_t *parts[2] = {&cat, &name};
    for (int k = 0; k < 2; k++) {
        const char *p = parts[k]->unresolved ? "?" : parts[k]->ptr;
        size_t l = parts[k]->unresolved ? 1 : parts[k]->len;
        if (l) {
            memcpy(s->keybuf + n, p, l);
        }
        n += l;
        s->keybuf[n++] = '\0';
    }
    return n;
}

/* The stats of (category, name), or of "(other)" once MAX_NAMES pairs exist: bounds memory
 * against adversarial traces (docs/stats.md). index gets the map index + 1 (0 = none). */
static name_stat_t *name_stat(sctx_t *s, fxt_str_t cat, fxt_str_t name, uint32_t *index) {
    size_t n = name_key(s, cat, name), ix = 0;
    name_stat_t *ns = cli_map_get_ix(&s->names, s->keybuf, n, 0, &ix);
    if (ns == NULL) {
        if (s->names.count >= MAX_NAMES) {
            static const char other[] = "(other)\0(other)";
            ns = cli_map_get_ix(&s->names, other, sizeof other, 1, &ix);
        } else {
            ns = cli_map_get_ix(&s->names, s->keybuf, n, 1, &ix);
        }
    }
    if (index) {
        *index = ns ? (uint32_t)ix + 1 : 0;
    }
    return ns;
}

/* The histogram is allocated on the first duration: most pairs (instants, counters) never need it. */
static void add_duration(name_stat_t *ns, uint64_t d) {
    if (ns->hist == NULL) {
        ns->hist = calloc(HBUCKETS, sizeof *ns->hist);
        if (ns->hist == NULL) {
            return;
        }
        /* min starts high so the first duration sets it; without memory the duration is not counted. */
        ns->min = UINT64_MAX;
    }
    ns->ndur++;
    ns->total += d;
    ns->min = d < ns->min ? d : ns->min;
    ns->max = d > ns->max ? d : ns->max;
    ns->hist[hbucket(d)]++;
}

/* The lower bound of the bucket holding rank floor(q * n), clamped to [min, max] (docs/stats.md). */
static uint64_t percentile(const name_stat_t *ns, double q) {
    uint64_t target = (uint64_t)((double)ns->ndur * q);
    if (target >= ns->ndur) {
        target = ns->ndur - 1;
    }
    uint64_t seen = 0;
    for (unsigned b = 0; b < HBUCKETS; b++) {
        seen += ns->hist[b];
        if (seen > target) {
            uint64_t v = hbucket_low(b);
            return v < ns->min ? ns->min : v > ns->max ? ns->max : v;
        }
    }
    return ns->max;
}

/* Span, category and name counts, per-thread duration matching and counter series of one event. */
static void on_event(sctx_t *s, fxt_reader_t *r, const fxt_record_t *rec, prov_stat_t *p) {
    uint64_t tps = fxt_reader_ticks_per_second(r);
    uint64_t ns = cli_ticks_to_ns(rec->u.event.ts, tps);
    p->events++;
    if (!s->have_span) {
        s->have_span = 1;
        s->first_ns = s->last_ns = ns;
    }
    s->first_ns = ns < s->first_ns ? ns : s->first_ns;
    s->last_ns = ns > s->last_ns ? ns : s->last_ns;
    const fxt_str_t *cat = &rec->u.event.category, *name = &rec->u.event.name;
    if (fxt_strref_is_inline(cat->ref)) {
        s->inline_strings++;
        s->inline_bytes += cat->len;
    }
    if (fxt_strref_is_inline(name->ref)) {
        s->inline_strings++;
        s->inline_bytes += name->len;
    }
    uint64_t *cc = cli_map_get(&s->cats, cat->unresolved ? "?" : cat->ptr, cat->unresolved ? 1 : cat->len, 1);
    if (cc) {
        (*cc)++;
    }
    uint32_t idx = 0;
    /* Only a begin needs its pair's index: its end may carry other strings. */
    int want_index = rec->u.event.type == FXT_EVENT_DURATION_BEGIN;
    name_stat_t *nst = name_stat(s, *cat, *name, want_index ? &idx : NULL);
    if (nst) {
        nst->count++;
    }
    const fxt_thread_ref_t *t = &rec->u.event.thread;
    /* Per provider: thread state belongs to the provider section (spec-notes). */
    uint64_t key[3] = {rec->provider, t->pid, t->tid};
    thr_stat_t *ts = cli_map_get(&s->threads, key, sizeof key, 1);
    if (ts) {
        ts->events++;
    }
    switch (rec->u.event.type) {
    case FXT_EVENT_DURATION_BEGIN:
        if (ts && ts->depth < MAX_DEPTH) {
            ts->begin_ns[ts->depth] = ns;
            ts->begin_name[ts->depth] = idx;
        }
        if (ts) {
            ts->depth++;
        }
        break;
    /* An end with no open begin is ignored (docs/stats.md). */
    case FXT_EVENT_DURATION_END:
        if (ts && ts->depth > 0) {
            ts->depth--;
            if (ts->depth < MAX_DEPTH) {
                /* the duration belongs to the begin's (category, name) */
                name_stat_t *b = ts->begin_name[ts->depth]
                                     ? cli_map_at(&s->names, ts->begin_name[ts->depth] - 1, NULL, NULL)
                                     : nst;
                if (b) {
                    /* Clamped at 0: an end before its begin must not wrap around. */
                    add_duration(b, ns >= ts->begin_ns[ts->depth] ? ns - ts->begin_ns[ts->depth] : 0);
                }
            }
        }
        break;
    case FXT_EVENT_DURATION_COMPLETE: {
        uint64_t end = cli_ticks_to_ns(rec->u.event.end_ts, tps);
        if (nst) {
            /* The extra word is the end timestamp, not a duration (spec-notes); clamped like pairs. */
            add_duration(nst, end >= ns ? end - ns : 0);
        }
        /* The span includes the end of duration complete events (docs/stats.md). */
        s->last_ns = end > s->last_ns ? end : s->last_ns;
        break;
    }
    case FXT_EVENT_COUNTER: {
        size_t n = name_key(s, *cat, *name);
        /* A counter is identified by (category, name, id): the id tells series of one name apart. */
        memcpy(s->keybuf + n, &rec->u.event.id, 8);
        size_t cix = 0;
        counter_stat_t *c = cli_map_get_ix(&s->counters, s->keybuf, n + 8, 1, &cix);
        if (c) {
            if (c->samples++ == 0) {
                c->first_ns = ns;
            }
            c->last_ns = ns;
            for (unsigned i = 0; i < rec->nargs; i++) {
                const fxt_arg_t *a = &rec->args[i];
                double v;
                switch (a->type) {
                case FXT_ARG_INT32:
                    v = a->v.i32;
                    break;
                case FXT_ARG_UINT32:
                    v = a->v.u32;
                    break;
                /* 64-bit integers beyond 2^53 are rounded as doubles (docs/stats.md). */
                case FXT_ARG_INT64:
                    v = (double)a->v.i64;
                    break;
                case FXT_ARG_UINT64:
                    v = (double)a->v.u64;
                    break;
                case FXT_ARG_DOUBLE:
                    v = a->v.f64;
                    break;
                default:
                    continue; /* not a numeric series */
                }
                char *k = s->keybuf + SERIES_KEY_OFF;
                uint64_t c64 = cix;
                size_t nl = a->name.ptr ? a->name.len : 0;
                memcpy(k, &c64, 8);
                if (nl) {
                    memcpy(k + 8, a->name.ptr, nl);
                }
                series_stat_t *se = cli_map_get(&s->series, k, 8 + nl, 1);
                if (se == NULL) {
                    continue;
                }
                if (se->samples++ == 0) {
                    se->counter = cix;
                    se->min = se->max = v;
                }
                se->min = v < se->min ? v : se->min;
                se->max = v > se->max ? v : se->max;
                se->last = v;
            }
        }
        break;
    }
    default:
        break;
    }
}

/* Per-kind and per-provider record counts, then the kinds that feed the summary. */
static int on_record(void *ctx, fxt_reader_t *r, const fxt_record_t *rec) {
    sctx_t *s = ctx;
    s->records++;
    s->kinds[rec->kind].count++;
    s->kinds[rec->kind].bytes += rec->size;
    prov_stat_t *p = cur_prov(s, rec);
    /* Out of memory for the provider's entry: the record is counted only globally. */
    if (p == NULL) {
        return 0;
    }
    p->records++;
    p->bytes += rec->size;
    switch (rec->kind) {
    case FXT_KIND_PROVIDER_INFO:
        /* The name length is 8 bits (spec: Provider info metadata): it always fits. */
        snprintf(p->name, sizeof p->name, "%.*s", (int)rec->u.provider_info.name.len,
                 rec->u.provider_info.name.ptr);
        break;
    case FXT_KIND_PROVIDER_EVENT:
        if (rec->u.provider_event.event == FXT_PROVIDER_EVENT_BUFFER_FULL) {
            p->overflows++;
        }
        break;
    case FXT_KIND_INIT:
        p->ticks = rec->u.init.ticks_per_second;
        break;
    case FXT_KIND_STRING: {
        uint16_t i = rec->u.string.index;
        p->strings++;
        /* Re-registration replaces the earlier string (spec-notes); counted as a hint of slot recycling. */
        if (p->str_set[i >> 3] & (1u << (i & 7))) {
            p->string_rereg++;
        }
        p->str_set[i >> 3] |= (uint8_t)(1u << (i & 7));
        break;
    }
    case FXT_KIND_THREAD: {
        uint8_t i = rec->u.thread.index;
        p->threads++;
        if (p->thr_set[i >> 3] & (1u << (i & 7))) {
            p->thread_rereg++;
        }
        p->thr_set[i >> 3] |= (uint8_t)(1u << (i & 7));
        break;
    }
    case FXT_KIND_EVENT:
        on_event(s, r, rec, p);
        break;
    case FXT_KIND_KERNEL_OBJECT: {
        uint32_t ot = rec->u.kernel_object.obj_type;
        if ((ot == FXT_OBJ_PROCESS || ot == FXT_OBJ_THREAD) && !rec->u.kernel_object.name.unresolved) {
            obj_name_t *o = cli_map_get_u64(&s->objects, rec->u.kernel_object.koid, ot, 1);
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
                    }
                }
            }
        }
        break;
    }
    default:
        break;
    }
    return 0;
}

/* Damaged records are skipped and counted; the first 10 are reported. */
static void on_error(void *ctx, fxt_reader_t *r, const fxt_diag_t *d) {
    sctx_t *s = ctx;
    (void)r;
    s->errors++;
    if (s->errors <= 10) {
        fprintf(stderr, "fxt stats: offset %" PRIu64 ": %s\n", d->offset, d->msg);
    }
}

/* ---- output --------------------------------------------------------------------------- */

static cli_map_t *sort_map; /* qsort has no context argument */

/* qsort order: largest total duration first, then most events, then first seen. */
static int cmp_names(const void *a, const void *b) {
    size_t ia = *(const size_t *)a, ib = *(const size_t *)b;
    const name_stat_t *x = cli_map_at(sort_map, ia, NULL, NULL);
    const name_stat_t *y = cli_map_at(sort_map, ib, NULL, NULL);
    if (x->total != y->total) {
        return x->total < y->total ? 1 : -1;
    }
    if (x->count != y->count) {
        return x->count < y->count ? 1 : -1;
    }
    return ia < ib ? -1 : 1; /* first seen first: deterministic */
}

/* insertion-order indexes sorted by total duration, then count */
static size_t *sorted_names(cli_map_t *m) {
    size_t *ix = malloc((m->count ? m->count : 1) * sizeof *ix);
    if (ix == NULL) {
        return NULL;
    }
    for (size_t i = 0; i < m->count; i++) {
        ix[i] = i;
    }
    sort_map = m;
    qsort(ix, m->count, sizeof *ix, cmp_names);
    return ix;
}

/* The human-readable summary; the tables are limited to --top rows. */
static void print_text(sctx_t *s, uint64_t bytes) {
    printf("size: %" PRIu64 " bytes, %" PRIu64 " records", bytes, s->records);
    if (s->errors) {
        printf(", %" PRIu64 " damaged", s->errors);
    }
    printf("\n");
    if (s->have_span) {
        printf("time span: %" PRIu64 " ns (", s->last_ns - s->first_ns);
        cli_print_us(stdout, s->first_ns);
        printf(" us .. ");
        cli_print_us(stdout, s->last_ns);
        printf(" us)\n");
    }
    printf("\nrecords by kind:\n");
    for (int k = 0; k < FXT_KIND_COUNT_; k++) {
        if (s->kinds[k].count) {
            printf("  %-22s %12" PRIu64 " %14" PRIu64 " bytes\n", fxt_record_kind_name((fxt_record_kind)k),
                   s->kinds[k].count, s->kinds[k].bytes);
        }
    }
    printf("\nproviders:\n");
    for (size_t i = 0; i < s->providers.count; i++) {
        prov_stat_t *p = cli_map_at(&s->providers, i, NULL, NULL);
        if (p->has_id) {
            printf("  %-10" PRIu32 " %-24s", p->id, p->name[0] ? p->name : "(unnamed)");
        } else {
            printf("  %-10s %-24s", "-", "(before any provider)");
        }
        printf(" %10" PRIu64 " records %10" PRIu64 " events, %" PRIu64 " ticks/s, strings %" PRIu64
               " (%" PRIu64 " re-registered), threads %" PRIu64 " (%" PRIu64 " re-registered)",
               p->records, p->events, p->ticks, p->strings, p->string_rereg, p->threads, p->thread_rereg);
        if (p->overflows) {
            printf(", DROPPED RECORDS: %" PRIu64 " buffer-full reports", p->overflows);
        }
        printf("\n");
    }
    printf("\nprocesses and threads (%zu threads with events):\n", s->threads.count);
    for (size_t i = 0; i < s->objects.count; i++) {
        const char *key;
        obj_name_t *o = cli_map_at(&s->objects, i, &key, NULL);
        uint64_t k[2];
        memcpy(k, key, sizeof k);
        if (o->is_thread) {
            printf("  thread  %" PRIu64 " (process %" PRIu64 "): %s\n", k[0], o->pid, o->name);
        } else {
            printf("  process %" PRIu64 ": %s\n", k[0], o->name);
        }
    }
    printf("\nevents by category:\n");
    for (size_t i = 0; i < s->cats.count; i++) {
        const char *key;
        size_t kl;
        uint64_t *c = cli_map_at(&s->cats, i, &key, &kl);
        printf("  %-32.*s %12" PRIu64 "\n", (int)kl, key, *c);
    }
    size_t *ix = sorted_names(&s->names);
    printf("\ntop (category, name) by total duration (durations in ns; percentiles within 6.25%%):\n");
    printf("  %-20s %-28s %10s %14s %10s %10s %10s %10s %10s %10s\n", "category", "name", "count", "total",
           "min", "mean", "p50", "p90", "p99", "max");
    /* Without memory for the order (ix NULL), the table is left out rather than printed unsorted. */
    for (size_t i = 0; ix && i < s->names.count && i < s->top; i++) {
        const char *key;
        size_t kl;
        name_stat_t *n = cli_map_at(&s->names, ix[i], &key, &kl);
        const char *nm = key + strlen(key) + 1;
        printf("  %-20.20s %-28.28s %10" PRIu64, key, nm, n->count);
        if (n->ndur) {
            printf(" %14" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64
                   " %10" PRIu64 "\n",
                   n->total, n->min, n->total / n->ndur, percentile(n, 0.5), percentile(n, 0.9),
                   percentile(n, 0.99), n->max);
        } else {
            printf(" %14s\n", "-");
        }
    }
    free(ix);
    if (s->counters.count) {
        printf("\ncounters:\n");
        for (size_t i = 0; i < s->counters.count && i < s->top; i++) {
            const char *key;
            size_t kl;
            counter_stat_t *c = cli_map_at(&s->counters, i, &key, &kl);
            uint64_t id;
            memcpy(&id, key + kl - 8, 8);
            printf("  %s/%s id %" PRIu64 ": %" PRIu64 " samples\n", key, key + strlen(key) + 1, id,
                   c->samples);
            for (size_t k = 0; k < s->series.count; k++) {
                const char *skey;
                size_t skl;
                series_stat_t *se = cli_map_at(&s->series, k, &skey, &skl);
                if (se->counter == i) {
                    printf("    %-24.*s %10" PRIu64 " samples  min %.17g  max %.17g  last %.17g\n",
                           (int)(skl - 8), skey + 8, se->samples, se->min, se->max, se->last);
                }
            }
        }
    }
    printf("\ninline strings in events: %" PRIu64 " (%" PRIu64 " bytes)\n", s->inline_strings,
           s->inline_bytes);
}

static void json_key_str(const char *k, const char *v, size_t n) {
    printf("\"%s\":", k);
    cli_json_str(stdout, v, n);
}

/* The same summary as one JSON object (schema in docs/stats.md). */
static void print_json(sctx_t *s, uint64_t bytes) {
    printf("{\"bytes\":%" PRIu64 ",\"records\":%" PRIu64 ",\"errors\":%" PRIu64, bytes, s->records,
           s->errors);
    if (s->have_span) {
        printf(",\"first_ns\":%" PRIu64 ",\"last_ns\":%" PRIu64 ",\"span_ns\":%" PRIu64, s->first_ns,
               s->last_ns, s->last_ns - s->first_ns);
    }
    printf(",\"kinds\":{");
    int first = 1;
    for (int k = 0; k < FXT_KIND_COUNT_; k++) {
        if (s->kinds[k].count) {
            printf("%s\"%s\":{\"count\":%" PRIu64 ",\"bytes\":%" PRIu64 "}", first ? "" : ",",
                   fxt_record_kind_name((fxt_record_kind)k), s->kinds[k].count, s->kinds[k].bytes);
            first = 0;
        }
    }
    printf("},\"providers\":[");
    for (size_t i = 0; i < s->providers.count; i++) {
        prov_stat_t *p = cli_map_at(&s->providers, i, NULL, NULL);
        printf("%s{\"id\":", i ? "," : "");
        if (p->has_id) {
            printf("%" PRIu32 ",", p->id);
        } else {
            printf("null,");
        }
        json_key_str("name", p->name, strlen(p->name));
        printf(",\"records\":%" PRIu64 ",\"events\":%" PRIu64 ",\"ticks_per_second\":%" PRIu64
               ",\"string_records\":%" PRIu64 ",\"string_reregistrations\":%" PRIu64
               ",\"thread_records\":%" PRIu64 ",\"thread_reregistrations\":%" PRIu64
               ",\"buffer_full_reports\":%" PRIu64 "}",
               p->records, p->events, p->ticks, p->strings, p->string_rereg, p->threads, p->thread_rereg,
               p->overflows);
    }
    printf("],\"objects\":[");
    for (size_t i = 0; i < s->objects.count; i++) {
        const char *key;
        obj_name_t *o = cli_map_at(&s->objects, i, &key, NULL);
        uint64_t k[2];
        memcpy(k, key, sizeof k);
        printf("%s{\"type\":\"%s\",\"koid\":%" PRIu64 ",", i ? "," : "", o->is_thread ? "thread" : "process",
               k[0]);
        if (o->is_thread) {
            printf("\"process\":%" PRIu64 ",", o->pid);
        }
        json_key_str("name", o->name, strlen(o->name));
        printf("}");
    }
    printf("],\"threads_with_events\":%zu,\"categories\":{", s->threads.count);
    for (size_t i = 0; i < s->cats.count; i++) {
        const char *key;
        size_t kl;
        uint64_t *c = cli_map_at(&s->cats, i, &key, &kl);
        printf("%s", i ? "," : "");
        cli_json_str(stdout, key, kl);
        printf(":%" PRIu64, *c);
    }
    printf("},\"names\":[");
    size_t *ix = sorted_names(&s->names);
    for (size_t i = 0; ix && i < s->names.count && i < s->top; i++) {
        const char *key;
        name_stat_t *n = cli_map_at(&s->names, ix[i], &key, NULL);
        const char *nm = key + strlen(key) + 1;
        printf("%s{", i ? "," : "");
        json_key_str("category", key, strlen(key));
        printf(",");
        json_key_str("name", nm, strlen(nm));
        printf(",\"count\":%" PRIu64 ",\"durations\":%" PRIu64, n->count, n->ndur);
        if (n->ndur) {
            printf(",\"total_ns\":%" PRIu64 ",\"min_ns\":%" PRIu64 ",\"mean_ns\":%" PRIu64
                   ",\"p50_ns\":%" PRIu64 ",\"p90_ns\":%" PRIu64 ",\"p99_ns\":%" PRIu64
                   ",\"max_ns\":%" PRIu64,
                   n->total, n->min, n->total / n->ndur, percentile(n, 0.5), percentile(n, 0.9),
                   percentile(n, 0.99), n->max);
        }
        printf("}");
    }
    free(ix);
    printf("],\"counters\":[");
    for (size_t i = 0; i < s->counters.count && i < s->top; i++) {
        const char *key;
        size_t kl;
        counter_stat_t *c = cli_map_at(&s->counters, i, &key, &kl);
        uint64_t id;
        memcpy(&id, key + kl - 8, 8);
        printf("%s{", i ? "," : "");
        json_key_str("category", key, strlen(key));
        printf(",");
        json_key_str("name", key + strlen(key) + 1, strlen(key + strlen(key) + 1));
        printf(",\"id\":%" PRIu64 ",\"samples\":%" PRIu64 ",\"series\":[", id, c->samples);
        int sfirst = 1;
        for (size_t k = 0; k < s->series.count; k++) {
            const char *skey;
            size_t skl;
            series_stat_t *se = cli_map_at(&s->series, k, &skey, &skl);
            if (se->counter != i) {
                continue;
            }
            printf("%s{", sfirst ? "" : ",");
            sfirst = 0;
            json_key_str("name", skey + 8, skl - 8);
            printf(",\"samples\":%" PRIu64 ",\"min\":", se->samples);
            cli_json_double(stdout, se->min);
            printf(",\"max\":");
            cli_json_double(stdout, se->max);
            printf(",\"last\":");
            cli_json_double(stdout, se->last);
            printf("}");
        }
        printf("]}");
    }
    printf("],\"inline_strings\":%" PRIu64 ",\"inline_string_bytes\":%" PRIu64 "}\n", s->inline_strings,
           s->inline_bytes);
}

/* ---- command ------------------------------------------------------------------------ */

typedef struct stats_config {
    const char *in;
    int json;
    unsigned top;
} stats_config_t;

static const stats_config_t stats_defaults = {NULL, 0, 20};

static const cli_opt_t stats_opts[] = {
    CLI_FLAG(stats_config_t, json, "json", 0, "one JSON object instead of text"),
    CLI_UINT(stats_config_t, top, unsigned, "top", 0, 0, "N",
             "rows of the (category, name) and counter tables (default 20)"),
};

static const cli_spec_t stats_spec = {
    "stats",
    stats_opts,
    sizeof stats_opts / sizeof stats_opts[0],
    &stats_defaults,
    sizeof(stats_config_t),
    "IN",
    offsetof(stats_config_t, in),
    0,
    0,
    1,
};

static void stats_free(sctx_t *s) {
    for (size_t i = 0; i < s->names.count; i++) {
        name_stat_t *n = cli_map_at(&s->names, i, NULL, NULL);
        free(n->hist);
    }
    cli_map_free(&s->providers);
    cli_map_free(&s->threads);
    cli_map_free(&s->names);
    cli_map_free(&s->cats);
    cli_map_free(&s->counters);
    cli_map_free(&s->series);
    cli_map_free(&s->objects);
    free(s->keybuf);
}

/* Reads the whole trace, then prints the summary; exit 1 when records were damaged. */
static int stats_run(const stats_config_t *cfg) {
    static sctx_t s; /* large: static, reset for in-process reruns */
    memset(&s, 0, sizeof s);
    s.json = cfg->json;
    s.top = cfg->top;
    s.keybuf = malloc(SERIES_KEY_OFF + 8 + FXT_MAX_INLINE_STRING_LEN + 8);
    if (s.keybuf == NULL) {
        return CLI_EXIT_LIMIT;
    }
    cli_map_init(&s.providers, sizeof(prov_stat_t));
    cli_map_init(&s.threads, sizeof(thr_stat_t));
    cli_map_init(&s.names, sizeof(name_stat_t));
    cli_map_init(&s.cats, sizeof(uint64_t));
    cli_map_init(&s.counters, sizeof(counter_stat_t));
    cli_map_init(&s.series, sizeof(series_stat_t));
    cli_map_init(&s.objects, sizeof(obj_name_t));
    uint64_t bytes = 0;
    /* Object names are collected here, so the reader need not keep its own object tables. */
    fxt_reader_options_t ro = {sizeof ro, FXT_READ_NO_OBJECT_TABLES, 0};
    int rc = cli_read_trace("stats", cfg->in, &ro, on_record, on_error, &s, &bytes);
    /* No summary after a fatal read or I/O error: it would describe part of the trace as all of it. */
    if (rc == 0) {
        if (s.json) {
            print_json(&s, bytes);
        } else {
            print_text(&s, bytes);
        }
    }
    stats_free(&s);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "fxt stats: error writing output\n");
        return CLI_EXIT_IO;
    }
    if (rc != 0) {
        return rc;
    }
    return s.errors ? CLI_EXIT_DATA : CLI_EXIT_OK;
}

static int stats_main(int argc, char **argv) {
    stats_config_t cfg;
    int rc = cli_parse(&stats_spec, argc, argv, &cfg);
    return rc != 0 ? rc : stats_run(&cfg);
}

const cli_command_t cli_cmd_stats = {
    "stats",
    stats_main,
    "summarise a trace (durations, counts, threads)",
    "fxt stats [--json] [--top N] [IN]",
    "Summarise a trace in one streaming pass: size; records and bytes by kind;\n"
    "providers (tick rates, string/thread table usage, dropped-record reports);\n"
    "processes and threads with their names; time span; events by category; the\n"
    "top (category, name) pairs by total duration with count, total, min, mean,\n"
    "p50/p90/p99 (within 6.25%) and max of durations measured from begin/end pairs\n"
    "and duration complete events; counters.\n",
    &stats_spec,
    "exit status: 0 ok, 1 the trace had damaged records, 2 usage error, 3 I/O error\n",
};
