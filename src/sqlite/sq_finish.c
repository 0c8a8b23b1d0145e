/* SPDX-License-Identifier: MIT */
/*
 * libfxt_sqlite: after one trace's read. Async chains and flows are paired in time order
 * (the chain-id rule of docs/check.md#chain-ids); slices get their ids in time order and
 * their depth and parent by nesting in time per track; flows bind to the slice enclosing
 * them; context switches become sched_slice and thread_state rows; kernel objects name
 * threads and processes; arguments are grouped by arg set.
 */
#include "sq_build.h"

#include <stdlib.h>
#include <string.h>

/* Indexes of the `n` points (`stride` bytes each, an int64_t ts first) sorted by time, stable
 * (ts are >= 0). */
static uint32_t *sq_order_by_ts(const void *pts, size_t stride, size_t n) {
    uint64_t *keys = malloc((n ? n : 1) * sizeof *keys);
    uint32_t *ord = malloc((n ? n : 1) * sizeof *ord);
    if (!keys || !ord) {
        free(keys);
        free(ord);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        int64_t ts;
        memcpy(&ts, (const char *)pts + i * stride, sizeof ts);
        keys[i] = (uint64_t)ts;
    }
    int rc = sq_sort_u64(keys, n, ord);
    free(keys);
    if (rc != 0) {
        free(ord);
        return NULL;
    }
    return ord;
}

/*
 * The chain-id rule: the chain of `id` open in provider `prov` if there is one, else the one
 * open in exactly one other provider. `kind` 0 async (value: its track), 1 flow (value: the
 * last bound slice). Returns the map value, or SQ_NONE; *owner gets the chain's provider.
 */
#define SQ_CHAIN_CLOSED (SQ_NONE - 1)
static uint32_t sq_chain_find(sq_build *b, sq_map *m, uint64_t kind, uint32_t prov, uint64_t id,
                              uint32_t *owner) {
    uint32_t v = sq_map_get(m, ((uint64_t)prov << 1) | kind, id, 0);
    if (v != SQ_NONE && v != SQ_CHAIN_CLOSED) {
        *owner = prov;
        return v;
    }
    /* how many providers have it open (sq_chain_set counts them): look further only for one */
    if (sq_map_get(m, kind, id, 1) != 1) {
        return SQ_NONE;
    }
    uint32_t found = SQ_NONE, nfound = 0;
    for (uint32_t p = 0; p < b->provs.n && nfound < 2; p++) {
        uint32_t w = p == prov ? SQ_NONE : sq_map_get(m, ((uint64_t)p << 1) | kind, id, 0);
        if (w != SQ_NONE && w != SQ_CHAIN_CLOSED) {
            found = w;
            *owner = p;
            nfound++;
        }
    }
    return nfound == 1 ? found : SQ_NONE;
}

/* Set the chain of `id` in `prov` (open: a track or slice, or closed), counting the providers
 * that have it open under the key (kind, id, 1). Closed chains and zero counts leave the map
 * (closed and absent mean the same): it holds the open chains only. 0, or -1 out of memory. */
static int sq_chain_set(sq_map *m, uint64_t kind, uint32_t prov, uint64_t id, uint32_t val) {
    uint32_t old = sq_map_get(m, ((uint64_t)prov << 1) | kind, id, 0);
    int was = old != SQ_NONE && old != SQ_CHAIN_CLOSED, now = val != SQ_NONE && val != SQ_CHAIN_CLOSED;
    if (was != now) {
        uint32_t n = sq_map_get(m, kind, id, 1);
        n = (n == SQ_NONE ? 0 : n) + (now ? 1u : (uint32_t)-1);
        if (n == 0) {
            sq_map_del(m, kind, id, 1);
        } else if (sq_map_put(m, kind, id, 1, n) != 0) {
            return -1;
        }
    }
    if (!now) {
        sq_map_del(m, ((uint64_t)prov << 1) | kind, id, 0);
        return 0;
    }
    return sq_map_put(m, ((uint64_t)prov << 1) | kind, id, 0, val);
}

