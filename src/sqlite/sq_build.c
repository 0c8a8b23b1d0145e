/* SPDX-License-Identifier: MIT */
/*
 * libfxt_sqlite: read one trace in one sequential pass into the column arrays of sq_db.
 * Per record: no allocation beyond amortized array growth; strings and threads resolved
 * through per-provider caches indexed by their refs, so a record costs a few array stores.
 */
#include "sq_build.h"

#ifdef FXT_HAVE_ZIO
#include <fxt/zio.h>
#endif

#include <fxt/format.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SQ_CHUNK (4u << 20)

/* ---- providers, strings, threads --------------------------------------------------------- */

/* The per-record helpers are a small inline fast path (the current provider, a cached string or
 * thread) and an out-of-line rest: a call per record and string cost a tenth of the read. */
static sq_pstate *sq_prov_find(sq_build *b, uint32_t id);
static inline sq_pstate *sq_prov(sq_build *b, uint32_t id) {
    if (b->cur < b->provs.n && b->provs.v[b->cur].id == id) {
        return &b->provs.v[b->cur];
    }
    return sq_prov_find(b, id);
}

static sq_pstate *sq_prov_find(sq_build *b, uint32_t id) {
    for (size_t i = 0; i < b->provs.n; i++) {
        if (b->provs.v[i].id == id) {
            b->cur = i;
            return &b->provs.v[i];
        }
    }
    sq_pstate *p = SQ_ADD(b->provs);
    if (p && b->args_only) { /* the first read made the provider rows: only the string cache */
        memset(p, 0, sizeof *p);
        p->id = id;
        b->cur = b->provs.n - 1;
        return p;
    }
    sq_provider *row = p ? SQ_ADD(b->db->provs) : NULL;
    if (!row) {
        b->oom = 1;
        return NULL;
    }
    memset(p, 0, sizeof *p);
    memset(row, 0, sizeof *row);
    p->id = id;
    p->tps = 1000000000u;
    p->row = (uint32_t)(b->db->provs.n - 1);
    row->id = id;
    row->name = SQ_NONE;
    row->tps = p->tps;
    row->trace = b->trace;
    b->cur = b->provs.n - 1;
    return p;
}

static uint32_t sq_cstr(sq_build *b, const char *p, size_t len) {
    uint32_t id = sq_intern(&b->db->str, p, len);
    if (id == SQ_NONE) {
        b->oom = 1;
        return 0;
    }
    return id;
}

/* A decoded string's id: indexed refs through the provider's cache. */
static uint32_t sq_str_slow(sq_build *b, sq_pstate *p, const fxt_str_t *s);
static inline uint32_t sq_str(sq_build *b, sq_pstate *p, const fxt_str_t *s) {
    unsigned ref = s->ref;
    if (ref != 0 && !(ref & 0x8000u) && !s->unresolved && p->scache && p->scache[ref]) {
        return p->scache[ref] - 1;
    }
    return sq_str_slow(b, p, s);
}

static uint32_t sq_str_slow(sq_build *b, sq_pstate *p, const fxt_str_t *s) {
    unsigned ref = s->ref;
    if (ref == 0 || (ref & 0x8000u) || s->unresolved) {
        return sq_cstr(b, s->ptr, s->len);
    }
    if (!p->scache) {
        p->scache = calloc(0x8000u, sizeof *p->scache);
        if (!p->scache) {
            b->oom = 1;
            return 0;
        }
    }
    if (!p->scache[ref]) {
        p->scache[ref] = sq_cstr(b, s->ptr, s->len) + 1;
    }
    return p->scache[ref] - 1;
}

static uint32_t sq_upid(sq_build *b, uint64_t pid) {
    uint32_t upid = sq_map_get(&b->procs, pid, 0, 0);
    if (upid != SQ_NONE) {
        return upid;
    }
    sq_process *pr = SQ_ADD(b->db->procs);
    upid = (uint32_t)(b->db->procs.n - 1);
    if (!pr || sq_map_put(&b->procs, pid, 0, 0, upid) != 0) {
        b->oom = 1;
        return SQ_NONE;
    }
    pr->pid = pid;
    pr->name = SQ_NONE;
    pr->trace = b->trace;
    return upid;
}

static uint32_t sq_new_thread(sq_build *b, uint64_t pid, uint64_t tid, int has_pid) {
    sq_thread *t = SQ_ADD(b->db->threads);
    uint32_t utid = (uint32_t)(b->db->threads.n - 1);
    if (!t || (has_pid && sq_map_put(&b->threads, pid, tid, 0, utid) != 0) ||
        (sq_map_get(&b->tids, tid, 0, 0) == SQ_NONE && sq_map_put(&b->tids, tid, 0, 0, utid) != 0)) {
        b->oom = 1;
        return 0;
    }
    t->tid = tid;
    t->pid = pid;
    t->name = SQ_NONE;
    t->upid = has_pid ? sq_upid(b, pid) : SQ_NONE;
    t->track = SQ_NONE;
    t->trace = b->trace;
    return utid;
}

/* The utid of (pid, tid): a thread first met by tid alone (scheduling) takes the pid. */
static uint32_t sq_utid_of(sq_build *b, uint64_t pid, uint64_t tid) {
    unsigned h = (unsigned)((tid * 0x9e3779b97f4a7c15ull + pid) >> 58);
    if (b->tmemo[h].utid != SQ_NONE && b->tmemo[h].pid == pid && b->tmemo[h].tid == tid) {
        return b->tmemo[h].utid;
    }
    uint32_t utid = sq_map_get(&b->threads, pid, tid, 0);
    if (utid != SQ_NONE) {
        b->tmemo[h].pid = pid;
        b->tmemo[h].tid = tid;
        b->tmemo[h].utid = utid;
        return utid;
    }
    utid = sq_map_get(&b->tids, tid, 0, 0);
    if (utid != SQ_NONE && b->db->threads.v[utid].upid == SQ_NONE) {
        sq_thread *t = &b->db->threads.v[utid];
        t->pid = pid;
        t->upid = sq_upid(b, pid);
        if (sq_map_put(&b->threads, pid, tid, 0, utid) != 0) {
            b->oom = 1;
        }
        return utid;
    }
    return sq_new_thread(b, pid, tid, 1);
}

