/* SPDX-License-Identifier: MIT */
/*
 * fxt stats: "where did the time go" in one streaming pass, on all cores.
 * stats_collect.c summarises ranges of the trace (decoded in parallel by
 * cli_parallel.c) and merges them in order; this file prints the summary as
 * text, JSON, a call tree or folded stacks. Memory is bounded (docs/stats.md).
 */
#include <fxt/reader.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_io.h"
#include "cli_json.h"
#include "cli_map.h"
#include "cli_parallel.h"
#include "cli_trace.h"
#include "stats.h"

typedef struct stats_config {
    const char *in;
    int json, tree, folded;
    unsigned top, jobs;
} stats_config_t;

/* ---- output --------------------------------------------------------------------------- */

static const cli_map_t *sort_map; /* qsort has no context argument */

/* qsort order: largest total duration first, then most events, then first seen. */
static int cmp_names(const void *a, const void *b) {
    size_t ia = *(const size_t *)a, ib = *(const size_t *)b;
    const st_name_t *x = cli_map_at(sort_map, ia, NULL, NULL);
    const st_name_t *y = cli_map_at(sort_map, ib, NULL, NULL);
    if (x->total != y->total) {
        return x->total < y->total ? 1 : -1;
    }
    if (x->events != y->events) {
        return x->events < y->events ? 1 : -1;
    }
    return ia < ib ? -1 : 1; /* first seen first: deterministic */
}

/* Threads: most busy first, then first seen. */
static int cmp_threads(const void *a, const void *b) {
    size_t ia = *(const size_t *)a, ib = *(const size_t *)b;
    const st_thread_t *x = cli_map_at(sort_map, ia, NULL, NULL);
    const st_thread_t *y = cli_map_at(sort_map, ib, NULL, NULL);
    if (x->busy_ns != y->busy_ns) {
        return x->busy_ns < y->busy_ns ? 1 : -1;
    }
    return ia < ib ? -1 : 1;
}

/* Insertion-order indexes of m sorted by cmp; NULL when out of memory. */
static size_t *sorted(const cli_map_t *m, int (*cmp)(const void *, const void *)) {
    size_t *ix = malloc((m->count ? m->count : 1) * sizeof *ix);
    if (ix == NULL) {
        return NULL;
    }
    for (size_t i = 0; i < m->count; i++) {
        ix[i] = i;
    }
    sort_map = m;
    qsort(ix, m->count, sizeof *ix, cmp);
    return ix;
}

/* category and name of a names-map index + 1 ("?" for none). */
static void pair_of(const st_state_t *s, uint32_t name, const char **cat, const char **nm) {
    const char *key = "?\0?";
    if (name) {
        cli_map_at(&s->names, name - 1, &key, NULL);
    }
    *cat = key;
    *nm = key + strlen(key) + 1;
}

/* The name of thread koid tid from the kernel objects, or "". */
static const char *thread_name(const st_state_t *s, uint64_t tid) {
    const st_object_t *o = cli_map_get((cli_map_t *)&s->objects, (uint64_t[2]){tid, FXT_OBJ_THREAD}, 16, 0);
    return o ? o->name : "";
}

static uint64_t oncpu_of(const st_state_t *s, uint64_t tid, int *have) {
    const uint64_t *v = cli_map_get((cli_map_t *)&s->oncpu, (uint64_t[2]){tid, 0}, 16, 0);
    *have = v != NULL;
    return v ? *v : 0;
}

static uint64_t span_of(const st_state_t *s) { return s->have_span ? s->last_ns - s->first_ns : 0; }

static void text_arg(void *ctx, const char *name, size_t nlen, int is_str, const char *val, size_t vlen) {
    int *first = ctx;
    printf("%s%.*s=%s%.*s%s", *first ? " " : ", ", (int)nlen, name, is_str ? "\"" : "", (int)vlen, val,
           is_str ? "\"" : "");
    *first = 0;
}

static void json_arg(void *ctx, const char *name, size_t nlen, int is_str, const char *val, size_t vlen) {
    int *first = ctx;
    printf("%s", *first ? "" : ",");
    cli_json_str(stdout, name, nlen);
    printf(":");
    if (is_str || !strcmp(val, "nan") || !strcmp(val, "inf") || !strcmp(val, "-inf") || val[0] == '0') {
        /* Strings, and values JSON has no number for (pointers in hex, NaN, infinities). */
        if (!is_str && vlen == 1) {
            printf("0");
        } else {
            cli_json_str(stdout, val, vlen);
        }
    } else {
        printf("%.*s", (int)vlen, val);
    }
    *first = 0;
}

/* Call tree: node indexes sorted by (thread, parent, total desc, first seen); kids[] finds children. */
typedef struct tree {
    size_t *order;
    size_t *first; /* per node + 1 (0 = thread roots... per thread below): first child position */
    size_t n;
} tree_t;

static const st_state_t *sort_state;