/* Async begin/instant/end: one track per chain (provider, id), named by its begin. */
static int sq_async_point(sq_build *b, sq_map *m, sq_chainpt *c) {
    sq_db *db = b->db;
    uint32_t owner = c->prov;
    uint32_t track = sq_chain_find(b, m, 0, c->prov, c->id, &owner);
    int open = track != SQ_NONE && b->open.v[track - b->first_track] != 0;
    if (c->type == FXT_EVENT_ASYNC_END) {
        if (!open) {
            return 0; /* no begin: dropped, as Perfetto does */
        }
        uint32_t *head = &b->open.v[track - b->first_track];
        sq_slice *s = &db->slices.v[*head - 1];
        *head = s->parent;
        s->parent = 0;
        if (sq_set_dur(db, s, c->ts >= s->ts ? c->ts - s->ts : 0) != 0) {
            return -1;
        }
        if (s->args == SQ_NONE) {
            s->args = c->args; /* the end's arguments, when the begin had none */
        }
        if (!*head && sq_chain_set(m, 0, owner, c->id, SQ_CHAIN_CLOSED) != 0) {
            return -1;
        }
        return 0;
    }
    if (c->type == FXT_EVENT_ASYNC_BEGIN || track == SQ_NONE) {
        if (track == SQ_NONE || c->type == FXT_EVENT_ASYNC_BEGIN) {
            uint32_t mine = sq_map_get(m, ((uint64_t)c->prov << 1), c->id, 0);
            track = mine != SQ_NONE && mine != SQ_CHAIN_CLOSED
                        ? mine
                        : sq_new_track(b, SQ_TRACK_ASYNC, c->name, SQ_NONE, db->threads.v[c->utid].upid);
            if (b->oom || sq_chain_set(m, 0, c->prov, c->id, track) != 0) {
                return -1;
            }
        }
    }
    sq_slice *s = SQ_ADD(db->slices);
    if (!s) {
        return -1;
    }
    s->ts = c->ts;
    s->dur = c->type == FXT_EVENT_ASYNC_BEGIN ? SQ_DUR_OPEN : 0;
    s->name = c->name;
    s->key = sq_slice_key(b, track, c->cat);
    s->args = c->args;
    s->parent = 0;
    s->depth = 0;
    s->type = c->type & 15u;
    if (c->type == FXT_EVENT_ASYNC_BEGIN) {
        uint32_t *head = &b->open.v[track - b->first_track];
        s->parent = *head;
        *head = (uint32_t)db->slices.n;
    } else if (!open && sq_chain_set(m, 0, c->prov, c->id, SQ_CHAIN_CLOSED) != 0) {
        return -1; /* an instant without a begin: its own track, not an open chain */
    }
    return 0;
}

static int sq_async(sq_build *b) {
    uint32_t *ord = sq_order_by_ts(b->async.v, sizeof *b->async.v, b->async.n);
    sq_map m = {0};
    int rc = ord ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < b->async.n; i++) {
        rc = sq_async_point(b, &m, &b->async.v[ord[i]]);
    }
    sq_map_free(&m);
    free(ord);
    return rc;
}

/* ---- slice ids and nesting --------------------------------------------------------------- */

static int sq_slice_before(const sq_db *db, const sq_slice *a, const sq_slice *b) {
    if (a->ts != b->ts) {
        return a->ts < b->ts;
    }
    /* same start: the longer one first (it encloses); still open counts as longest */
    int64_t a_dur = sq_slice_dur(db, a), b_dur = sq_slice_dur(db, b);
    uint64_t da = a_dur < 0 ? UINT64_MAX : (uint64_t)a_dur, dbb = b_dur < 0 ? UINT64_MAX : (uint64_t)b_dur;
    return da > dbb;
}

/* A run of equal start times, longer first, stable: a radix sort on the durations (no
 * comparator with global state: connections in other threads may be sorting too). */
static int sq_sort_run(const sq_db *db, const sq_slice *s, uint32_t *ord, size_t n) {
    uint64_t *keys = malloc(n * sizeof *keys);
    uint32_t *perm = malloc(n * sizeof *perm), *copy = malloc(n * sizeof *copy);
    int rc = keys && perm && copy ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const sq_slice *e = &s[ord[i]];
        int64_t dur = sq_slice_dur(db, e);
        keys[i] = dur < 0 ? 0 : UINT64_MAX - (uint64_t)dur; /* open first, then longest */
        copy[i] = ord[i];
    }
    rc = rc == 0 ? sq_sort_u64(keys, n, perm) : rc;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        ord[i] = copy[perm[i]];
    }
    free(keys);
    free(perm);
    free(copy);
    return rc;
}