/* The utid of a tid alone (context switches): the first thread of that tid, or a new one. */
static uint32_t sq_utid_tid(sq_build *b, uint64_t tid) {
    uint32_t utid = sq_map_get(&b->tids, tid, 0, 0);
    return utid != SQ_NONE ? utid : sq_new_thread(b, 0, tid, 0);
}

static inline uint32_t sq_utid(sq_build *b, sq_pstate *p, const fxt_thread_ref_t *t) {
    unsigned ref = t->ref;
    if (ref >= 1 && ref <= 255 && t->resolved) {
        if (!p->tcache[ref]) {
            p->tcache[ref] = sq_utid_of(b, t->pid, t->tid) + 1;
        }
        return p->tcache[ref] - 1;
    }
    return sq_utid_of(b, t->pid, t->tid);
}

uint32_t sq_new_track(sq_build *b, uint32_t kind, uint32_t name, uint32_t utid, uint32_t upid) {
    sq_db *db = b->db;
    sq_track *t = SQ_ADD(db->tracks);
    uint32_t id = (uint32_t)(db->tracks.n - 1);
    uint32_t *slot = !t                        ? NULL
                     : kind == SQ_TRACK_THREAD ? SQ_ADD(db->thread_tracks)
                     : kind == SQ_TRACK_ASYNC  ? SQ_ADD(db->process_tracks)
                                               : SQ_ADD(db->counter_tracks);
    uint32_t *open = slot ? SQ_ADD(b->open) : NULL;
    uint32_t *tkey = open ? SQ_ADD(b->tkey) : NULL;
    if (!tkey) {
        b->oom = 1;
        return 0;
    }
    *slot = id;
    *open = 0;
    *tkey = SQ_NONE;
    t->kind = kind;
    t->name = name;
    t->utid = utid;
    t->upid = upid;
    t->trace = b->trace;
    return id;
}

uint32_t sq_thread_track_new(sq_build *b, uint32_t utid) {
    uint32_t id = sq_new_track(b, SQ_TRACK_THREAD, SQ_NONE, utid, SQ_NONE);
    b->db->threads.v[utid].track = id;
    return b->db->threads.v[utid].track;
}

static uint32_t sq_new_skey(sq_build *b, uint32_t track, uint32_t cat, int in_map) {
    sq_skey *k = SQ_ADD(b->db->skeys);
    uint32_t key = (uint32_t)(b->db->skeys.n - 1);
    if (!k || key >= SQ_NONE - 1 || (in_map && sq_map_put(&b->skeys, track, cat, 0, key) != 0)) {
        b->oom = 1;
        return 0;
    }
    k->track = track;
    k->cat = cat;
    return key;
}

uint32_t sq_slice_key_new(sq_build *b, uint32_t track, uint32_t cat) {
    unsigned h = sq_skmemo_slot(track, cat);
    /* a track's keys go in the map once it has two (every async chain is a track with one) */
    uint32_t *last = &b->tkey.v[track - b->first_track];
    uint32_t key = *last;
    if (key == SQ_NONE) {
        key = sq_new_skey(b, track, cat, 0);
    } else if (b->db->skeys.v[key].cat != cat) {
        if (sq_map_put(&b->skeys, track, b->db->skeys.v[key].cat, 0, key) != 0) {
            b->oom = 1;
            return 0;
        }
        key = sq_map_get(&b->skeys, track, cat, 0);
        key = key != SQ_NONE ? key : sq_new_skey(b, track, cat, 1);
    }
    *last = key;
    b->skmemo[h].track = track;
    b->skmemo[h].cat = cat;
    b->skmemo[h].key = key;
    return key;
}

/* ---- arguments ------------------------------------------------------------------------- */

static void sq_arg_value(sq_build *b, sq_pstate *p, const fxt_arg_t *a, sq_arg *o) {
    int64_t i = 0;
    double d = 0;
    switch (a->type) {
    case FXT_ARG_NULL:
        o->vtype = SQ_V_NULL;
        break;
    case FXT_ARG_INT32:
        o->vtype = SQ_V_INT, i = a->v.i32;
        break;
    case FXT_ARG_UINT32:
        o->vtype = SQ_V_INT, i = a->v.u32;
        break;
    case FXT_ARG_INT64:
        o->vtype = SQ_V_INT, i = a->v.i64;
        break;
    case FXT_ARG_UINT64:
        o->vtype = SQ_V_UINT, i = (int64_t)a->v.u64;
        break;
    case FXT_ARG_DOUBLE:
        o->vtype = SQ_V_REAL, d = a->v.f64;
        break;
    case FXT_ARG_STRING:
        o->vtype = SQ_V_STRING, i = sq_str(b, p, &a->str);
        break;
    case FXT_ARG_POINTER:
        o->vtype = SQ_V_POINTER, i = (int64_t)a->v.pointer;
        break;
    case FXT_ARG_KOID:
        o->vtype = SQ_V_KOID, i = (int64_t)a->v.koid;
        break;
    case FXT_ARG_BOOL:
        o->vtype = SQ_V_BOOL, i = a->v.boolean != 0;
        break;
    default:
        o->vtype = SQ_V_UNKNOWN, i = a->type;
        break;
    }
    if (o->vtype == SQ_V_REAL) {
        memcpy(o->v, &d, sizeof d);
    } else {
        memcpy(o->v, &i, sizeof i);
    }
}

/* The number of arguments a record has, from its header: the same whether the reader decoded
 * them (FXT_READ_LAZY_ARGS leaves rec->nargs 0), so both reads of a trace agree on it. Only the
 * kinds whose arguments are rows of `args`. */
static unsigned sq_hdr_nargs(const fxt_record_t *rec) {
    switch (rec->kind) {
    case FXT_KIND_EVENT:
        return (unsigned)fxt_get_event_nargs(rec->header);
    case FXT_KIND_KERNEL_OBJECT:
        return (unsigned)fxt_get_kobj_nargs(rec->header);
    case FXT_KIND_USERSPACE_OBJECT:
        return (unsigned)fxt_get_uobj_nargs(rec->header);
    /* every kind named (-Wswitch-enum): a new kind with arguments for `args` belongs above */
    case FXT_KIND_MAGIC:
    case FXT_KIND_PROVIDER_INFO:
    case FXT_KIND_PROVIDER_SECTION:
    case FXT_KIND_PROVIDER_EVENT:
    case FXT_KIND_TRACE_INFO:
    case FXT_KIND_INIT:
    case FXT_KIND_STRING:
    case FXT_KIND_THREAD:
    case FXT_KIND_BLOB:
    case FXT_KIND_CONTEXT_SWITCH:
    case FXT_KIND_THREAD_WAKEUP:
    case FXT_KIND_LEGACY_CONTEXT_SWITCH:
    case FXT_KIND_LOG:
    case FXT_KIND_LARGE_BLOB:
    case FXT_KIND_UNKNOWN:
    default:
        return 0;
    }
}