static int cmp_nodes(const void *a, const void *b) {
    size_t ia = *(const size_t *)a, ib = *(const size_t *)b;
    const char *ka, *kb;
    const st_node_t *x = cli_map_at(&sort_state->nodes, ia, &ka, NULL);
    const st_node_t *y = cli_map_at(&sort_state->nodes, ib, &kb, NULL);
    st_node_key_t p, q;
    memcpy(&p, ka, sizeof p);
    memcpy(&q, kb, sizeof q);
    if (p.thread != q.thread) {
        return p.thread < q.thread ? -1 : 1;
    }
    if (p.parent != q.parent) {
        return p.parent < q.parent ? -1 : 1;
    }
    if (x->total != y->total) {
        return x->total < y->total ? 1 : -1;
    }
    /* Siblings have distinct names, and names are numbered in the order the trace has them; nodes
     * are not (a complete event's are made when its parent is known, which depends on the ranges). */
    return p.name < q.name ? -1 : p.name > q.name ? 1 : 0;
}

static st_node_key_t node_key(const st_state_t *s, size_t ix) {
    const char *k;
    st_node_key_t key;
    cli_map_at(&s->nodes, ix, &k, NULL);
    memcpy(&key, k, sizeof key);
    return key;
}

/* Positions [*lo, *hi) in order of the children of `parent` (node index + 1, 0 = roots) of thread. */
static void children(const st_state_t *s, const size_t *order, size_t n, uint32_t thread, uint32_t parent,
                     size_t *lo, size_t *hi) {
    size_t a = 0, b = n;
    while (a < b) { /* first position with (thread, parent) >= the wanted one */
        size_t m = (a + b) / 2;
        st_node_key_t k = node_key(s, order[m]);
        if (k.thread < thread || (k.thread == thread && k.parent < parent)) {
            a = m + 1;
        } else {
            b = m;
        }
    }
    *lo = a;
    while (a < n) {
        st_node_key_t k = node_key(s, order[a]);
        if (k.thread != thread || k.parent != parent) {
            break;
        }
        a++;
    }
    *hi = a;
}

static size_t *tree_order(const st_state_t *s) {
    size_t *order = malloc((s->nodes.count ? s->nodes.count : 1) * sizeof *order);
    if (order) {
        for (size_t i = 0; i < s->nodes.count; i++) {
            order[i] = i;
        }
        sort_state = s;
        qsort(order, s->nodes.count, sizeof *order, cmp_nodes);
    }
    return order;
}

static void print_tree_text(const st_state_t *s, const size_t *order, uint32_t thread, uint32_t parent,
                            unsigned depth) {
    size_t lo, hi;
    children(s, order, s->nodes.count, thread, parent, &lo, &hi);
    for (size_t i = lo; i < hi; i++) {
        if (s->top && i - lo == s->top) {
            printf("    %*s... %zu more\n", (int)depth * 2, "", hi - i);
            break;
        }
        const st_node_t *n = cli_map_at(&s->nodes, order[i], NULL, NULL);
        const char *cat, *nm;
        pair_of(s, node_key(s, order[i]).name, &cat, &nm);
        printf("    %*s%s (%s)  total %" PRIu64 "  self %" PRIu64 "  count %" PRIu64 "\n", (int)depth * 2, "",
               nm, cat, n->total, n->self, n->count);
        print_tree_text(s, order, thread, (uint32_t)order[i] + 1, depth + 1);
    }
}

static void print_tree_json(const st_state_t *s, const size_t *order, uint32_t thread, uint32_t parent) {
    size_t lo, hi;
    children(s, order, s->nodes.count, thread, parent, &lo, &hi);
    printf("[");
    for (size_t i = lo; i < hi; i++) {
        const st_node_t *n = cli_map_at(&s->nodes, order[i], NULL, NULL);
        const char *cat, *nm;
        pair_of(s, node_key(s, order[i]).name, &cat, &nm);
        printf("%s{\"category\":", i > lo ? "," : "");
        cli_json_str(stdout, cat, strlen(cat));
        printf(",\"name\":");
        cli_json_str(stdout, nm, strlen(nm));
        printf(",\"total_ns\":%" PRIu64 ",\"self_ns\":%" PRIu64 ",\"count\":%" PRIu64 ",\"children\":",
               n->total, n->self, n->count);
        print_tree_json(s, order, thread, (uint32_t)order[i] + 1);
        printf("}");
    }
    printf("]");
}

/* A folded-stack frame: ';' separates frames and the line ends at a newline, so those become '_'. */
static void put_frame(const char *p) {
    for (; *p; p++) {
        putchar(*p == ';' || *p == '\n' || *p == '\r' ? '_' : *p);
    }
}