/* Equal-ts runs of the time order, longer first: insertion sort for short runs. */
static int sq_fix_runs(const sq_db *db, const sq_slice *s, uint32_t *ord, size_t n) {
    size_t i = 0;
    while (i < n) {
        size_t j = i + 1;
        while (j < n && s[ord[j]].ts == s[ord[i]].ts) {
            j++;
        }
        if (j - i > 32) {
            if (sq_sort_run(db, s, ord + i, j - i) != 0) {
                return -1;
            }
        } else {
            for (size_t k = i + 1; k < j; k++) {
                uint32_t v = ord[k];
                size_t m = k;
                while (m > i && sq_slice_before(db, &s[v], &s[ord[m - 1]])) {
                    ord[m] = ord[m - 1];
                    m--;
                }
                ord[m] = v;
            }
        }
        i = j;
    }
    return 0;
}

/* Merge the in-order slices (those not in bidx, already sorted) with the others (bidx, in
 * the order `bord`) into out: by time, then by file order. */
static void sq_merge(const sq_slice *s, size_t n, const uint32_t *bidx, const uint32_t *bord, size_t nb,
                     uint32_t *out) {
    size_t a = 0, skip = 0, j = 0, k = 0;
    for (;;) {
        while (a < n && skip < nb && a == bidx[skip]) { /* a is one of the others */
            a++;
            skip++;
        }
        if (a >= n && j >= nb) {
            break;
        }
        uint32_t o = j < nb ? bidx[bord[j]] : 0;
        if (j >= nb || (a < n && (s[a].ts < s[o].ts || (s[a].ts == s[o].ts && a < o)))) {
            out[k++] = (uint32_t)a++;
        } else {
            out[k++] = o;
            j++;
        }
    }
}

/* Slice ids in time order: out[id - first_slice] = the slice's row (in file order). Most
 * slices come in time order (begins); only the others (complete events written after their
 * children: b->ooo, noted during the read; async slices, appended from `tail`) are sorted, then
 * merged in. */
static int sq_sort_slices(sq_build *b, uint32_t *out, size_t tail) {
    sq_db *db = b->db;
    size_t n = db->slices.n - b->first_slice, nb = b->ooo.n;
    const sq_slice *s = n ? db->slices.v + b->first_slice : NULL;
    int64_t runmax = b->runmax;
    for (size_t i = tail - b->first_slice; i < n; i++) {
        nb += s[i].ts < runmax;
        runmax = s[i].ts > runmax ? s[i].ts : runmax;
    }
    uint32_t *bidx = malloc((nb ? nb : 1) * sizeof *bidx), *bord = malloc((nb ? nb : 1) * sizeof *bord);
    uint64_t *keys = malloc((nb ? nb : 1) * sizeof *keys);
    int rc = bidx && bord && keys ? 0 : -1;
    size_t j = 0;
    for (; rc == 0 && j < b->ooo.n; j++) {
        bidx[j] = b->ooo.v[j];
        keys[j] = (uint64_t)s[bidx[j]].ts;
    }
    runmax = b->runmax;
    for (size_t i = tail - b->first_slice; rc == 0 && i < n; i++) {
        if (s[i].ts < runmax) {
            keys[j] = (uint64_t)s[i].ts;
            bidx[j++] = (uint32_t)i;
        }
        runmax = s[i].ts > runmax ? s[i].ts : runmax;
    }
    SQ_FREE(b->ooo);
    rc = rc == 0 ? sq_sort_u64(keys, nb, bord) : rc;
    free(keys);
    if (rc == 0) {
        sq_merge(s, n, bidx, bord, nb, out);
        rc = sq_fix_runs(db, s, out, n);
    }
    if (rc == 0) {
        for (size_t i = 0; i < n; i++) {
            out[i] += (uint32_t)b->first_slice;
        }
    }
    free(bidx);
    free(bord);
    return rc;
}