/* A new arg set, its rows from the next row of args (none yet in a lazy read). SQ_NONE out of
 * memory or rows. */
static uint32_t sq_new_set(sq_build *b) {
    sq_db *db = b->db;
    if (db->args.n >= UINT32_MAX - 0x10000u || db->nsets >= SQ_NONE - 1) {
        b->limit = 1;
        return SQ_NONE;
    }
    uint32_t *first = b->lazy ? NULL : SQ_ADD(db->set_first);
    if (!b->lazy && !first) {
        b->oom = 1;
        return SQ_NONE;
    }
    if (first) {
        *first = (uint32_t)db->args.n;
    }
    return db->nsets++;
}

/* Append the record's decoded arguments to arg set `set`: to args when it is the newest set,
 * else to b->late (an end's arguments joining its begin's: sq_group_args moves them in). */
static void sq_arg_rows(sq_build *b, sq_pstate *p, const fxt_record_t *rec, uint32_t set, int late) {
    for (unsigned i = 0; i < rec->nargs; i++) {
        sq_late_arg *l = late ? SQ_ADD(b->late) : NULL;
        sq_arg *o = late ? (l ? &l->a : NULL) : SQ_ADD(b->db->args);
        if (!o) {
            b->oom = 1;
            return;
        }
        if (l) {
            l->set = set;
        }
        uint32_t key = sq_str(b, p, &rec->args[i].name);
        if (key > SQ_MAX_KEY) {
            b->limit = 1; /* 2^28 distinct strings: memory gives out first in practice */
            key = 0;
        }
        o->key = key & SQ_MAX_KEY;
        sq_arg_value(b, p, &rec->args[i], o);
    }
}

/* Give the record's arguments arg set `set` (SQ_NONE: a new one). Returns the set. A lazy read
 * numbers the set and notes how (b->acode, sq_trace.ajoin); the rows come in the second read. */
static uint32_t sq_args(sq_build *b, sq_pstate *p, const fxt_record_t *rec, uint32_t set) {
    if (sq_hdr_nargs(rec) == 0) {
        return set;
    }
    int late = 0;
    if (set == SQ_NONE) {
        set = sq_new_set(b);
        if (set == SQ_NONE) {
            return SQ_NONE;
        }
        b->acode = 1;
    } else {
        late = set + 1 != b->db->nsets;
        b->acode = 2;
        uint32_t *j = b->lazy ? SQ_ADD(b->db->traces.v[b->trace].ajoin) : NULL;
        if (b->lazy && !j) {
            b->oom = 1;
            return set;
        }
        if (j) {
            *j = set;
        }
    }
    if (!b->lazy) {
        sq_arg_rows(b, p, rec, set, late);
    }
    return set;
}

/* The second read of a lazily read trace: the rows of the record's arguments, in the set the
 * first read gave them. A record the first read did not see the same way means the file is
 * not the one it read (b->mismatch). */
static void sq_record_args(sq_build *b, sq_pstate *p, const fxt_record_t *rec) {
    if (rec->kind == FXT_KIND_STRING) {
        if (p->scache) {
            p->scache[rec->u.string.index & 0x7fffu] = 0;
        }
        return;
    }
    if (sq_hdr_nargs(rec) == 0) {
        return;
    }
    sq_db *db = b->db;
    sq_trace *t = &db->traces.v[b->trace];
    uint8_t code = b->ci < t->acode.n ? t->acode.v[b->ci] : 3;
    b->ci++;
    if (code == 1) {
        uint32_t set = (uint32_t)db->set_first.n;
        if (set >= t->set_end) {
            b->mismatch = 1;
            return;
        }
        if (db->args.n >= UINT32_MAX - 0x10000u) {
            b->limit = 1; /* as sq_new_set */
            return;
        }
        uint32_t *first = SQ_ADD(db->set_first);
        if (!first) {
            b->oom = 1;
            return;
        }
        *first = (uint32_t)db->args.n;
        sq_arg_rows(b, p, rec, set, 0);
    } else if (code == 2) {
        uint32_t set = b->ji < t->ajoin.n ? t->ajoin.v[b->ji] : SQ_NONE;
        b->ji++;
        if (set >= db->set_first.n) {
            b->mismatch = 1;
            return;
        }
        sq_arg_rows(b, p, rec, set, set + 1 != db->set_first.n);
    } else if (code != 0) {
        b->mismatch = 1;
    }
}

/* ---- events ---------------------------------------------------------------------------- */

static sq_slice *sq_add_slice(sq_build *b, int64_t ts, int64_t dur, uint32_t track, uint32_t cat,
                              uint32_t name) {
    sq_slice *s = SQ_ADD(b->db->slices);
    if (!s) {
        b->oom = 1;
        return NULL;
    }
    s->ts = ts;
    if (ts < b->runmax) { /* out of time order (a complete event after its children) */
        uint32_t *o = SQ_ADD(b->ooo);
        if (!o) {
            b->oom = 1;
        } else {
            *o = (uint32_t)(b->db->slices.n - 1 - b->first_slice);
        }
    } else {
        b->runmax = ts;
    }
    s->name = name;
    s->key = sq_slice_key(b, track, cat);
    s->dur = 0; /* not SQ_DUR_LONG: a new slice has no entry in long_dur yet */
    if (sq_set_dur(b->db, s, dur) != 0) {
        b->oom = 1;
    }
    s->args = SQ_NONE;
    s->parent = 0;
    s->depth = 0;
    s->type = 0;
    return s;
}