static void put_thread_frame(const st_state_t *s, uint32_t thread) {
    const char *key;
    cli_map_at(&s->threads, thread - 1, &key, NULL);
    uint64_t k[3];
    memcpy(k, key, sizeof k);
    const char *tn = thread_name(s, k[2]);
    printf("%s%s%" PRIu64 "/%" PRIu64 "", "", "", k[1], k[2]);
    if (*tn) {
        putchar(' ');
        put_frame(tn);
    }
}

/* The folded lines of the children of `parent` (path[0..depth) its path), depth first in tree order. */
static void print_folded_at(const st_state_t *s, const size_t *order, uint32_t thread, uint32_t parent,
                            uint32_t *path, unsigned depth) {
    size_t lo, hi;
    children(s, order, s->nodes.count, thread, parent, &lo, &hi);
    for (size_t i = lo; i < hi && depth <= ST_MAX_DEPTH; i++) {
        const st_node_t *n = cli_map_at(&s->nodes, order[i], NULL, NULL);
        path[depth] = (uint32_t)order[i] + 1;
        if (n->self != 0) {
            put_thread_frame(s, thread);
            for (unsigned d = 0; d <= depth; d++) {
                const char *cat, *nm;
                pair_of(s, node_key(s, path[d] - 1).name, &cat, &nm);
                putchar(';');
                put_frame(nm);
            }
            printf(" %" PRIu64 "\n", n->self);
        }
        print_folded_at(s, order, thread, path[depth], path, depth + 1);
    }
}

/* One line per call-tree node with self time: thread;a;b;c <self ns> (flamegraph.pl, speedscope),
 * in the order of --tree (the same for any -j). */
static void print_folded(const st_state_t *s) {
    uint32_t path[ST_MAX_DEPTH + 1];
    size_t *order = tree_order(s);
    for (size_t t = 0; order && t < s->threads.count; t++) {
        print_folded_at(s, order, (uint32_t)t + 1, 0, path, 0);
    }
    free(order);
}

/* What the durations' nesting could not reconstruct (docs/stats.md, "How durations are measured"). */
static void print_nesting_notes(const st_state_t *s) {
    if (s->unnested) {
        printf("note: %" PRIu64 " complete events do not enclose every duration inside them (a partial "
               "overlap, or a start inside durations coalesced past %u given up on their thread): their "
               "self time includes that time, and busy time may count it twice\n",
               s->unnested, ST_GUP_CAP);
    }
    if (s->tree_unnested && s->tree) {
        printf("note: %" PRIu64 " complete events enclose durations more than %u closed durations of their "
               "thread before them: their time is exact, the call tree shows those beside them\n",
               s->tree_unnested, ST_PEND_K);
    }
    if (s->clamped) {
        printf("note: %" PRIu64 " durations have children adding up to more than their own duration "
               "(overlapping): their self time is counted as 0\n",
               s->clamped);
    }
    if (s->pairs_in_complete) {
        printf("note: %" PRIu64 " begin/end pairs lie inside a complete event written after them: their "
               "time counts in it, the call tree shows them beside it\n",
               s->pairs_in_complete);
    }
}

/* ---- the summary's rows, computed once for both printers --------------------------------- */

/* A row of the threads table: the busiest first. Shares in permille of the time span. */
typedef struct report_thread {
    uint64_t provider, pid, tid, events, busy_ns, oncpu_ns, busy_permille, oncpu_permille;
    int have_oncpu;
    const char *name;
} report_thread_t;

/* A row of the (category, name) table: largest total duration first. */
typedef struct report_name {
    const char *cat, *name;
    const st_name_t *n;
    uint64_t mean, p50, p90, p99; /* when n->ndur */
} report_name_t;

/*
 * What the text and JSON summaries print beyond the state's own counts: the tables' rows sorted
 * and cut to --top, with their derived figures. A table whose rows got no memory is left out
 * (its rows NULL) rather than printed unsorted.
 */
typedef struct report {
    uint64_t bytes, span_ns, drops;
    int have_cpu; /* context switches gave on-cpu times: their columns are printed */
    report_thread_t *threads;
    size_t nthreads;
    report_name_t *names;
    size_t nnames;
    size_t *tree; /* the call tree's order (tree_order), with --tree */
} report_t;

static uint64_t permille_of(uint64_t part, uint64_t whole) {
    __extension__ typedef unsigned __int128 u128;
    return whole ? (uint64_t)((u128)part * 1000u / whole) : 0;
}

static report_thread_t *report_threads(const st_state_t *s, uint64_t span, size_t *n) {
    size_t *tix = sorted(&s->threads, cmp_threads);
    size_t rows = s->threads.count < s->top ? s->threads.count : s->top;
    report_thread_t *r = tix ? calloc(rows ? rows : 1, sizeof *r) : NULL;
    for (size_t i = 0; r && i < rows; i++) {
        const char *key;
        const st_thread_t *t = cli_map_at(&s->threads, tix[i], &key, NULL);
        uint64_t k[3];
        memcpy(k, key, sizeof k);
        r[i] = (report_thread_t){k[0],
                                 k[1],
                                 k[2],
                                 t->events,
                                 t->busy_ns,
                                 0,
                                 permille_of(t->busy_ns, span),
                                 0,
                                 0,
                                 thread_name(s, k[2])};
        r[i].oncpu_ns = oncpu_of(s, k[2], &r[i].have_oncpu);
        r[i].oncpu_permille = permille_of(r[i].oncpu_ns, span);
    }
    free(tix);
    *n = r ? rows : 0;
    return r;
}