/* Durations of 2^32-2 ns and more are found by row: the rows of this trace become ids. */
static int sq_rekey_long(sq_db *db, size_t first, const uint32_t *row, size_t n) {
    if (db->long_row.n == 0) {
        return 0;
    }
    sq_map m = {0};
    int rc = 0;
    for (size_t e = 0; rc == 0 && e < db->long_row.cap; e++) { /* earlier traces' stay */
        const sq_mapent *x = &db->long_row.e[e];
        if (x->val != SQ_NONE && x->k[0] < first) {
            rc = sq_map_put(&m, x->k[0], 0, 0, x->val);
        }
    }
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (db->slices.v[row[i]].dur == SQ_DUR_LONG) {
            rc = sq_map_put(&m, first + i, 0, 0, sq_map_get(&db->long_row, row[i], 0, 0));
        }
    }
    if (rc != 0) {
        sq_map_free(&m);
        return -1;
    }
    sq_map_free(&db->long_row);
    db->long_row = m;
    return 0;
}

/* Apply `row` to the first k slices from `first` in place: the slice at row[j] goes to first + j
 * (rows in [first, first + k)). The slices moved are complete events written after their
 * children: short local cycles. */
static int sq_permute(sq_slice *s, size_t first, const uint32_t *row, size_t k) {
    unsigned char *done = calloc(k / 8 + 1, 1);
    if (!done) {
        return -1;
    }
    for (size_t i = 0; i < k; i++) {
        if (row[i] == first + i || (done[i / 8] >> (i % 8)) & 1u) {
            continue;
        }
        sq_slice held = s[first + i];
        for (size_t j = i;;) {
            done[j / 8] |= (unsigned char)(1u << (j % 8));
            size_t from = row[j] - first; /* the slice that goes to j */
            if (from == i) {
                s[first + j] = held;
                break;
            }
            s[first + j] = s[first + from];
            j = from;
        }
    }
    free(done);
    return 0;
}

/* Put the trace's slices in id order, in place: the slice of id first + i is at row[i]
 * (overwritten). The async slices (rows from `tail`, appended after the read) are set aside in
 * id order, the others put in order at the front (local moves), then one backward pass
 * spreads them out and drops the async ones into their places: streaming, no second copy of
 * the slices. Then a slice's row is its id. */
static int sq_place_slices(sq_build *b, uint32_t *row, size_t tail) {
    sq_db *db = b->db;
    size_t first = b->first_slice, n = db->slices.n - first, nt = db->slices.n - tail, k = 0, a = 0;
    unsigned char *is_tail = calloc(n / 8 + 1, 1);
    sq_slice *held = malloc((nt ? nt : 1) * sizeof *held), *s = db->slices.v;
    int rc = is_tail && held ? sq_rekey_long(db, first, row, n) : -1;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (row[i] >= tail) {
            is_tail[i / 8] |= (unsigned char)(1u << (i % 8));
            held[a++] = s[row[i]];
        } else {
            row[k++] = row[i];
        }
    }
    rc = rc == 0 ? sq_permute(s, first, row, k) : rc;
    for (size_t i = n; rc == 0 && a > 0 && i-- > 0;) {
        s[first + i] = (is_tail[i / 8] >> (i % 8)) & 1u ? held[--a] : s[first + --k];
    }
    free(is_tail);
    free(held);
    return rc;
}

#define SQ_SL(db, id) (&(db)->slices.v[id])

/* A slice's end for nesting: open slices never end. */
static uint64_t sq_end(const sq_db *db, const sq_slice *s) {
    int64_t dur = s->dur < SQ_DUR_OPEN ? s->dur : sq_slice_dur(db, s);
    return dur < 0 ? UINT64_MAX : (uint64_t)s->ts + (uint64_t)dur;
}

/* A slice that may still enclose later ones, on its track's stack: the stacks live in one small
 * pool, not in the slices' parent links, so popping never reads an old slice back from the big
 * array (a cache miss each, most of the nesting's time). */
typedef struct sq_open_sl {
    int64_t ts;
    uint64_t end;
    uint32_t id, depth, below; /* below: the node under it, SQ_NONE at the bottom */
} sq_open_sl;