static void sq_counter_event(sq_build *b, sq_pstate *p, const fxt_record_t *rec, int64_t ts, uint32_t utid,
                             uint32_t name) {
    uint32_t upid = b->db->threads.v[utid].upid;
    for (unsigned i = 0; i < rec->nargs; i++) {
        const fxt_arg_t *a = &rec->args[i];
        double v;
        if (fxt_arg_number(a, &v) != FXT_OK) {
            continue; /* not a value: Perfetto skips it too */
        }
        uint32_t key = sq_str(b, p, &a->name);
        uint64_t id = rec->u.event.id;
        uint32_t tr = sq_map_get(&b->ctracks, ((uint64_t)upid << 32) | name, key, id);
        if (tr == SQ_NONE) {
            /* Perfetto's name: "<event name>:<argument name>:<counter id>" */
            const sq_strv *n = &b->db->str.tab.v[name], *k = &b->db->str.tab.v[key];
            size_t len = (size_t)n->len + k->len + 24;
            char *buf = malloc(len);
            if (!buf) {
                b->oom = 1;
                return;
            }
            int w = snprintf(buf, len, "%.*s:%.*s:%llu", (int)n->len, n->p ? n->p : "", (int)k->len,
                             k->p ? k->p : "", (unsigned long long)id);
            tr = sq_new_track(b, SQ_TRACK_COUNTER, sq_cstr(b, buf, w > 0 ? (size_t)w : 0), SQ_NONE, upid);
            free(buf);
            if (sq_map_put(&b->ctracks, ((uint64_t)upid << 32) | name, key, id, tr) != 0) {
                b->oom = 1;
            }
        }
        sq_counter *c = SQ_ADD(b->db->counters);
        if (!c) {
            b->oom = 1;
            return;
        }
        memcpy(c->ts, &ts, sizeof ts);
        memcpy(c->value, &v, sizeof v);
        c->track = tr;
    }
}

static void sq_chain_event(sq_build *b, sq_pstate *p, const fxt_record_t *rec, int64_t ts, uint32_t utid) {
    unsigned type = rec->u.event.type;
    if (type > FXT_EVENT_ASYNC_END) { /* flow: no name, category or arguments of its own */
        sq_flowpt *f = SQ_ADD(b->flows);
        if (!f) {
            b->oom = 1;
            return;
        }
        f->ts = ts;
        f->id = rec->u.event.id;
        f->prov = (uint32_t)b->cur;
        f->type = type;
        f->utid = utid;
        f->slice = SQ_NONE;
        sq_thread_track(b, utid); /* a flow binds to a slice of its thread's track */
        return;
    }
    sq_chainpt *c = SQ_ADD(b->async);
    if (!c) {
        b->oom = 1;
        return;
    }
    c->ts = ts;
    c->id = rec->u.event.id;
    c->prov = (uint32_t)b->cur;
    c->type = type;
    c->utid = utid;
    c->cat = sq_str(b, p, &rec->u.event.category);
    c->name = sq_str(b, p, &rec->u.event.name);
    c->args = sq_args(b, p, rec, SQ_NONE);
}

/* fxt/records_dropped and fxt/chunks_overwritten instants (docs/trace.md) count lost data. */
static void sq_loss_report(sq_build *b, sq_pstate *p, const fxt_record_t *rec) {
    const fxt_str_t *c = &rec->u.event.category, *n = &rec->u.event.name;
    if (c->len != 3 || memcmp(c->ptr, "fxt", 3) != 0 || rec->nargs < 1) {
        return;
    }
    uint64_t count = rec->args[0].type == FXT_ARG_UINT64 ? rec->args[0].v.u64 : 0;
    if (n->len == 15 && memcmp(n->ptr, "records_dropped", 15) == 0) {
        b->db->provs.v[p->row].dropped += count;
    }
}

static void sq_end_event(sq_build *b, sq_pstate *p, const fxt_record_t *rec, int64_t ts, uint32_t track) {
    uint32_t *head = &b->open.v[track - b->first_track];
    if (!*head) {
        return; /* an end without an open begin: ignored, as fxt stats and Perfetto do */
    }
    sq_slice *s = &b->db->slices.v[*head - 1];
    *head = s->parent;
    s->parent = 0;
    if (sq_set_dur(b->db, s, ts >= s->ts ? ts - s->ts : 0) != 0) {
        b->oom = 1;
    }
    s->args = sq_args(b, p, rec, s->args); /* Perfetto merges the end's arguments too */
}

static void sq_event(sq_build *b, sq_pstate *p, const fxt_record_t *rec) {
    unsigned type = rec->u.event.type;
    int64_t ts = sq_ticks_to_ns(rec->u.event.ts, p->tps);
    uint32_t utid = sq_utid(b, p, &rec->u.event.thread);
    b->db->provs.v[p->row].events++;
    if (type >= FXT_EVENT_ASYNC_BEGIN && type <= FXT_EVENT_FLOW_END) {
        sq_chain_event(b, p, rec, ts, utid);
        return;
    }
    uint32_t name = sq_str(b, p, &rec->u.event.name);
    if (type == FXT_EVENT_COUNTER) {
        sq_counter_event(b, p, rec, ts, utid, name);
        return;
    }
    uint32_t track = sq_thread_track(b, utid);
    if (b->oom) {
        return;
    }
    if (type == FXT_EVENT_DURATION_END) {
        sq_end_event(b, p, rec, ts, track);
        return;
    }
    int64_t dur = 0;
    if (type == FXT_EVENT_DURATION_BEGIN) {
        dur = -1;
    } else if (type == FXT_EVENT_DURATION_COMPLETE) {
        int64_t end = sq_ticks_to_ns(rec->u.event.end_ts, p->tps);
        dur = end >= ts ? end - ts : 0;
    }
    sq_slice *s = sq_add_slice(b, ts, dur, track, sq_str(b, p, &rec->u.event.category), name);
    if (!s) {
        return;
    }
    s->type = type & 15u;
    s->args = sq_args(b, p, rec, SQ_NONE);
    if (type == FXT_EVENT_DURATION_BEGIN) {
        uint32_t *head = &b->open.v[track - b->first_track];
        s->parent = *head;
        *head = (uint32_t)b->db->slices.n; /* slice index + 1 */
    } else if (type == FXT_EVENT_INSTANT) {
        sq_loss_report(b, p, rec);
    }
}

/* ---- other records ----------------------------------------------------------------------- */