static report_name_t *report_names(const st_state_t *s, size_t *n) {
    size_t *ix = sorted(&s->names, cmp_names);
    size_t rows = s->names.count < s->top ? s->names.count : s->top;
    report_name_t *r = ix ? calloc(rows ? rows : 1, sizeof *r) : NULL;
    for (size_t i = 0; r && i < rows; i++) {
        r[i].n = cli_map_at(&s->names, ix[i], NULL, NULL);
        pair_of(s, (uint32_t)ix[i] + 1, &r[i].cat, &r[i].name);
        if (r[i].n->ndur) {
            r[i].mean = r[i].n->total / r[i].n->ndur;
            r[i].p50 = st_percentile(r[i].n, 0.5);
            r[i].p90 = st_percentile(r[i].n, 0.9);
            r[i].p99 = st_percentile(r[i].n, 0.99);
        }
    }
    free(ix);
    *n = r ? rows : 0;
    return r;
}

static void report_build(report_t *r, const st_state_t *s, uint64_t bytes, int tree) {
    memset(r, 0, sizeof *r);
    r->bytes = bytes;
    r->span_ns = span_of(s);
    for (size_t i = 0; i < s->providers.count; i++) {
        r->drops += ((const st_prov_t *)cli_map_at(&s->providers, i, NULL, NULL))->overflows;
    }
    r->have_cpu = s->oncpu.count > 0;
    r->threads = report_threads(s, r->span_ns, &r->nthreads);
    r->names = report_names(s, &r->nnames);
    r->tree = tree ? tree_order(s) : NULL;
}

static void report_free(report_t *r) {
    free(r->threads);
    free(r->names);
    free(r->tree);
}

/* The next series of counter c from position *k on, or NULL; its name (skey + 8, skl - 8). */
static const st_series_t *series_next(const st_state_t *s, size_t c, size_t *k, const char **name,
                                      size_t *nlen) {
    for (; *k < s->series.count; (*k)++) {
        const char *skey;
        size_t skl;
        const st_series_t *se = cli_map_at(&s->series, *k, &skey, &skl);
        if (se->counter == c) {
            (*k)++;
            *name = skey + 8;
            *nlen = skl - 8;
            return se;
        }
    }
    return NULL;
}

/* A counter's category, name and id from its key (category NUL name NUL ... id). */
static const char *counter_at(const st_state_t *s, size_t i, const char **name, uint64_t *id) {
    const char *key;
    size_t kl;
    cli_map_at(&s->counters, i, &key, &kl);
    memcpy(id, key + kl - 8, 8);
    *name = key + strlen(key) + 1;
    return key;
}

/* ---- text ------------------------------------------------------------------------------ */

/* Share of the span in percent with one decimal, from integers (no rounding differences). */
static void print_share(const report_t *r, uint64_t permille) {
    if (r->span_ns == 0) {
        printf(" %7s", "-");
        return;
    }
    printf(" %5" PRIu64 ".%" PRIu64 "%%", permille / 10, permille % 10);
}

/* The rows a table limited to --top leaves out. */
static void print_more(size_t n, unsigned top) {
    if (n > top) {
        printf("  ... %zu more (--top %u)\n", n - top, top);
    }
}