/* The deepest slice of a stack (node `top`, then down) enclosing time t (ts <= t < end), or
 * SQ_NONE. */
static uint32_t sq_enclosing(const sq_open_sl *pool, uint32_t top, int64_t t) {
    while (top != SQ_NONE) {
        const sq_open_sl *e = &pool[top];
        if (e->ts <= t && (uint64_t)t < e->end) {
            return e->id;
        }
        top = e->below;
    }
    return SQ_NONE;
}

/*
 * Depth and parent of every slice of the trace, in one pass over the ids in time order; flow
 * points (in time order, `flord`) bind to the slice of their thread's track enclosing them,
 * after the slices that start at or before them. Each track has a stack of the slices that
 * may still enclose (a slice pops the ones that end before it does); zero-duration slices
 * never enclose.
 */
static int sq_nest(sq_build *b, const uint32_t *flord) {
    sq_db *db = b->db;
    size_t n = b->slice_end - b->first_slice, ntr = b->track_end - b->first_track, nfl = b->flows.n;
    uint32_t *top = malloc((ntr ? ntr : 1) * sizeof *top), ft = (uint32_t)b->first_track, spare = SQ_NONE;
    SQ_VEC(sq_open_sl) pool = {0};
    if (!top) {
        return -1;
    }
    for (size_t t = 0; t < ntr; t++) {
        top[t] = SQ_NONE;
    }
    size_t f = 0;
    int rc = 0;
    for (size_t i = 0; i <= n && rc == 0; i++) {
        uint32_t id = (uint32_t)(b->first_slice + i);
        sq_slice *c = i < n ? SQ_SL(db, id) : NULL;
        for (; f < nfl && (!c || b->flows.v[flord[f]].ts < c->ts); f++) {
            sq_flowpt *fp = &b->flows.v[flord[f]];
            fp->slice = sq_enclosing(pool.v, top[db->threads.v[fp->utid].track - ft], fp->ts);
        }
        if (!c) {
            break;
        }
        uint32_t *t = &top[db->skeys.v[c->key].track - ft];
        uint64_t end = sq_end(db, c);
        while (*t != SQ_NONE && pool.v[*t].end < end) { /* it ended: its node is spare */
            uint32_t x = *t;
            *t = pool.v[x].below;
            pool.v[x].below = spare;
            spare = x;
        }
        unsigned depth = *t == SQ_NONE ? 0 : pool.v[*t].depth;
        c->depth = *t == SQ_NONE ? 0 : depth < SQ_MAX_DEPTH ? depth + 1 : SQ_MAX_DEPTH;
        c->parent = *t == SQ_NONE ? SQ_NONE : pool.v[*t].id;
        if (c->dur == 0) {
            continue;
        }
        uint32_t x = spare;
        if (x != SQ_NONE) {
            spare = pool.v[x].below;
        } else if (SQ_ADD(pool) && pool.n < SQ_NONE) {
            x = (uint32_t)(pool.n - 1);
        } else {
            rc = -1;
            break;
        }
        pool.v[x].ts = c->ts;
        pool.v[x].end = end;
        pool.v[x].id = id;
        pool.v[x].depth = c->depth;
        pool.v[x].below = *t;
        *t = x;
    }
    SQ_FREE(pool);
    free(top);
    return rc;
}

/* Flow rows: consecutive bound points of a chain, in time order (chain-id rule). */
#define SQ_CHAIN_UNBOUND (SQ_NONE - 2)
static int sq_flow_rows(sq_build *b, const uint32_t *flord) {
    sq_map m = {0};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < b->flows.n; i++) {
        const sq_flowpt *c = &b->flows.v[flord[i]];
        uint32_t owner = c->prov, me = c->slice == SQ_NONE ? SQ_CHAIN_UNBOUND : c->slice;
        if (c->type == FXT_EVENT_FLOW_BEGIN) {
            rc = sq_chain_set(&m, 1, c->prov, c->id, me);
            continue;
        }
        uint32_t prev = sq_chain_find(b, &m, 1, c->prov, c->id, &owner);
        if (prev == SQ_NONE) {
            continue; /* no begin */
        }
        if (prev != SQ_CHAIN_UNBOUND && c->slice != SQ_NONE) {
            sq_flow *f = SQ_ADD(b->db->flows);
            if (!f) {
                rc = -1;
                break;
            }
            f->fid = c->id;
            f->out = prev;
            f->in = c->slice;
            f->trace = b->trace;
        }
        uint32_t next = c->type == FXT_EVENT_FLOW_END ? SQ_CHAIN_CLOSED
                        : c->slice != SQ_NONE         ? c->slice
                                                      : prev;
        rc = sq_chain_set(&m, 1, owner, c->id, next);
    }
    sq_map_free(&m);
    return rc;
}