static void sq_kernel_object(sq_build *b, sq_pstate *p, const fxt_record_t *rec, int user) {
    sq_kobj *o = user ? SQ_ADD(b->db->uobjs) : SQ_ADD(b->db->kobjs);
    if (!o) {
        b->oom = 1;
        return;
    }
    memset(o, 0, sizeof *o);
    o->offset = rec->offset;
    o->kind = (uint32_t)user;
    if (user) {
        o->koid = rec->u.userspace_object.ptr;
        o->pid = rec->u.userspace_object.process.pid;
        o->name = sq_str(b, p, &rec->u.userspace_object.name);
    } else {
        o->koid = rec->u.kernel_object.koid;
        o->obj_type = rec->u.kernel_object.obj_type;
        o->name = sq_str(b, p, &rec->u.kernel_object.name);
    }
    o->args = sq_args(b, p, rec, SQ_NONE);
    if (user) {
        return;
    }
    o->pid = UINT64_MAX;
    for (unsigned i = 0; i < rec->nargs; i++) {
        const fxt_arg_t *a = &rec->args[i];
        if (a->type == FXT_ARG_KOID && a->name.len == 7 && memcmp(a->name.ptr, "process", 7) == 0) {
            o->pid = a->v.koid;
        }
    }
    /* processes and threads named by objects are rows even without events (as in Perfetto) */
    if (o->obj_type == FXT_OBJ_PROCESS) {
        sq_upid(b, o->koid);
    } else if (o->obj_type == FXT_OBJ_THREAD) {
        if (o->pid != UINT64_MAX) {
            sq_utid_of(b, o->pid, o->koid);
        } else {
            sq_utid_tid(b, o->koid);
        }
    }
    sq_provider *pr = &b->db->provs.v[p->row];
    for (unsigned i = 0; i < rec->nargs && o->obj_type == FXT_OBJ_PROCESS; i++) {
        const fxt_arg_t *a = &rec->args[i];
        const fxt_str_t *k = &a->name;
        uint64_t v = a->type == FXT_ARG_UINT64 ? a->v.u64 : 0;
        if (k->len == 11 && memcmp(k->ptr, "clock_ticks", 11) == 0) {
            pr->anchor_ticks = v, pr->has_anchor = 1;
        } else if (k->len == 17 && memcmp(k->ptr, "clock_realtime_ns", 17) == 0) {
            pr->anchor_realtime_ns = v;
        } else if (k->len == 18 && memcmp(k->ptr, "clock_monotonic_ns", 18) == 0) {
            pr->anchor_mono_ns = v;
        }
    }
}

static void sq_blob_record(sq_build *b, sq_pstate *p, const fxt_record_t *rec) {
    sq_blob *o = SQ_ADD(b->db->blobs);
    if (!o) {
        b->oom = 1;
        return;
    }
    memset(o, 0, sizeof *o);
    o->ts = INT64_MIN;
    o->cat = SQ_NONE;
    o->utid = SQ_NONE;
    if (rec->kind == FXT_KIND_BLOB) {
        o->name = sq_str(b, p, &rec->u.blob.name);
        o->btype = rec->u.blob.blob_type;
        o->size = rec->u.blob.size;
        o->offset = rec->offset + (rec->u.blob.payload ? (uint64_t)(rec->u.blob.payload - rec->bytes) : 0);
        return;
    }
    o->kind = 1;
    o->btype = rec->u.large_blob.format;
    o->name = sq_str(b, p, &rec->u.large_blob.name);
    o->cat = sq_str(b, p, &rec->u.large_blob.category);
    o->size = rec->u.large_blob.size;
    o->offset =
        rec->offset + (rec->u.large_blob.payload ? (uint64_t)(rec->u.large_blob.payload - rec->bytes) : 0);
    if (rec->u.large_blob.format == FXT_LARGE_BLOB_WITH_METADATA) {
        o->ts = sq_ticks_to_ns(rec->u.large_blob.ts, p->tps);
        o->utid = sq_utid(b, p, &rec->u.large_blob.thread);
    }
}

static void sq_log_record(sq_build *b, sq_pstate *p, const fxt_record_t *rec) {
    sq_log *l = SQ_ADD(b->db->logs);
    if (!l) {
        b->oom = 1;
        return;
    }
    l->ts = sq_ticks_to_ns(rec->u.log.ts, p->tps);
    l->utid = sq_utid(b, p, &rec->u.log.thread);
    l->msg = sq_str(b, p, &rec->u.log.message);
}

static void sq_sched_record(sq_build *b, sq_pstate *p, const fxt_record_t *rec) {
    sq_swpt *w = SQ_ADD(b->sw);
    if (!w) {
        b->oom = 1;
        return;
    }
    memset(w, 0, sizeof *w);
    w->in_prio = INT32_MIN;
    if (rec->kind == FXT_KIND_THREAD_WAKEUP) {
        w->ts = sq_ticks_to_ns(rec->u.thread_wakeup.ts, p->tps);
        w->cpu = rec->u.thread_wakeup.cpu;
        w->in_utid = sq_utid_tid(b, rec->u.thread_wakeup.tid);
        w->out_utid = SQ_NONE;
        w->wakeup = 1;
    } else if (rec->kind == FXT_KIND_CONTEXT_SWITCH) {
        w->ts = sq_ticks_to_ns(rec->u.context_switch.ts, p->tps);
        w->cpu = rec->u.context_switch.cpu;
        w->out_state = rec->u.context_switch.out_state;
        w->out_utid = sq_utid_tid(b, rec->u.context_switch.out_tid);
        w->in_utid = sq_utid_tid(b, rec->u.context_switch.in_tid);
        for (unsigned i = 0; i < rec->nargs; i++) {
            const fxt_arg_t *a = &rec->args[i];
            if (a->name.len == 15 && memcmp(a->name.ptr, "incoming_weight", 15) == 0 &&
                a->type == FXT_ARG_INT32) {
                w->in_prio = a->v.i32;
            }
        }
    } else {
        w->ts = sq_ticks_to_ns(rec->u.legacy_context_switch.ts, p->tps);
        w->cpu = rec->u.legacy_context_switch.cpu;
        w->out_state = rec->u.legacy_context_switch.out_state;
        w->out_utid = sq_utid(b, p, &rec->u.legacy_context_switch.out);
        w->in_utid = sq_utid(b, p, &rec->u.legacy_context_switch.in);
        w->in_prio = (int32_t)rec->u.legacy_context_switch.in_prio;
    }
}