static void text_head(const st_state_t *s, const report_t *r) {
    printf("size: %" PRIu64 " bytes, %" PRIu64 " records", r->bytes, s->records);
    if (s->errors) {
        printf(", %" PRIu64 " damaged", s->errors);
    }
    printf("\n");
    if (s->have_span) {
        printf("time span: %" PRIu64 " ns (", r->span_ns);
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
}

static void text_providers(const st_state_t *s, const report_t *r) {
    printf("\nproviders:\n");
    for (size_t i = 0; i < s->providers.count; i++) {
        const st_prov_t *p = cli_map_at(&s->providers, i, NULL, NULL);
        if (p->has_id) {
            printf("  %-10" PRIu32 " %-24s", p->id, p->name[0] ? p->name : "(unnamed)");
        } else {
            printf("  %-10s %-24s", "-", "(before any provider)");
        }
        printf(" %10" PRIu64 " records %10" PRIu64 " events, %" PRIu64 " ticks/s, strings %" PRIu64
               " (%" PRIu64 " re-registered), threads %" PRIu64 " (%" PRIu64 " re-registered)",
               p->records, p->events, p->ticks, p->strings, p->string_rereg, p->threads, p->thread_rereg);
        if (p->overflows) {
            printf(", DROPPED RECORDS: buffer full %" PRIu64 " times", p->overflows);
        }
        printf("\n");
    }
    if (r->drops) {
        printf("dropped records: buffers filled up %" PRIu64 " times in all (the trace does not say how many "
               "records each time)\n",
               r->drops);
    }
}

static void text_objects(const st_state_t *s) {
    printf("\nprocesses and threads (%zu threads with events):\n", s->threads.count);
    for (size_t i = 0; i < s->objects.count; i++) {
        const char *key;
        const st_object_t *o = cli_map_at(&s->objects, i, &key, NULL);
        uint64_t k[2];
        memcpy(k, key, sizeof k);
        if (o->is_thread) {
            printf("  thread  %" PRIu64 " (process %" PRIu64 "): %s\n", k[0], o->pid, o->name);
        } else {
            printf("  process %" PRIu64 ": %s\n", k[0], o->name);
        }
    }
}

static void text_threads(const st_state_t *s, const report_t *r) {
    printf("\nthreads by busy time (busy: in top-level durations; %% of the time span%s):\n",
           r->have_cpu ? "; on-cpu from context switches" : "");
    printf("  %10s %10s %10s %14s %8s", "pid", "tid", "events", "busy ns", "busy");
    if (r->have_cpu) {
        printf(" %14s %8s", "on-cpu ns", "on-cpu");
    }
    printf("  name\n");
    for (size_t i = 0; i < r->nthreads; i++) {
        const report_thread_t *t = &r->threads[i];
        printf("  %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %14" PRIu64, t->pid, t->tid, t->events,
               t->busy_ns);
        print_share(r, t->busy_permille);
        if (r->have_cpu && t->have_oncpu) {
            printf(" %14" PRIu64, t->oncpu_ns);
            print_share(r, t->oncpu_permille);
        } else if (r->have_cpu) {
            printf(" %14s %8s", "-", "-");
        }
        printf("  %s\n", t->name);
    }
    print_more(s->threads.count, s->top);
}

static void text_categories(const st_state_t *s) {
    printf("\nevents by category:\n");
    for (size_t i = 0; i < s->cats.count; i++) {
        const char *key;
        size_t kl;
        const uint64_t *c = cli_map_at(&s->cats, i, &key, &kl);
        printf("  %-32.*s %12" PRIu64 "\n", (int)kl, key, *c);
    }
}

/* The widest category (which 0) or name (1) of the rows, at least min. */
static int width_of(const report_t *r, int which, int min) {
    int w = min;
    for (size_t i = 0; i < r->nnames; i++) {
        size_t l = strlen(which ? r->names[i].name : r->names[i].cat);
        w = l > (size_t)w ? (int)l : w;
    }
    return w;
}

static void text_names(const st_state_t *s, const report_t *r) {
    int cw = width_of(r, 0, 8), nw = width_of(r, 1, 4);
    printf("\n(category, name) by total duration (count: durations; ns; percentiles within 6.25%%):\n");
    printf("  %-*s %-*s %10s %10s %14s %14s %10s %10s %10s %10s %10s %10s\n", cw, "category", nw, "name",
           "events", "count", "total", "self", "min", "mean", "p50", "p90", "p99", "max");
    for (size_t i = 0; i < r->nnames; i++) {
        const report_name_t *e = &r->names[i];
        const st_name_t *n = e->n;
        printf("  %-*s %-*s %10" PRIu64 " %10" PRIu64, cw, e->cat, nw, e->name, n->events, n->ndur);
        if (n->ndur) {
            printf(" %14" PRIu64 " %14" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64
                   " %10" PRIu64 " %10" PRIu64 "\n",
                   n->total, n->self, n->min, e->mean, e->p50, e->p90, e->p99, n->max);
        } else {
            printf(" %14s\n", "-");
        }
    }
    print_more(s->names.count, s->top);
}

static void text_slowest(const st_state_t *s) {
    if (s->nslow == 0) {
        return;
    }
    printf("\nslowest events (duration ns, start us, pid/tid, category/name, arguments):\n");
    for (unsigned i = 0; i < s->nslow; i++) {
        const st_slow_t *e = &s->slow[i];
        const char *cat, *nm;
        pair_of(s, e->name, &cat, &nm);
        printf("  %14" PRIu64 " ", e->dur);
        cli_print_us(stdout, e->ts);
        printf("  %" PRIu64 "/%" PRIu64 "  %s/%s", e->pid, e->tid, cat, nm);
        int first = 1;
        if (st_args_each(e->args, text_arg, &first)) {
            printf("%s...", first ? " " : ", "); /* arguments beyond what is kept */
        }
        printf("\n");
    }
}

static void text_counters(const st_state_t *s) {
    if (s->counters.count == 0) {
        return;
    }
    printf("\ncounters:\n");
    for (size_t i = 0; i < s->counters.count && i < s->top; i++) {
        const char *nm;
        uint64_t id;
        const char *cat = counter_at(s, i, &nm, &id);
        const st_counter_t *c = cli_map_at(&s->counters, i, NULL, NULL);
        printf("  %s/%s id %" PRIu64 ": %" PRIu64 " samples\n", cat, nm, id, c->samples);
        const st_series_t *se;
        const char *sn;
        size_t sl;
        for (size_t k = 0; (se = series_next(s, i, &k, &sn, &sl)) != NULL;) {
            printf("    %-24.*s %10" PRIu64 " samples  min %.17g  max %.17g  last %.17g\n", (int)sl, sn,
                   se->samples, se->min, se->max, se->last);
        }
    }
    print_more(s->counters.count, s->top);
}

static void text_tree(const st_state_t *s, const report_t *r) {
    printf("\ncall tree per thread (ns; children by total, at most %u per node%s):\n", s->top,
           s->tree_full ? "; TRUNCATED: node limit reached" : "");
    for (size_t t = 0; r->tree && t < s->threads.count; t++) {
        const char *key;
        const st_thread_t *th = cli_map_at(&s->threads, t, &key, NULL);
        uint64_t k[3];
        memcpy(k, key, sizeof k);
        printf("  thread %" PRIu64 "/%" PRIu64 " %s (busy %" PRIu64 ")\n", k[1], k[2], thread_name(s, k[2]),
               th->busy_ns);
        print_tree_text(s, r->tree, (uint32_t)t + 1, 0, 0);
    }
}

/* The human-readable summary; the tables are limited to --top rows. */
static void print_text(const st_state_t *s, const report_t *r, int tree) {
    text_head(s, r);
    text_providers(s, r);
    text_objects(s);
    text_threads(s, r);
    text_categories(s);
    text_names(s, r);
    print_nesting_notes(s);
    text_slowest(s);
    text_counters(s);
    printf("\ninline strings in events: %" PRIu64 " (%" PRIu64 " bytes)\n", s->inline_strings,
           s->inline_bytes);
    if (tree) {
        text_tree(s, r);
    }
}

/* ---- JSON ------------------------------------------------------------------------------ */

static void json_key_str(const char *k, const char *v, size_t n) {
    printf("\"%s\":", k);
    cli_json_str(stdout, v, n);
}

/* ,"category":"..","name":".." */
static void json_pair(const char *cat, const char *nm) {
    json_key_str("category", cat, strlen(cat));
    printf(",");
    json_key_str("name", nm, strlen(nm));
}

static void json_head(const st_state_t *s, const report_t *r) {
    printf("{\"bytes\":%" PRIu64 ",\"records\":%" PRIu64 ",\"errors\":%" PRIu64, r->bytes, s->records,
           s->errors);
    if (s->have_span) {
        printf(",\"first_ns\":%" PRIu64 ",\"last_ns\":%" PRIu64 ",\"span_ns\":%" PRIu64, s->first_ns,
               s->last_ns, r->span_ns);
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
    printf("}");
}

static void json_providers(const st_state_t *s, const report_t *r) {
    printf(",\"providers\":[");
    for (size_t i = 0; i < s->providers.count; i++) {
        const st_prov_t *p = cli_map_at(&s->providers, i, NULL, NULL);
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
    printf("],\"buffer_full_reports\":%" PRIu64, r->drops);
}

static void json_objects(const st_state_t *s) {
    printf(",\"objects\":[");
    for (size_t i = 0; i < s->objects.count; i++) {
        const char *key;
        const st_object_t *o = cli_map_at(&s->objects, i, &key, NULL);
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
    printf("]");
}

/* The arrays threads, names and counters hold the first --top: their *_total say how many exist. */
static void json_threads(const st_state_t *s, const report_t *r) {
    printf(",\"top\":%u,\"threads_with_events\":%zu,\"threads_total\":%zu,\"threads\":[", s->top,
           s->threads.count, s->threads.count);
    for (size_t i = 0; i < r->nthreads; i++) {
        const report_thread_t *t = &r->threads[i];
        printf("%s{\"provider\":%" PRIu64 ",\"pid\":%" PRIu64 ",\"tid\":%" PRIu64 ",", i ? "," : "",
               t->provider, t->pid, t->tid);
        json_key_str("name", t->name, strlen(t->name));
        printf(",\"events\":%" PRIu64 ",\"busy_ns\":%" PRIu64, t->events, t->busy_ns);
        if (t->have_oncpu) {
            printf(",\"oncpu_ns\":%" PRIu64, t->oncpu_ns);
        }
        printf("}");
    }
    printf("]");
}

static void json_categories(const st_state_t *s) {
    printf(",\"categories\":{");
    for (size_t i = 0; i < s->cats.count; i++) {
        const char *key;
        size_t kl;
        const uint64_t *c = cli_map_at(&s->cats, i, &key, &kl);
        printf("%s", i ? "," : "");
        cli_json_str(stdout, key, kl);
        printf(":%" PRIu64, *c);
    }
    printf("}");
}

static void json_names(const st_state_t *s, const report_t *r) {
    printf(",\"names_total\":%zu,\"names\":[", s->names.count);
    for (size_t i = 0; i < r->nnames; i++) {
        const report_name_t *e = &r->names[i];
        const st_name_t *n = e->n;
        printf("%s{", i ? "," : "");
        json_pair(e->cat, e->name);
        printf(",\"events\":%" PRIu64 ",\"count\":%" PRIu64, n->events, n->ndur);
        if (n->ndur) {
            printf(",\"total_ns\":%" PRIu64 ",\"self_ns\":%" PRIu64 ",\"min_ns\":%" PRIu64
                   ",\"mean_ns\":%" PRIu64 ",\"p50_ns\":%" PRIu64 ",\"p90_ns\":%" PRIu64
                   ",\"p99_ns\":%" PRIu64 ",\"max_ns\":%" PRIu64,
                   n->total, n->self, n->min, e->mean, e->p50, e->p90, e->p99, n->max);
        }
        printf("}");
    }
    printf("]");
}

static void json_slowest(const st_state_t *s) {
    printf(",\"slowest\":[");
    for (unsigned i = 0; i < s->nslow; i++) {
        const st_slow_t *e = &s->slow[i];
        const char *cat, *nm;
        pair_of(s, e->name, &cat, &nm);
        printf("%s{\"duration_ns\":%" PRIu64 ",\"ts_ns\":%" PRIu64 ",\"provider\":%" PRIu64
               ",\"pid\":%" PRIu64 ",\"tid\":%" PRIu64 ",",
               i ? "," : "", e->dur, e->ts, e->provider, e->pid, e->tid);
        json_pair(cat, nm);
        printf(",\"args\":{");
        int afirst = 1;
        int cut = st_args_each(e->args, json_arg, &afirst);
        printf("},\"args_truncated\":%s}", cut ? "true" : "false");
    }
    printf("]");
}

static void json_counters(const st_state_t *s) {
    printf(",\"counters_total\":%zu,\"counters\":[", s->counters.count);
    for (size_t i = 0; i < s->counters.count && i < s->top; i++) {
        const char *nm;
        uint64_t id;
        const char *cat = counter_at(s, i, &nm, &id);
        const st_counter_t *c = cli_map_at(&s->counters, i, NULL, NULL);
        printf("%s{", i ? "," : "");
        json_pair(cat, nm);
        printf(",\"id\":%" PRIu64 ",\"samples\":%" PRIu64 ",\"series\":[", id, c->samples);
        const st_series_t *se;
        const char *sn;
        size_t sl;
        for (size_t k = 0, n = 0; (se = series_next(s, i, &k, &sn, &sl)) != NULL; n++) {
            printf("%s{", n ? "," : "");
            json_key_str("name", sn, sl);
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
    printf("]");
}

static void json_tree(const st_state_t *s, const report_t *r) {
    printf(",\"tree_truncated\":%s,\"tree\":[", s->tree_full ? "true" : "false");
    for (size_t t = 0; r->tree && t < s->threads.count; t++) {
        const char *key;
        cli_map_at(&s->threads, t, &key, NULL);
        uint64_t k[3];
        memcpy(k, key, sizeof k);
        printf("%s{\"provider\":%" PRIu64 ",\"pid\":%" PRIu64 ",\"tid\":%" PRIu64 ",\"children\":",
               t ? "," : "", k[0], k[1], k[2]);
        print_tree_json(s, r->tree, (uint32_t)t + 1, 0);
        printf("}");
    }
    printf("]");
}

/* The same summary as one JSON object (schema in docs/stats.md). */
static void print_json(const st_state_t *s, const report_t *r, int tree) {
    json_head(s, r);
    json_providers(s, r);
    json_objects(s);
    json_threads(s, r);
    json_categories(s);
    json_names(s, r);
    json_slowest(s);
    json_counters(s);
    printf(",\"inline_strings\":%" PRIu64 ",\"inline_string_bytes\":%" PRIu64, s->inline_strings,
           s->inline_bytes);
    printf(",\"nesting\":{\"complete_not_enclosing_all\":%" PRIu64 ",\"self_clamped\":%" PRIu64
           ",\"pairs_in_later_complete\":%" PRIu64 ",\"tree_not_enclosing_all\":%" PRIu64 "}",
           s->unnested, s->clamped, s->pairs_in_complete, s->tree_unnested);
    if (tree) {
        json_tree(s, r);
    }
    printf("}\n");
}

/* ---- command ------------------------------------------------------------------------ */

static const stats_config_t stats_defaults = {NULL, 0, 0, 0, 20, 0};

static const cli_opt_t stats_opts[] = {
    CLI_FLAG(stats_config_t, json, "json", 0, "one JSON object instead of text"),
    CLI_UINT(stats_config_t, top, unsigned, "top", 0, 100000, "N",
             "rows of the tables, slowest events listed, children per call-tree node (default 20)"),
    CLI_FLAG(stats_config_t, tree, "tree", 0, "add the call tree per thread (total and self time per path)"),
    CLI_FLAG(stats_config_t, folded, "folded", 0,
             "print only the call tree as folded stacks (thread;a;b;c self_ns) for flame graphs"),
    CLI_PAR_JOBS_OPT(stats_config_t, jobs),
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

static void *range_new(void *ctx, size_t index) {
    (void)index;
    return st_new_range(ctx);
}

static int range_merge(void *ctx, void *range) {
    int rc = st_merge(ctx, range);
    st_release(ctx, range);
    return rc;
}

static void range_free(void *ctx, void *range) { st_release(ctx, range); }

static const cli_par_ops_t stats_ops = {range_new, st_on_record, st_on_error, range_merge, range_free};

/* Reads the whole trace, then prints the summary; exit 1 when records were damaged. */
static int stats_run(void *config) {
    const stats_config_t *cfg = config;
    /* stdout appended to the input (`>> IN`) would change the trace while it is read */
    int orc = cli_output_check("stats", NULL, &cfg->in, 1);
    if (orc != 0) {
        return orc;
    }
    unsigned jobs = cfg->jobs ? cfg->jobs : cli_par_default_jobs();
    uint64_t bytes = 0;
    st_state_t *s;
    int rc;
    for (;;) {
        s = st_new(cfg->top, cfg->tree || cfg->folded);
        if (s == NULL) {
            fprintf(stderr, "fxt stats: out of memory\n");
            return CLI_EXIT_LIMIT;
        }
        /* Object names are collected here, so the reader need not keep its own object tables. */
        fxt_reader_options_t ro = {sizeof ro, FXT_READ_NO_OBJECT_TABLES, 0};
        rc = cli_read_parallel("stats", cfg->in, &ro, jobs, 0, &stats_ops, s, &bytes);
        if (rc == 0) {
            rc = st_settle(s); /* the trace ends: what waits for an enclosing complete event is settled */
        }
        if (rc != CLI_PAR_RERUN || jobs == 1) {
            break;
        }
        /* A limit was reached in a way that depends on the split: the exact answer needs one range. */
        if (getenv("FXT_RERUN_NOTE") != NULL) {
            fprintf(stderr, "fxt stats: read again with one thread\n"); /* for tests (docs/stats.md) */
        }
        st_free(s);
        jobs = 1;
    }
    /* The ranges counted durations into their threads' histograms: added up once, here. */
    if (rc == 0 && (s->oom || st_fold(s) != 0)) {
        fprintf(stderr, "fxt stats: out of memory\n");
        rc = CLI_EXIT_LIMIT;
    }
    for (unsigned i = 0; i < s->nerrmsg; i++) {
        fprintf(stderr, "fxt stats: %s\n", s->errmsg[i]);
    }
    /* No summary after a fatal read or I/O error: it would describe part of the trace as all of it. */
    if (rc == 0) {
        if (cfg->folded) {
            print_folded(s);
        } else {
            report_t r;
            report_build(&r, s, bytes, cfg->tree);
            if (cfg->json) {
                print_json(s, &r, cfg->tree);
            } else {
                print_text(s, &r, cfg->tree);
            }
            report_free(&r);
        }
    }
    uint64_t errors = s->errors;
    st_free(s);
    if (cli_stdout_finish("stats", 0) != 0) {
        return CLI_EXIT_IO;
    }
    if (rc != 0) {
        return rc;
    }
    return errors ? CLI_EXIT_DATA : CLI_EXIT_OK;
}

const cli_command_t cli_cmd_stats = {
    "stats",
    stats_run,
    NULL,
    "summarise a trace: where the time went (durations, self time, threads, slowest)",
    "fxt stats [--json] [--top N] [--tree | --folded] [-j N] [IN]",
    "Summarise a trace in one pass, decoded in parallel ranges on every core:\n"
    "size; records by kind; providers (tick rates, string/thread table use, buffer-full\n"
    "reports = dropped records); processes and threads; time span; threads by busy\n"
    "time (top-level durations) with their share of the span and, with context-switch\n"
    "records, on-CPU time; events by category; (category, name) pairs by total duration\n"
    "with count of durations, total, self (without children), min, mean, p50/p90/p99\n"
    "(within 6.25%) and max; the N slowest events with start, thread and arguments;\n"
    "counters. --tree adds the call tree per thread; --folded prints folded stacks.\n",
    &stats_spec,
    "env FXT_RANGE_BYTES: smallest range decoded on its own (default 4 MiB; for tests).\n"
    "exit status: 0 ok, 1 the trace had damaged records, 2 usage error, 3 I/O error,\n"
    "4 out of memory or an internal limit\n",
};