/* ---- scheduling ------------------------------------------------------------------------- */

/* sched_slice rows are made when they end: put them in time order (stable). */
static int sq_sort_rows(sq_sched *rows, size_t n) {
    uint64_t *keys = malloc((n ? n : 1) * sizeof *keys);
    uint32_t *ord = malloc((n ? n : 1) * sizeof *ord);
    sq_sched *copy = malloc((n ? n : 1) * sizeof *copy);
    int rc = keys && ord && copy ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        keys[i] = (uint64_t)rows[i].ts;
    }
    rc = rc == 0 ? sq_sort_u64(keys, n, ord) : -1;
    if (rc == 0 && n) {
        memcpy(copy, rows, n * sizeof *copy);
        for (size_t i = 0; i < n; i++) {
            rows[i] = copy[ord[i]];
        }
    }
    free(keys);
    free(ord);
    free(copy);
    return rc;
}

#define SQ_STATE_RUNNABLE SQ_STATE_WOKEN

typedef struct sq_cpu {
    uint32_t cpu, utid; /* utid SQ_NONE: idle or unknown */
    int64_t since;
    int32_t prio;
} sq_cpu;

/* Close utid's open thread_state row at t and open a new one (state, cpu, waker). */
static int sq_add_tstate(sq_build *b, uint32_t *open, uint32_t utid, int64_t t, uint32_t state, uint32_t cpu,
                         uint32_t waker) {
    sq_db *db = b->db;
    uint32_t *o = &open[utid - db->traces.v[b->trace].first_row[SQ_T_THREAD]];
    if (*o) {
        sq_tstate *prev = &db->tstates.v[*o - 1];
        prev->dur = t >= prev->ts ? t - prev->ts : 0;
    }
    sq_tstate *r = SQ_ADD(db->tstates);
    if (!r) {
        return -1;
    }
    r->ts = t;
    r->dur = -1;
    r->utid = utid;
    r->cpu = cpu;
    r->state = state;
    r->waker = waker;
    *o = (uint32_t)db->tstates.n;
    return 0;
}

typedef SQ_VEC(sq_cpu) sq_cpuvec;

static sq_cpu *sq_cpu_of(sq_cpuvec *cpus, uint32_t cpu) {
    for (size_t i = 0; i < cpus->n; i++) {
        if (cpus->v[i].cpu == cpu) {
            return &cpus->v[i];
        }
    }
    sq_cpu *c = SQ_ADD(*cpus);
    if (c) {
        c->cpu = cpu;
        c->utid = SQ_NONE;
        c->since = 0;
        c->prio = INT32_MIN;
    }
    return c;
}

static int sq_switch(sq_build *b, sq_cpu *c, uint32_t *open, const sq_swpt *w) {
    if (w->wakeup) {
        return sq_add_tstate(b, open, w->in_utid, w->ts, SQ_STATE_RUNNABLE, c->cpu, c->utid);
    }
    if (c->utid != SQ_NONE) {
        sq_sched *s = SQ_ADD(b->db->sched);
        if (!s) {
            return -1;
        }
        s->ts = c->since;
        s->dur = w->ts >= c->since ? w->ts - c->since : 0;
        s->cpu = c->cpu;
        s->utid = c->utid;
        s->end_state = w->out_state;
        s->prio = c->prio;
    }
    if (w->out_utid != SQ_NONE &&
        sq_add_tstate(b, open, w->out_utid, w->ts, w->out_state, c->cpu, SQ_NONE) != 0) {
        return -1;
    }
    c->utid = w->in_utid;
    c->since = w->ts;
    c->prio = w->in_prio;
    return sq_add_tstate(b, open, w->in_utid, w->ts, FXT_THREAD_RUNNING, c->cpu, SQ_NONE);
}