static void sq_meta_record(sq_build *b, sq_pstate *p, const fxt_record_t *rec) {
    if (rec->kind == FXT_KIND_PROVIDER_INFO) {
        b->db->provs.v[p->row].name = sq_str(b, p, &rec->u.provider_info.name);
    } else if (rec->kind == FXT_KIND_PROVIDER_EVENT) {
        sq_pstate *q = sq_prov(b, rec->u.provider_event.id);
        if (q && rec->u.provider_event.event == FXT_PROVIDER_EVENT_BUFFER_FULL) {
            b->db->provs.v[q->row].buffer_full++;
        }
        sq_prov(b, rec->provider); /* back to the current one */
    } else if (rec->kind == FXT_KIND_INIT) {
        sq_provider *pr = &b->db->provs.v[p->row];
        p->tps = rec->u.init.ticks_per_second;
        pr->tps = p->tps;
        if (rec->size >= 32) { /* Jane Street's 4-word form: base tick, wall-clock ns at it */
            pr->has_anchor = 1;
            pr->anchor_ticks = fxt_record_word(rec, rec->bytes, 2);
            pr->anchor_realtime_ns = fxt_record_word(rec, rec->bytes, 3);
        }
    } else if (rec->kind == FXT_KIND_STRING) {
        if (p->scache) {
            p->scache[rec->u.string.index & 0x7fffu] = 0;
        }
    } else if (rec->kind == FXT_KIND_THREAD) {
        p->tcache[rec->u.thread.index] = 0;
    }
}

/* The records whose arguments the first read uses itself: counters (their values), fxt loss
 * instants, objects (names, clock anchors), context switches (priority). Other events' arguments
 * only become rows of `args`: a lazy read leaves them to the reader's validation. */
static int sq_args_now(const fxt_record_t *rec) {
    if (rec->kind != FXT_KIND_EVENT) {
        return rec->kind != FXT_KIND_USERSPACE_OBJECT;
    }
    const fxt_str_t *c = &rec->u.event.category;
    return rec->u.event.type == FXT_EVENT_COUNTER ||
           (rec->u.event.type == FXT_EVENT_INSTANT && c->len == 3 && memcmp(c->ptr, "fxt", 3) == 0);
}

static void sq_record_kind(sq_build *b, sq_pstate *p, const fxt_record_t *rec);

static void sq_record(sq_build *b, fxt_record_t *rec) {
    sq_pstate *p = sq_prov(b, rec->provider);
    if (!p) {
        return;
    }
    if (b->args_only) {
        sq_record_args(b, p, rec);
        return;
    }
    if (b->lazy && sq_args_now(rec)) {
        fxt_reader_args(b->r, rec);
    }
    b->acode = 0;
    sq_record_kind(b, p, rec);
    if (b->lazy && sq_hdr_nargs(rec) != 0) {
        uint8_t *code = SQ_ADD(b->db->traces.v[b->trace].acode);
        if (!code) {
            b->oom = 1;
            return;
        }
        *code = b->acode;
    }
}

static void sq_record_kind(sq_build *b, sq_pstate *p, const fxt_record_t *rec) {
    b->db->provs.v[p->row].records++;
    switch (rec->kind) {
    case FXT_KIND_EVENT:
        sq_event(b, p, rec);
        break;
    case FXT_KIND_KERNEL_OBJECT:
        sq_kernel_object(b, p, rec, 0);
        break;
    case FXT_KIND_USERSPACE_OBJECT:
        sq_kernel_object(b, p, rec, 1);
        break;
    case FXT_KIND_BLOB:
    case FXT_KIND_LARGE_BLOB:
        sq_blob_record(b, p, rec);
        break;
    case FXT_KIND_LOG:
        sq_log_record(b, p, rec);
        break;
    case FXT_KIND_CONTEXT_SWITCH:
    case FXT_KIND_LEGACY_CONTEXT_SWITCH:
    case FXT_KIND_THREAD_WAKEUP:
        sq_sched_record(b, p, rec);
        break;
    /* every kind named (-Wswitch-enum): a new kind warns here */
    case FXT_KIND_MAGIC:
    case FXT_KIND_PROVIDER_INFO:
    case FXT_KIND_PROVIDER_SECTION:
    case FXT_KIND_PROVIDER_EVENT:
    case FXT_KIND_TRACE_INFO:
    case FXT_KIND_INIT:
    case FXT_KIND_STRING:
    case FXT_KIND_THREAD:
    case FXT_KIND_UNKNOWN:
    default:
        sq_meta_record(b, p, rec);
        break;
    }
}

static void sq_error_row(sq_build *b, const fxt_diag_t *d) {
    if (b->args_only) {
        return; /* the first read made the error rows */
    }
    sq_error *e = SQ_ADD(b->db->errors);
    if (!e) {
        b->oom = 1;
        return;
    }
    uint32_t prov = 0;
    e->offset = d->offset;
    e->status = (int32_t)d->status;
    e->rtype = d->record_type;
    e->msg = sq_cstr(b, d->msg, strnlen(d->msg, sizeof d->msg));
    e->provider = fxt_reader_provider(b->r, &prov) ? prov : SQ_NONE;
}

/* ---- the read -------------------------------------------------------------------------- */

/* Feed one chunk; 1 once the reader stopped (fatal error). */
static int sq_feed(sq_build *b, const void *data, size_t len) {
    fxt_in_buffer_t in = {data, len, 0};
    fxt_record_t rec;
    for (;;) {
        fxt_status st = fxt_reader_next(b->r, &in, &rec);
        if (st == FXT_OK) {
            b->records++;
            sq_record(b, &rec);
            continue;
        }
        if (st == FXT_NEED_INPUT) {
            return 0;
        }
        if (st == FXT_END) {
            return 1;
        }
        sq_error_row(b, fxt_reader_diag(b->r));
    }
}

#ifdef FXT_HAVE_ZIO
/* An error row the reader did not make: compressed input that cannot be decompressed. */
static void sq_input_error(sq_build *b, fxt_status st, const char *msg) {
    fxt_diag_t d;
    memset(&d, 0, sizeof d);
    d.status = st;
    d.offset = fxt_reader_offset(b->r);
    snprintf(d.msg, sizeof d.msg, "%s", msg);
    sq_error_row(b, &d);
}

/* gzip or zstd input (fxt_zio_detect on the first chunk): decompressed chunk by chunk. 1 once
 * the input cannot go on (fatal reader error, corrupt compressed data). */
static int sq_feed_z(sq_build *b, fxt_zdec_t *z, char *out, const char *in, size_t n) {
    size_t pos = 0, produced = 0;
    do {
        fxt_status st = fxt_zdec_run(z, in, n, &pos, out, SQ_CHUNK, &produced);
        if (st != FXT_OK) {
            sq_input_error(b, st, "compressed data is corrupt: the rest of the input is not read");
            return 1;
        }
        if (produced && sq_feed(b, out, produced)) {
            return 1;
        }
    } while (pos < n || produced == SQ_CHUNK);
    return 0;
}
#endif

typedef struct sq_input {
    char *buf, *zbuf;
#ifdef FXT_HAVE_ZIO
    fxt_zdec_t *z;
#endif
    int first, stopped;
} sq_input;

/* One chunk of the file; the first one says whether it is compressed. */
static void sq_chunk(sq_build *b, sq_input *in, size_t n) {
#ifdef FXT_HAVE_ZIO
    if (in->first && fxt_zio_detect(in->buf, n) != FXT_ZIO_NONE) {
        in->zbuf = malloc(SQ_CHUNK);
        if (!in->zbuf || fxt_zdec_create(fxt_zio_detect(in->buf, n), &in->z) != FXT_OK) {
            b->oom = 1;
            return;
        }
        b->db->traces.v[b->trace].compressed = 1;
    }
    in->first = 0;
    if (in->z) {
        in->stopped = sq_feed_z(b, in->z, in->zbuf, in->buf, n);
        return;
    }
#endif
    in->first = 0;
    in->stopped = sq_feed(b, in->buf, n);
}

static void sq_input_end(sq_build *b, sq_input *in) {
#ifdef FXT_HAVE_ZIO
    if (in->z && !in->stopped && fxt_zdec_finish(in->z) != FXT_OK) {
        sq_input_error(b, FXT_E_TRUNCATED, "the compressed stream is cut");
    }
    fxt_zdec_destroy(in->z);
#endif
    if (!in->stopped && fxt_reader_finish(b->r) != FXT_OK) {
        sq_error_row(b, fxt_reader_diag(b->r));
    }
    free(in->buf);
    free(in->zbuf);
}

static fxt_status sq_read_fd(sq_build *b, int fd, char *err, size_t cap) {
    sq_input in;
    memset(&in, 0, sizeof in);
    in.first = 1;
    in.buf = malloc(SQ_CHUNK);
    if (!in.buf) {
        return FXT_E_NOMEM;
    }
    uint64_t total = 0;
    for (;;) {
        ssize_t n = read(fd, in.buf, SQ_CHUNK);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            snprintf(err, cap, "read error: %s", strerror(errno));
            in.stopped = 1;
            sq_input_end(b, &in);
            return FXT_E_IO;
        }
        if (n == 0 || b->oom) {
            break;
        }
        total += (uint64_t)n;
        if (!in.stopped) {
            sq_chunk(b, &in, (size_t)n);
        }
    }
    sq_input_end(b, &in);
    b->db->traces.v[b->trace].bytes = total;
    return b->oom ? FXT_E_NOMEM : b->limit ? FXT_E_LIMIT : FXT_OK;
}

static void sq_build_free(sq_build *b) {
    for (size_t i = 0; i < b->provs.n; i++) {
        free(b->provs.v[i].scache);
    }
    SQ_FREE(b->provs);
    sq_map_free(&b->threads);
    sq_map_free(&b->tids);
    sq_map_free(&b->procs);
    sq_map_free(&b->ctracks);
    sq_map_free(&b->koids);
    sq_map_free(&b->skeys);
    SQ_FREE(b->open);
    SQ_FREE(b->tkey);
    SQ_FREE(b->async);
    SQ_FREE(b->flows);
    SQ_FREE(b->sw);
    SQ_FREE(b->late);
    SQ_FREE(b->ooo);
    fxt_reader_destroy(b->r);
}

/* Forget a failed trace's rows: every table back to its first row of that trace. */
static void sq_truncate(sq_db *db, const sq_trace *t) {
    db->slices.n = t->first_row[SQ_T_SLICE];
    db->skeys.n = t->first_skey;
    db->threads.n = t->first_row[SQ_T_THREAD];
    db->procs.n = t->first_row[SQ_T_PROCESS];
    db->tracks.n = t->first_row[SQ_T_TRACK];
    db->thread_tracks.n = t->first_row[SQ_T_THREAD_TRACK];
    db->process_tracks.n = t->first_row[SQ_T_PROCESS_TRACK];
    db->counter_tracks.n = t->first_row[SQ_T_COUNTER_TRACK];
    db->counters.n = t->first_row[SQ_T_COUNTER];
    db->flows.n = t->first_row[SQ_T_FLOW] < db->flows.n ? t->first_row[SQ_T_FLOW] : db->flows.n;
    db->args.n = t->first_row[SQ_T_ARGS] < db->args.n ? t->first_row[SQ_T_ARGS] : db->args.n;
    db->set_first.n = t->first_set < db->set_first.n ? t->first_set : db->set_first.n;
    db->sched.n = t->first_row[SQ_T_SCHED];
    db->tstates.n = t->first_row[SQ_T_TSTATE];
    db->logs.n = t->first_row[SQ_T_LOG];
    db->blobs.n = t->first_row[SQ_T_BLOB];
    db->kobjs.n = t->first_row[SQ_T_KOBJ];
    db->uobjs.n = t->first_row[SQ_T_UOBJ];
    db->provs.n = t->first_row[SQ_T_PROVIDER];
    db->errors.n = t->first_row[SQ_T_ERROR];
}

static sq_trace *sq_new_trace(sq_db *db, const char *path, const char *label) {
    sq_trace *t = SQ_ADD(db->traces);
    if (!t) {
        return NULL;
    }
    memset(t, 0, sizeof *t);
    t->path = strdup(path);
    t->label = sq_intern(&db->str, label ? label : path, strlen(label ? label : path));
    if (!t->path || t->label == SQ_NONE) {
        free(t->path);
        db->traces.n--;
        return NULL;
    }
    for (int i = 0; i < SQ_T_COUNT_; i++) {
        t->first_row[i] = sq_table_rows(db, i);
    }
    t->first_set = db->nsets;
    t->first_skey = db->skeys.n;
    return t;
}

static void sq_build_init(sq_build *b, sq_db *db, uint32_t trace) {
    memset(b, 0, sizeof *b);
    b->db = db;
    b->trace = trace;
    b->first_track = db->tracks.n;
    b->first_slice = db->slices.n;
    b->runmax = INT64_MIN;
    for (size_t i = 0; i < sizeof b->tmemo / sizeof b->tmemo[0]; i++) {
        b->tmemo[i].utid = SQ_NONE;
    }
    for (size_t i = 0; i < sizeof b->skmemo / sizeof b->skmemo[0]; i++) {
        b->skmemo[i].key = SQ_NONE;
    }
}