/* In time order: a cpu runs the incoming thread from a switch to the next switch on it. */
static int sq_sched_rows(sq_build *b) {
    size_t n = b->sw.n, nthr = b->db->threads.n - b->db->traces.v[b->trace].first_row[SQ_T_THREAD];
    if (n == 0) {
        return 0;
    }
    uint64_t *keys = malloc(n * sizeof *keys);
    uint32_t *ord = malloc(n * sizeof *ord);
    uint32_t *open = calloc(nthr + 1, sizeof *open);
    sq_cpuvec cpus = {{NULL}, 0, 0};
    int rc = keys && ord && open ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        keys[i] = (uint64_t)b->sw.v[i].ts;
    }
    rc = rc == 0 ? sq_sort_u64(keys, n, ord) : -1;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const sq_swpt *w = &b->sw.v[ord[i]];
        sq_cpu *c = sq_cpu_of(&cpus, w->cpu);
        rc = c ? sq_switch(b, c, open, w) : -1;
    }
    for (size_t i = 0; rc == 0 && i < cpus.n; i++) {
        if (cpus.v[i].utid != SQ_NONE) { /* still running at the end: dur -1 */
            sq_sched *s = SQ_ADD(b->db->sched);
            if (!s) {
                rc = -1;
                break;
            }
            s->ts = cpus.v[i].since;
            s->dur = -1;
            s->cpu = cpus.v[i].cpu;
            s->utid = cpus.v[i].utid;
            s->end_state = SQ_NONE;
            s->prio = cpus.v[i].prio;
        }
    }
    SQ_FREE(cpus);
    free(keys);
    free(ord);
    free(open);
    size_t first = b->db->traces.v[b->trace].first_row[SQ_T_SCHED];
    return rc == 0 && b->db->sched.n > first ? sq_sort_rows(b->db->sched.v + first, b->db->sched.n - first)
                                             : rc;
}

/* ---- names and arguments ------------------------------------------------------------------ */

/* Kernel objects name threads (koid = tid) and processes (koid = pid), in any order. */
static int sq_names(sq_build *b) {
    sq_db *db = b->db;
    const sq_trace *t = &db->traces.v[b->trace];
    for (size_t i = t->first_row[SQ_T_KOBJ]; i < db->kobjs.n; i++) {
        const sq_kobj *o = &db->kobjs.v[i];
        if (o->obj_type == FXT_OBJ_PROCESS) {
            uint32_t upid = sq_map_get(&b->procs, o->koid, 0, 0);
            if (upid != SQ_NONE) {
                db->procs.v[upid].name = o->name;
            }
        } else if (o->obj_type == FXT_OBJ_THREAD) {
            /* by (process, koid) when the object names its process, else the first of that tid */
            uint32_t utid = o->pid != UINT64_MAX ? sq_map_get(&b->threads, o->pid, o->koid, 0) : SQ_NONE;
            utid = utid != SQ_NONE ? utid : sq_map_get(&b->tids, o->koid, 0, 0);
            if (utid != SQ_NONE) {
                db->threads.v[utid].name = o->name;
            }
        }
    }
    return 0;
}

/* An END's arguments join its begin's set later in the file: they waited in b->late and move
 * in now, each after its set's other rows. One backward pass over the sets from the last one
 * (no copy of the rows): a set's rows shift up by the late rows of the sets up to it. */