static void sq_free_pending(sq_trace *t) {
    SQ_FREE(t->acode);
    SQ_FREE(t->ajoin);
    t->args_pending = 0;
}

/* The file as a trace's first read saw it (what its second read must find again). */
static void sq_file_note(sq_trace *t, const struct stat *sb) {
    t->dev = (uint64_t)sb->st_dev;
    t->ino = (uint64_t)sb->st_ino;
    t->size = (uint64_t)sb->st_size;
    t->mtime_ns = (int64_t)sb->st_mtim.tv_sec * 1000000000 + sb->st_mtim.tv_nsec;
}
static int sq_file_same(const sq_trace *t, const struct stat *sb) {
    sq_trace now;
    sq_file_note(&now, sb);
    return now.dev == t->dev && now.ino == t->ino && now.size == t->size && now.mtime_ns == t->mtime_ns;
}

static fxt_status sq_reader(sq_build *b) {
    fxt_reader_options_t opt = FXT_READER_OPTIONS_INIT;
    opt.flags = b->lazy ? FXT_READ_LAZY_ARGS : 0;
    return fxt_reader_create(&opt, &b->r);
}

fxt_status sq_open_trace(sq_db *db, const char *path, const char *label, char *err, size_t cap) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        snprintf(err, cap, "cannot open %s: %s", path, strerror(errno));
        return FXT_E_IO;
    }
    /* a regular file can be read again for its arguments; a pipe is read once, whole, and the
     * traces before it get their rows of args first (sets in row order) */
    struct stat sb;
    int lazy = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode);
    fxt_status st = lazy ? FXT_OK : sq_load_args(db, err, cap);
    if (st != FXT_OK) {
        close(fd);
        return st;
    }
    sq_trace *t = sq_new_trace(db, path, label);
    sq_build b;
    sq_build_init(&b, db, (uint32_t)(db->traces.n - 1));
    if (t && lazy) {
        b.lazy = 1;
        sq_file_note(t, &sb);
    }
    st = t ? sq_reader(&b) : FXT_E_NOMEM;
    if (st == FXT_OK) {
        st = sq_read_fd(&b, fd, err, cap);
    }
    close(fd);
    if (st == FXT_OK) {
        b.set_end = db->nsets;
        st = sq_finish_trace(&b) == 0 ? FXT_OK : FXT_E_NOMEM;
    }
    if (st == FXT_OK) {
        sq_trace *ok = &db->traces.v[b.trace];
        ok->records = b.records;
        ok->errors = db->errors.n - ok->first_row[SQ_T_ERROR];
        ok->set_end = db->nsets;
        ok->args_pending = b.lazy && ok->set_end > ok->first_set;
        if (!ok->args_pending) {
            sq_free_pending(ok);
        }
    } else if (t) {
        sq_truncate(db, &db->traces.v[b.trace]);
        db->nsets = db->traces.v[b.trace].first_set;
        sq_free_pending(&db->traces.v[b.trace]);
        sq_nest_state_free(db->traces.v[b.trace].nest);
        free(db->traces.v[b.trace].path);
        db->traces.n--;
    }
    if (st == FXT_E_NOMEM) {
        snprintf(err, cap, "out of memory reading %s", path);
    } else if (st == FXT_E_LIMIT) {
        snprintf(err, cap, "%s: more than 2^28 distinct strings", path);
    } /* else err says it (read error, another trace's arguments) */
    sq_build_free(&b);
    db->generation++;
    return st;
}

/* The second read of trace `i`: its argument rows, after those of the traces before it. */
static fxt_status sq_args_of(sq_db *db, uint32_t i, char *err, size_t cap) {
    sq_trace *t = &db->traces.v[i];
    struct stat sb;
    int fd = open(t->path, O_RDONLY);
    if (fd < 0 || fstat(fd, &sb) != 0 || !sq_file_same(t, &sb)) {
        snprintf(err, cap, "the arguments of %s cannot be read: the file %s since fxt_open", t->path,
                 fd < 0 ? "went away" : "changed");
        if (fd >= 0) {
            close(fd);
        }
        return FXT_E_IO;
    }
    sq_build b;
    sq_build_init(&b, db, i);
    b.args_only = 1;
    b.set_end = t->set_end;
    t->first_row[SQ_T_ARGS] = db->args.n;
    /* the traces before it have their rows (sq_load_args goes in order) */
    fxt_status st = db->set_first.n == t->first_set ? sq_reader(&b) : FXT_E_STATE;
    if (st == FXT_OK) {
        st = sq_read_fd(&b, fd, err, cap);
    }
    close(fd);
    t = &db->traces.v[i];
    if (st == FXT_OK &&
        (b.mismatch || b.ci != t->acode.n || b.ji != t->ajoin.n || db->set_first.n != t->set_end)) {
        st = FXT_E_CORRUPT; /* the same bytes gave other records: not the file the first read saw */
    }
    if (st == FXT_OK && sq_group_args(&b) != 0) {
        st = FXT_E_NOMEM;
    }
    sq_build_free(&b);
    if (st == FXT_E_NOMEM) {
        snprintf(err, cap, "out of memory reading the arguments of %s", t->path);
    } else if (st == FXT_E_STATE) {
        snprintf(err, cap, "the arguments of %s: the traces before it have none (internal error)", t->path);
    } else if (st == FXT_E_LIMIT) {
        snprintf(err, cap, "the arguments of %s: more than 2^28 distinct strings", t->path);
    } else if (st == FXT_E_CORRUPT) {
        snprintf(err, cap, "the arguments of %s cannot be read: the file changed since fxt_open", t->path);
    }
    return st;
}

fxt_status sq_load_args(sq_db *db, char *err, size_t cap) {
    for (uint32_t i = 0; i < db->traces.n; i++) {
        if (!db->traces.v[i].args_pending) {
            continue;
        }
        fxt_status st = sq_args_of(db, i, err, cap);
        if (st != FXT_OK) {
            /* no trace keeps a part: the rows of this one and of any after it go */
            db->args.n = db->traces.v[i].first_row[SQ_T_ARGS];
            db->set_first.n = db->traces.v[i].first_set;
            return st;
        }
        sq_free_pending(&db->traces.v[i]);
    }
    return FXT_OK;
}