int sq_group_args(sq_build *b) {
    sq_db *db = b->db;
    size_t nl = b->late.n, old = db->args.n;
    if (nl == 0) {
        return 0; /* every set's arguments came together, in set order */
    }
    uint64_t *keys = malloc(nl * sizeof *keys);
    uint32_t *ord = malloc(nl * sizeof *ord);
    void *raw = db->args.raw;
    int rc = keys && ord && old + nl < UINT32_MAX ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < nl; i++) {
        keys[i] = b->late.v[i].set;
    }
    rc = rc == 0 ? sq_sort_u64(keys, nl, ord) : rc;
    rc = rc == 0 ? sq_vgrow(&raw, &db->args.cap, old + nl, sizeof *db->args.v) : rc;
    free(keys);
    if (rc != 0) {
        free(ord);
        return -1;
    }
    db->args.raw = raw;
    db->args.n = old + nl;
    size_t dst = old + nl, src_end = old, j = nl; /* invariant: dst == src_end + j */
    uint32_t first_set = db->traces.v[b->trace].first_set;
    for (uint32_t set = b->set_end; set-- > first_set && j > 0;) {
        while (j > 0 && b->late.v[ord[j - 1]].set == set) {
            db->args.v[--dst] = b->late.v[ord[--j]].a;
        }
        size_t start = db->set_first.v[set], cnt = src_end - start;
        dst -= cnt;
        memmove(&db->args.v[dst], &db->args.v[start], cnt * sizeof *db->args.v);
        db->set_first.v[set] = (uint32_t)dst;
        src_end = start;
    }
    free(ord);
    SQ_FREE(b->late);
    return 0;
}

int sq_finish_trace(sq_build *b) {
    size_t tail = b->db->slices.n; /* the async slices come after */
    if (b->oom || sq_async(b) != 0) {
        return -1;
    }
    SQ_FREE(b->async); /* before the slices' order takes memory */
    size_t nsl = b->db->slices.n - b->first_slice;
    uint32_t *row = malloc((nsl ? nsl : 1) * sizeof *row);
    int placed = row && sq_sort_slices(b, row, tail) == 0 && sq_place_slices(b, row, tail) == 0;
    free(row);
    if (!placed) {
        return -1;
    }
    /* the nesting waits until a statement uses it (sq_nest_pending): it keeps the flow points */
    struct sq_nest_state *ns = calloc(1, sizeof *ns);
    if (!ns) {
        return -1;
    }
    ns->first_slice = b->first_slice;
    ns->slice_end = b->db->slices.n;
    ns->first_track = b->first_track;
    ns->track_end = b->db->tracks.n;
    ns->nprovs = b->provs.n;
    ns->flows = b->flows; /* moved: the build frees its own when it ends */
    memset(&b->flows, 0, sizeof b->flows);
    b->db->traces.v[b->trace].nest = ns;
    int rc = sq_sched_rows(b);
    rc = rc == 0 ? sq_names(b) : rc;
    rc = rc == 0 ? sq_group_args(b) : rc;
    return rc == 0 && !b->oom ? 0 : -1;
}

void sq_nest_state_free(struct sq_nest_state *n) {
    if (n) {
        SQ_FREE(n->flows);
        free(n);
    }
}

/* The nesting of trace i, from what its read kept. */
static int sq_nest_trace(sq_db *db, uint32_t i) {
    struct sq_nest_state *ns = db->traces.v[i].nest;
    sq_build b;
    memset(&b, 0, sizeof b);
    b.db = db;
    b.trace = i;
    b.first_slice = ns->first_slice;
    b.slice_end = ns->slice_end;
    b.first_track = ns->first_track;
    b.track_end = ns->track_end;
    b.provs.n = ns->nprovs; /* sq_chain_find looks at the providers' numbers only */
    b.flows = ns->flows;    /* borrowed: freed with ns */
    size_t flows_before = db->flows.n;
    db->traces.v[i].first_row[SQ_T_FLOW] = flows_before;
    uint32_t *flord = sq_order_by_ts(b.flows.v, sizeof *b.flows.v, b.flows.n);
    int rc = flord ? 0 : -1;
    rc = rc == 0 ? sq_nest(&b, flord) : rc;
    rc = rc == 0 ? sq_flow_rows(&b, flord) : rc;
    free(flord);
    if (rc != 0) {
        db->flows.n = flows_before; /* tried again on the next use */
        return -1;
    }
    sq_nest_state_free(ns);
    db->traces.v[i].nest = NULL;
    return 0;
}

int sq_nest_pending(sq_db *db) {
    for (uint32_t i = 0; i < db->traces.n; i++) {
        if (db->traces.v[i].nest && sq_nest_trace(db, i) != 0) {
            return -1;
        }
    }
    return 0;
}
