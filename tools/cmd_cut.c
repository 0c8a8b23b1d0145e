/* SPDX-License-Identifier: MIT */
/*
 * fxt cut: a valid trace holding only the selected events (time window,
 * category and name filters). Records are re-encoded through the writer, so
 * every string and thread the kept events use is registered again in the
 * output, in the provider it belongs to; provider, initialization, kernel
 * object and userspace object records are re-emitted; duration pairs that
 * straddle the window are balanced (an end whose begin was dropped is dropped;
 * a kept begin whose end falls outside is closed at the window's end); async
 * and flow chains are matched by id and time, not file order (a continuation
 * read before its begin waits for it, bounded by MAX_PENDING).
 * Streaming: memory grows with threads, nesting depth and open chains, not trace size.
 * -j N: later ranges are decoded and selected in parallel, the merge replays what they
 * keep through the same code (see "parallel selection" below).
 */
#include <fxt/archive.h>

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_io.h"
#include "cli_map.h"
#include "cli_parallel.h"
#include "cli_trace.h"

/* Nesting tracked per thread; begins deeper than this are dropped so the output stays balanced. */
#define MAX_DEPTH 256

typedef struct prov {
    int has; /* the key: whether it is a provider section, and its id */
    uint32_t id;
    uint64_t max_ticks; /* latest event timestamp: where open chains are closed without --to */
    int announced;
    int has_init;
    uint64_t tps;
    /* The provider info name length is an 8-bit byte count (spec: Provider info metadata), so 255 fit. */
    char name[256];
    size_t name_len;
} prov_t;

typedef struct frame {
    int kept;
    char *cat, *name; /* copies, for closing kept begins at the end (buffers reused) */
    uint32_t cat_len, name_len, cat_cap, name_cap;
    uint64_t pid, tid;
} frame_t;

typedef struct tstack {
    uint32_t depth;
    int has_provider;
    uint32_t provider;
    uint64_t last_ticks; /* latest begin/end timestamp seen on this thread */
    frame_t f[MAX_DEPTH];
} tstack_t;

/* A continuation (async instant/end, flow step/end) read before its begin: writers like
 * libfxt's engine write one thread's chunks after another, so a chain begun on one thread
 * and ended on another can end earlier in the file than it begins. It waits, copied, for
 * its begin to decide whether it is kept. */
typedef struct pend {
    fxt_event_desc_t ev;
    fxt_arg_t args[FXT_MAX_ARGS];
    char *strs; /* every string of ev and args, copied */
    uint64_t offset;
} pend_t;

/* A range worker's selection of a light event record, replayed by the merge. */
#define PRE_INWIN 1
#define PRE_SELECTED 2

/* At most this many continuations wait for their begins in all (docs: fxt cut); past it
 * they are dropped and counted, so a trace of orphan ends cannot exhaust memory. */
#define MAX_PENDING 65536

/* What is known of a chain: its begin was kept, or dropped (by the filters), or only
 * continuations were read so far. */
enum { CH_KEPT = 1, CH_DROPPED, CH_WAITING };

/* An async or flow chain that is open: begun and not ended, or waiting for its begin. */
typedef struct chain {
    int used;      /* slot holds an open chain (free slots keep their string buffers) */
    int state;     /* CH_* */
    pend_t **pend; /* CH_WAITING: the continuations read so far, in file order */
    uint32_t npend, pcap;
    int early_end; /* CH_WAITING: an end was already written (begins are all kept) */
    int flow;
    int has_provider;
    uint32_t provider;
    uint64_t hash, id, pid, tid, last_ticks;
    char *cat, *name;
    uint32_t cat_len, name_len, cat_cap, name_cap;
} chain_t;

/*
 * Open chains: linear probing with backward-shift deletion, so memory follows
 * the number of chains open at once, not the number of chains in the trace
 * (a growing map would keep every async id ever seen). String buffers stay
 * with the slots and are reused: no allocation per event once warm.
 */
typedef struct chains {
    chain_t *slot;
    size_t cap, count; /* cap: 0 or a power of two */
} chains_t;

typedef struct cut {
    fxt_writer_t *w;
    fxt_status wst;
    cli_select_t sel;
    cli_map_t provs;  /* (has_provider, id) -> prov_t */
    cli_map_t stacks; /* (has_provider, provider, pid, tid) -> tstack_t */
    chains_t chains;  /* (has_provider, provider, id, flow) -> open chain */
    int out_has_provider;
    uint32_t out_provider;
    int out_started;
    uint64_t kept, dropped, closed, dropped_ends, errors, refused;
    uint64_t npending, late; /* continuations waiting for their begin; written after it */
    /* -j: the relative window's base (the first timed record's ns), shared with range workers */
    const cli_filter_t *filter;
    const char *in; /* the input's path (NULL or "-": standard input) */
    int need_base, base_known, base_pub;
    uint64_t base_ns;
    /* -j: decodes later ranges' kept records again in the merge, holding the state of the
     * records merged so far (seeded from range 0's reader, fed every state record since) */
    fxt_reader_t *mrd;
    int mrd_seeded, mrd_oom;
    /* item arrays of merged ranges, reused: growing fresh ones costs page faults and copies */
    struct item *pool[16];
    size_t pool_cap[16], npool;
    pthread_mutex_t mu;
} cut_t;

/* The provider's state, created on first sight; NULL only when out of memory. */
static prov_t *prov_of(cut_t *c, int has, uint32_t id) {
    prov_t *p = cli_map_get_u64(&c->provs, (uint64_t)has, id, 1);
    if (p && p->tps == 0) {
        p->has = has;
        p->id = id;
        /* No initialization record yet: the spec's default is 1 tick = 1 ns (spec-notes). */
        p->tps = 1000000000u;
    }
    return p;
}

/* The writer refuses a record it cannot encode (validation errors are not sticky, the
 * output stays well-formed): count it and say where it came from, so nothing is lost
 * silently. Sink errors are sticky and end the run through fxt_writer_status(). */
static void put(cut_t *c, fxt_status st, const fxt_record_t *rec) {
    if (st == FXT_OK || fxt_writer_status(c->w) != FXT_OK) {
        return;
    }
    if (++c->refused <= 10) {
        if (rec != NULL) {
            fprintf(stderr, "fxt cut: offset %" PRIu64 ": record not re-encodable: %s (dropped)\n",
                    rec->offset, fxt_status_str(st));
        } else {
            fprintf(stderr, "fxt cut: synthesized record refused: %s (dropped)\n", fxt_status_str(st));
        }
    }
}

/* Make the output's provider context the record's (announcing it on first use). */
static void ensure_context(cut_t *c, int has, uint32_t id) {
    prov_t *p = prov_of(c, has, id);
    if (p == NULL) {
        return;
    }
    /* A provider info record the first time, a provider section to switch back later:
     * the output's strings and threads then land in the provider the record belongs to. */
    if (has && (!c->out_has_provider || c->out_provider != id || !p->announced)) {
        if (!p->announced) {
            put(c, fxt_write_provider_info(c->w, id, fxt_str_n(p->name, p->name_len)), NULL);
        } else {
            put(c, fxt_write_provider_section(c->w, id), NULL);
        }
        c->out_has_provider = 1;
        c->out_provider = id;
    }
    if (!p->announced) {
        p->announced = 1;
        if (p->has_init) {
            /* The tick rate is per provider: re-emit it inside the provider, once it is announced. */
            put(c, fxt_write_init(c->w, p->tps), NULL);
        }
    }
}

/* --to in the provider's ticks; 128-bit so ns * tps cannot overflow. */
static uint64_t window_end_ticks(cut_t *c, uint64_t tps) {
    uint64_t ns = cli_select_end_ns(&c->sel);
    __extension__ typedef unsigned __int128 u128;
    u128 t = (u128)ns * tps / 1000000000u;
    return t > UINT64_MAX ? UINT64_MAX : (uint64_t)t; /* saturated: a far --to at a fast rate */
}

/* Copy s into a reusable buffer (grown only when too small). */
static void keep_str(char **buf, uint32_t *cap, uint32_t *len, fxt_str_t s) {
    uint32_t n = s.ptr ? s.len : 0;
    if (*buf == NULL || n > *cap) {
        char *p = realloc(*buf, n ? n : 1);
        if (p == NULL) {
            *len = 0; /* out of memory: the synthesized end gets an empty string */
            return;
        }
        *buf = p;
        *cap = n ? n : 1;
    }
    if (n) {
        memcpy(*buf, s.ptr, n);
    }
    *len = n;
}

/* Mixes the whole key (provider, id, flow flag) with a Fibonacci multiplier for the probe start. */
static uint64_t chain_hash(int has, uint32_t provider, uint64_t id, int flow) {
    uint64_t h = (id ^ ((uint64_t)provider << 33) ^ ((uint64_t)has << 62) ^ ((uint64_t)flow << 63)) *
                 UINT64_C(0x9e3779b97f4a7c15);
    return h ^ (h >> 29);
}

/* Linear probe from the hash's home slot; the table is at most half full, so an empty slot ends it. */
static chain_t *chain_find(chains_t *t, int has, uint32_t provider, uint64_t id, int flow, uint64_t h) {
    if (t->cap == 0) {
        return NULL;
    }
    for (size_t j = (size_t)h & (t->cap - 1);; j = (j + 1) & (t->cap - 1)) {
        chain_t *ch = &t->slot[j];
        if (!ch->used) {
            return NULL;
        }
        if (ch->hash == h && ch->id == id && ch->provider == provider && ch->has_provider == has &&
            ch->flow == flow) {
            return ch;
        }
    }
}

/* A free slot for a new chain (the caller fills it and sets used); NULL when out of memory. */
static chain_t *chain_slot(chains_t *t, uint64_t h) {
    /* Kept at most half full so probes stay short; rehash into a table twice the size. */
    if ((t->count + 1) * 2 > t->cap) {
        size_t ncap = t->cap ? t->cap * 2 : 64;
        chain_t *ns = calloc(ncap, sizeof *ns);
        if (ns == NULL) {
            return NULL;
        }
        for (size_t i = 0; i < t->cap; i++) {
            chain_t *o = &t->slot[i];
            if (!o->used) {
                /* Free slots' reusable buffers are not carried over to the new table. */
                free(o->cat);
                free(o->name);
                continue;
            }
            size_t j = (size_t)o->hash & (ncap - 1);
            while (ns[j].used) {
                j = (j + 1) & (ncap - 1);
            }
            ns[j] = *o;
        }
        free(t->slot);
        t->slot = ns;
        t->cap = ncap;
    }
    size_t j = (size_t)h & (t->cap - 1);
    while (t->slot[j].used) {
        j = (j + 1) & (t->cap - 1);
    }
    t->count++;
    return &t->slot[j];
}

/* Backward-shift deletion: later entries of the probe run move into the hole, so no
 * tombstones accumulate and chain_find can stop at the first empty slot. */
static void chain_remove(chains_t *t, chain_t *ch) {
    size_t i = (size_t)(ch - t->slot), mask = t->cap - 1;
    t->slot[i].used = 0;
    t->count--;
    for (size_t j = (i + 1) & mask; t->slot[j].used; j = (j + 1) & mask) {
        size_t k = (size_t)t->slot[j].hash & mask; /* home of the entry at j */
        /* it may move to the hole at i unless its home lies cyclically in (i, j] */
        int stays = i <= j ? (k > i && k <= j) : (k > i || k <= j);
        if (!stays) {
            chain_t tmp = t->slot[i]; /* swap: the hole keeps the moved entry's old buffers */
            t->slot[i] = t->slot[j];
            t->slot[j] = tmp;
            i = j;
        }
    }
}

/* The chain `ch` (or a new slot when NULL) set up for the event's (provider, id) in `state`;
 * NULL when out of memory. */
static chain_t *chain_fill(chains_t *t, chain_t *ch, uint64_t h, const fxt_record_t *rec, int flow,
                           int state) {
    if (ch == NULL && (ch = chain_slot(t, h)) == NULL) {
        return NULL;
    }
    ch->used = 1;
    ch->state = state;
    ch->early_end = 0;
    ch->hash = h;
    ch->flow = flow;
    ch->has_provider = rec->has_provider;
    ch->provider = rec->provider;
    ch->id = rec->u.event.id;
    ch->pid = rec->u.event.thread.pid;
    ch->tid = rec->u.event.thread.tid;
    ch->last_ticks = rec->u.event.ts;
    return ch;
}

/* Writes a synthesized duration end for a kept begin, from the frame's saved strings. */
static void write_end(cut_t *c, const tstack_t *st, const frame_t *f, uint64_t ticks) {
    ensure_context(c, st->has_provider, st->provider);
    put(c,
        fxt_write_duration_end(c->w, ticks, fxt_thread(f->pid, f->tid), fxt_str_n(f->cat, f->cat_len),
                               fxt_str_n(f->name, f->name_len), NULL, 0),
        NULL);
}

/* Copies a continuation so it can be written once its begin is read; NULL when out of memory. */
static pend_t *pend_copy(const fxt_record_t *rec) {
    size_t need = (size_t)rec->u.event.category.len + rec->u.event.name.len + 1;
    /* Only a string argument's str is its value: the reader leaves the field of other types as
     * an earlier record left it (a pointer into bytes that may be gone, any length). */
    for (unsigned i = 0; i < rec->nargs; i++) {
        need +=
            (size_t)rec->args[i].name.len + (rec->args[i].type == FXT_ARG_STRING ? rec->args[i].str.len : 0);
    }
    pend_t *p = calloc(1, sizeof *p);
    char *buf = p ? malloc(need) : NULL;
    if (buf == NULL) {
        free(p);
        return NULL;
    }
    size_t at = 0;
#define PEND_STR(dst, src)                                                                                   \
    do {                                                                                                     \
        if ((src).ptr && (src).len) {                                                                        \
            memcpy(buf + at, (src).ptr, (src).len);                                                          \
        }                                                                                                    \
        (dst) = fxt_str_n(buf + at, (src).ptr ? (src).len : 0);                                              \
        at += (src).ptr ? (src).len : 0;                                                                     \
    } while (0)
    p->strs = buf;
    p->offset = rec->offset;
    p->ev.type = rec->u.event.type;
    p->ev.ts = rec->u.event.ts;
    p->ev.thread = fxt_thread(rec->u.event.thread.pid, rec->u.event.thread.tid);
    p->ev.id = rec->u.event.id;
    PEND_STR(p->ev.category, rec->u.event.category);
    PEND_STR(p->ev.name, rec->u.event.name);
    unsigned n = 0;
    for (unsigned i = 0; i < rec->nargs && n < FXT_MAX_ARGS; i++) {
        if (rec->args[i].type >= FXT_ARG_TYPE_COUNT) {
            continue; /* unknown argument types cannot be re-encoded (as fxt_write_record) */
        }
        p->args[n] = rec->args[i];
        PEND_STR(p->args[n].name, rec->args[i].name);
        if (rec->args[i].type == FXT_ARG_STRING) {
            PEND_STR(p->args[n].str, rec->args[i].str);
        } else {
            p->args[n].str = fxt_str_n(NULL, 0);
        }
        n++;
    }
#undef PEND_STR
    p->ev.args = p->args;
    p->ev.nargs = n;
    return p;
}

static void pend_free(cut_t *c, chain_t *ch) {
    for (uint32_t i = 0; i < ch->npend; i++) {
        free(ch->pend[i]->strs);
        free(ch->pend[i]);
    }
    c->npending -= ch->npend;
    free(ch->pend);
    ch->pend = NULL;
    ch->npend = ch->pcap = 0;
}

/* Keeps a continuation read before its chain's begin; 0 when it cannot wait (limit, memory). */
static int pend_add(cut_t *c, chain_t *ch, const fxt_record_t *rec) {
    if (c->npending >= MAX_PENDING) {
        return 0;
    }
    if (ch->npend == ch->pcap) {
        uint32_t ncap = ch->pcap ? ch->pcap * 2 : 4;
        pend_t **np = realloc(ch->pend, ncap * sizeof *np);
        if (np == NULL) {
            return 0;
        }
        ch->pend = np;
        ch->pcap = ncap;
    }
    pend_t *p = pend_copy(rec);
    if (p == NULL) {
        return 0;
    }
    ch->pend[ch->npend++] = p;
    c->npending++;
    return 1;
}

/* The begin of a waiting chain was read: its continuations at or after the begin's time are
 * written after it when it was kept (in time order), dropped otherwise; earlier ones had no
 * begin. Returns 1 when an end was among them (the chain is complete). */
static int pend_resolve(cut_t *c, chain_t *ch, int kept, uint64_t begin_ts) {
    /* insertion sort by timestamp: waiting lists are short */
    for (uint32_t i = 1; i < ch->npend; i++) {
        pend_t *p = ch->pend[i];
        uint32_t k = i;
        while (k > 0 && ch->pend[k - 1]->ev.ts > p->ev.ts) {
            ch->pend[k] = ch->pend[k - 1];
            k--;
        }
        ch->pend[k] = p;
    }
    int ended = 0;
    for (uint32_t i = 0; i < ch->npend; i++) {
        pend_t *p = ch->pend[i];
        int end = p->ev.type == FXT_EVENT_ASYNC_END || p->ev.type == FXT_EVENT_FLOW_END;
        if (!kept || p->ev.ts < begin_ts || ended) {
            c->dropped++;
            c->dropped_ends += p->ev.ts < begin_ts || ended;
            continue;
        }
        ensure_context(c, ch->has_provider, ch->provider);
        fxt_status st = fxt_write_event(c->w, &p->ev);
        if (st == FXT_OK) {
            c->kept++;
            c->late++;
            ch->last_ticks = p->ev.ts > ch->last_ticks ? p->ev.ts : ch->last_ticks;
        } else if (fxt_writer_status(c->w) == FXT_OK && ++c->refused <= 10) {
            fprintf(stderr, "fxt cut: offset %" PRIu64 ": record not re-encodable: %s (dropped)\n", p->offset,
                    fxt_status_str(st));
        }
        ended |= end;
    }
    pend_free(c, ch);
    return ended;
}

/* The chain-id rule (docs/check.md#chain-ids): a continuation with no open chain of its id in
 * its own provider matches the open chain of that id in another provider of the trace when
 * exactly one has it open (a flow from a parent process to its child); none or several: no
 * begin. `waiting` asks for chains waiting for their begin instead (a begin read after its
 * continuations in another provider). Providers are few: each is probed. */
static chain_t *chain_other(cut_t *c, const fxt_record_t *rec, int flow, int waiting) {
    chain_t *found = NULL;
    for (size_t i = 0; i < c->provs.count; i++) {
        const prov_t *p = cli_map_at(&c->provs, i, NULL, NULL);
        if (p->has == rec->has_provider && p->id == rec->provider) {
            continue;
        }
        uint64_t h = chain_hash(p->has, p->id, rec->u.event.id, flow);
        chain_t *ch = chain_find(&c->chains, p->has, p->id, rec->u.event.id, flow, h);
        if (ch != NULL && (ch->state == CH_WAITING) == waiting) {
            if (found != NULL) {
                return NULL; /* ambiguous */
            }
            found = ch;
        }
    }
    return found;
}

/* Whether a record at `ns` is in the window. Relative windows count from the trace's earliest
 * event (cut_base, set before the read): a record before it (a log or a scheduling record) is at
 * a negative time, so only a window without --from holds it, never clamped to 0. */
static int cut_in_window(cli_select_t *sel, uint64_t ns) {
    if (!sel->f.absolute && sel->have_base && ns < sel->base_ns) {
        return !sel->f.has_from;
    }
    return cli_select_time(sel, ns);
}

/* What on_event's steps decided: write the record when selected (1), drop it (0), or nothing more
 * to do (EV_DONE: written, dropped and counted, or held). */
#define EV_DONE (-1)

/* In the window, and selected by the filters; or what a range worker decided (pre: PRE_*). */
static void event_select(cut_t *c, uint64_t tps, const fxt_record_t *rec, int pre, int *inwin,
                         int *selected) {
    if (pre < 0) {
        *inwin = cut_in_window(&c->sel, cli_ticks_to_ns(rec->u.event.ts, tps));
        *selected = *inwin &&
                    cli_select_match(&c->sel, c->sel.f.cats, c->sel.f.ncats, rec->u.event.category) &&
                    cli_select_match(&c->sel, c->sel.f.names, c->sel.f.nnames, rec->u.event.name);
    } else {
        *inwin = (pre & PRE_INWIN) != 0;
        *selected = (pre & PRE_SELECTED) != 0;
    }
}

/* A duration begin opens a frame on its thread's stack, kept when selected. */
static int duration_begin(tstack_t *st, const fxt_record_t *rec, int selected) {
    if (st->depth < MAX_DEPTH) {
        frame_t *f = &st->f[st->depth];
        f->kept = selected;
        f->pid = rec->u.event.thread.pid;
        f->tid = rec->u.event.thread.tid;
        if (selected) {
            /* Copies: the record's strings point into reader buffers that the next record reuses. */
            keep_str(&f->cat, &f->cat_cap, &f->cat_len, rec->u.event.category);
            keep_str(&f->name, &f->name_cap, &f->name_len, rec->u.event.name);
        }
    } else {
        selected = 0; /* too deep to track: dropped to keep the output balanced */
    }
    st->depth++;
    return selected;
}

/* A duration end follows its begin: kept in the window when the begin was; a kept begin whose
 * end is past the window is closed at the window's end. */
static int duration_end(cut_t *c, uint64_t tps, tstack_t *st, const fxt_record_t *rec, int inwin,
                        int selected) {
    if (st->depth == 0) {
        /* Unmatched in the input (a trace started inside the duration): kept only when
         * nothing is cut away, so the output has what the input has; else dropped. */
        if (!(selected && !c->sel.f.has_from && !c->sel.f.has_to && c->sel.f.ncats == 0 &&
              c->sel.f.nnames == 0)) {
            c->dropped_ends++;
            c->dropped++;
            return EV_DONE;
        }
        ensure_context(c, rec->has_provider, rec->provider);
        put(c, fxt_write_record(c->w, rec, 0), rec);
        c->kept++;
        return EV_DONE;
    }
    st->depth--;
    frame_t *f = st->depth < MAX_DEPTH ? &st->f[st->depth] : NULL;
    if (f == NULL || !f->kept) {
        if (selected) {
            c->dropped_ends++;
        }
        c->dropped++;
        return EV_DONE;
    }
    /* the begin was kept: its end is kept too when in the window, whatever the
     * category/name filters say (an end may carry other strings) */
    if (!inwin) {
        /* the begin was kept: close the pair at the window's end */
        write_end(c, st, f, c->sel.f.has_to ? window_end_ticks(c, tps) : rec->u.event.ts);
        c->closed++; /* an end cut wrote, not an input event kept (as for chains) */
        c->dropped++;
        return EV_DONE;
    }
    return 1;
}

/* Duration begin/end pairs stay balanced, per thread. */
static int on_duration(cut_t *c, uint64_t tps, const fxt_record_t *rec, int inwin, int selected) {
    const fxt_thread_ref_t *t = &rec->u.event.thread;
    uint64_t key[4] = {(uint64_t)rec->has_provider, rec->provider, t->pid, t->tid};
    tstack_t *st = cli_map_get(&c->stacks, key, sizeof key, 1);
    /* Out of memory: the event cannot be paired, so it is not written. */
    if (st == NULL) {
        return EV_DONE;
    }
    st->has_provider = rec->has_provider;
    st->provider = rec->provider;
    st->last_ticks = rec->u.event.ts > st->last_ticks ? rec->u.event.ts : st->last_ticks;
    if (rec->u.event.type == FXT_EVENT_DURATION_BEGIN) {
        return duration_begin(st, rec, selected);
    }
    return duration_end(c, tps, st, rec, inwin, selected);
}

/* An async or flow event and the chain it belongs to (docs/check.md#chain-ids). */
typedef struct chain_ev {
    int flow, begin, end;
    uint64_t h; /* the chain's hash in the record's own provider */
    chain_t *ch;
    /* begin: the key of the chain waiting for it in another provider (the pointer does not
     * survive the table growing for the begin's chain) */
    int has_other, other_has;
    uint32_t other_prov;
} chain_ev_t;

static void chain_lookup(cut_t *c, const fxt_record_t *rec, chain_ev_t *e) {
    uint32_t type = rec->u.event.type;
    e->flow = type >= FXT_EVENT_FLOW_BEGIN;
    e->begin = type == FXT_EVENT_ASYNC_BEGIN || type == FXT_EVENT_FLOW_BEGIN;
    e->end = type == FXT_EVENT_ASYNC_END || type == FXT_EVENT_FLOW_END;
    e->h = chain_hash(rec->has_provider, rec->provider, rec->u.event.id, e->flow);
    e->ch = chain_find(&c->chains, rec->has_provider, rec->provider, rec->u.event.id, e->flow, e->h);
    e->has_other = e->other_has = 0;
    e->other_prov = 0;
    chain_t *other;
    if (!e->begin && (e->ch == NULL || e->ch->state == CH_WAITING)) {
        chain_t *o = chain_other(c, rec, e->flow, 0);
        e->ch = o != NULL ? o : e->ch;
    } else if (e->begin && e->ch == NULL && (other = chain_other(c, rec, e->flow, 1)) != NULL) {
        e->has_other = 1;
        e->other_has = other->has_provider;
        e->other_prov = other->provider;
    }
}

/* The continuations another provider's chain held for this begin are written there (or dropped
 * with it); the waiting entry goes, and the begin's chain with it when they ended it. */
static void chain_begin_other(cut_t *c, const fxt_record_t *rec, const chain_ev_t *e, int selected) {
    uint64_t id = rec->u.event.id;
    chain_t *other = chain_find(&c->chains, e->other_has, e->other_prov, id, e->flow,
                                chain_hash(e->other_has, e->other_prov, id, e->flow));
    int ended = other->early_end;
    ended |= pend_resolve(c, other, selected, rec->u.event.ts);
    chain_remove(&c->chains, other);
    if (ended) {
        /* found again: removing `other` may have moved it (backward shift) */
        chain_remove(&c->chains, chain_find(&c->chains, rec->has_provider, rec->provider, id, e->flow, e->h));
    }
}

/* A begin starts its chain, kept when selected; continuations read before it follow it now. */
static int chain_begin(cut_t *c, const fxt_record_t *rec, chain_ev_t *e, int selected) {
    chain_t *ch = e->ch;
    if (!selected && ch != NULL && ch->state == CH_KEPT) {
        /* a kept chain left open past the window reuses its id: it stays, to be closed */
        c->dropped++;
        return EV_DONE;
    }
    int waiting = ch != NULL && ch->state == CH_WAITING;
    int early_end = waiting && ch->early_end;
    if ((ch = chain_fill(&c->chains, ch, e->h, rec, e->flow, selected ? CH_KEPT : CH_DROPPED)) == NULL) {
        return 0; /* out of memory: cannot track it, so do not start it */
    }
    if (selected) {
        /* Copies, as for duration frames: needed to write the end if the chain is left open. */
        keep_str(&ch->cat, &ch->cat_cap, &ch->cat_len, rec->u.event.category);
        keep_str(&ch->name, &ch->name_cap, &ch->name_len, rec->u.event.name);
        ensure_context(c, rec->has_provider, rec->provider);
        put(c, fxt_write_record(c->w, rec, 0), rec);
        c->kept++;
    } else {
        c->dropped++;
    }
    /* continuations read earlier follow the begin now */
    if (early_end || (waiting && pend_resolve(c, ch, selected, rec->u.event.ts))) {
        chain_remove(&c->chains, ch);
    } else if (e->has_other) {
        chain_begin_other(c, rec, e, selected);
    }
    return EV_DONE;
}

/* A continuation read before any begin of its chain: the begin may come later in the file
 * (another thread's chunk). */
static int chain_early(cut_t *c, const fxt_record_t *rec, chain_ev_t *e, int inwin) {
    /* Without --from and name/category filters every begin is kept: the continuation is
     * written in place, which keeps each thread's events in order. */
    int all = !c->sel.f.has_from && c->sel.f.ncats == 0 && c->sel.f.nnames == 0;
    int selected = 0;
    chain_t *ch = e->ch;
    if (inwin && ch == NULL) {
        ch = chain_fill(&c->chains, NULL, e->h, rec, e->flow, CH_WAITING);
    }
    if (inwin && all) {
        if (ch != NULL) {
            ch->early_end |= e->end;
        }
        selected = 1;
    } else if (inwin) {
        if (ch != NULL && pend_add(c, ch, rec)) {
            return EV_DONE; /* counted when its begin decides, or at the end */
        }
    }
    c->dropped_ends += e->end && !selected;
    return selected;
}

/* Async and flow chains are kept whole: continuations only when their begin was kept. */
static int on_chain(cut_t *c, const fxt_record_t *rec, int inwin, int selected) {
    chain_ev_t e;
    chain_lookup(c, rec, &e);
    if (e.begin) {
        return chain_begin(c, rec, &e, selected);
    }
    if (e.ch == NULL || e.ch->state == CH_WAITING) {
        return chain_early(c, rec, &e, inwin);
    }
    /* continuations of a kept chain are kept when in the window, whatever the
     * category/name filters say (flows usually cross categories) */
    selected = e.ch->state == CH_KEPT && inwin;
    if (selected) {
        e.ch->last_ticks = rec->u.event.ts;
    }
    /* a kept chain whose end is past the window stays open: it is closed at the window's end */
    if (e.end && (selected || e.ch->state == CH_DROPPED)) {
        chain_remove(&c->chains, e.ch);
    }
    return selected;
}

/* Selects one event and keeps duration pairs and async/flow chains whole (see the file header). */
/* `pre`: -1 to select here, else the decision a range worker made (PRE_*): a light record
 * (no strings) that cannot be written itself (see cut_classify). */
static void on_event(cut_t *c, uint64_t tps, const fxt_record_t *rec, int pre) {
    prov_t *pv = prov_of(c, rec->has_provider, rec->provider);
    /* Every event, kept or not, moves where open chains are closed when there is no --to. */
    if (pv && rec->u.event.ts > pv->max_ticks) {
        pv->max_ticks = rec->u.event.ts;
    }
    int inwin, selected;
    event_select(c, tps, rec, pre, &inwin, &selected);
    uint32_t type = rec->u.event.type;
    if (type == FXT_EVENT_DURATION_BEGIN || type == FXT_EVENT_DURATION_END) {
        selected = on_duration(c, tps, rec, inwin, selected);
    } else if (type >= FXT_EVENT_ASYNC_BEGIN && type <= FXT_EVENT_FLOW_END) {
        selected = on_chain(c, rec, inwin, selected);
    }
    if (selected == EV_DONE) {
        return;
    }
    if (!selected) {
        c->dropped++;
        return;
    }
    ensure_context(c, rec->has_provider, rec->provider);
    put(c, fxt_write_record(c->w, rec, 0), rec);
    c->kept++;
}

/* The timestamp of a record the window applies to (events, logs, scheduling); 0 for other kinds. */
static int record_ts(const fxt_record_t *rec, uint64_t *ts) {
    switch (rec->kind) {
    case FXT_KIND_EVENT:
        *ts = rec->u.event.ts;
        return 1;
    case FXT_KIND_LOG:
        *ts = rec->u.log.ts;
        return 1;
    case FXT_KIND_CONTEXT_SWITCH:
        *ts = rec->u.context_switch.ts;
        return 1;
    case FXT_KIND_THREAD_WAKEUP:
        *ts = rec->u.thread_wakeup.ts;
        return 1;
    case FXT_KIND_LEGACY_CONTEXT_SWITCH:
        *ts = rec->u.legacy_context_switch.ts;
        return 1;
    case FXT_KIND_MAGIC:
    case FXT_KIND_PROVIDER_INFO:
    case FXT_KIND_PROVIDER_SECTION:
    case FXT_KIND_PROVIDER_EVENT:
    case FXT_KIND_TRACE_INFO:
    case FXT_KIND_INIT:
    case FXT_KIND_STRING:
    case FXT_KIND_THREAD:
    case FXT_KIND_BLOB:
    case FXT_KIND_USERSPACE_OBJECT:
    case FXT_KIND_KERNEL_OBJECT:
    case FXT_KIND_LARGE_BLOB:
    case FXT_KIND_UNKNOWN:
    default: /* (-Wswitch-enum still asks for every kind above) */
        return 0;
    }
}

/* Routes each record kind: metadata is remembered and re-emitted lazily, events are selected. */
static int on_record(void *ctx, fxt_reader_t *r, const fxt_record_t *rec) {
    cut_t *c = ctx;
    switch (rec->kind) {
    case FXT_KIND_MAGIC:
        /* Only the first magic record is copied: merged inputs may hold one per part. */
        if (!c->out_started) {
            c->out_started = 1;
            put(c, fxt_write_magic(c->w), rec);
        }
        break;
    case FXT_KIND_PROVIDER_INFO: {
        prov_t *p = prov_of(c, 1, rec->u.provider_info.id);
        if (p) {
            p->name_len = rec->u.provider_info.name.len;
            /* The name is kept, not written: the provider is announced only if something of it is kept. */
            memcpy(p->name, rec->u.provider_info.name.ptr, p->name_len);
        }
        break;
    }
    case FXT_KIND_INIT: {
        prov_t *p = prov_of(c, rec->has_provider, rec->provider);
        if (p) {
            p->has_init = 1;
            p->tps = rec->u.init.ticks_per_second;
            /* A tick rate change after output started for this provider must be written where it
             * happened; before that, ensure_context writes the latest rate with the provider. */
            if (p->announced) {
                ensure_context(c, rec->has_provider, rec->provider);
                put(c, fxt_write_init(c->w, p->tps), rec);
            }
        }
        break;
    }
    case FXT_KIND_PROVIDER_SECTION:
    case FXT_KIND_STRING:
    case FXT_KIND_THREAD:
        break; /* contexts are re-created on demand; the writer registers strings and threads */
    case FXT_KIND_PROVIDER_EVENT:
        ensure_context(c, rec->has_provider, rec->provider);
        put(c, fxt_write_provider_event(c->w, rec->u.provider_event.id, rec->u.provider_event.event), rec);
        break;
    case FXT_KIND_EVENT:
        on_event(c, fxt_reader_ticks_per_second(r), rec, -1);
        break;
    case FXT_KIND_LOG:
    case FXT_KIND_CONTEXT_SWITCH:
    case FXT_KIND_THREAD_WAKEUP:
    case FXT_KIND_LEGACY_CONTEXT_SWITCH: {
        /* These records have no category or name, so a category/name filter drops them (see the help text).
         */
        uint64_t ts = 0;
        (void)record_ts(rec, &ts);
        if (cut_in_window(&c->sel, cli_ticks_to_ns(ts, fxt_reader_ticks_per_second(r))) &&
            c->sel.f.ncats == 0 && c->sel.f.nnames == 0) {
            ensure_context(c, rec->has_provider, rec->provider);
            put(c, fxt_write_record(c->w, rec, 0), rec);
        }
        break;
    }
    case FXT_KIND_BLOB:
    case FXT_KIND_USERSPACE_OBJECT:
    case FXT_KIND_KERNEL_OBJECT:
    case FXT_KIND_LARGE_BLOB:
    case FXT_KIND_TRACE_INFO:
    case FXT_KIND_UNKNOWN:
        /* objects, blobs, large blobs, trace info, unknown records: kept (they describe the trace) */
        ensure_context(c, rec->has_provider, rec->provider);
        put(c, fxt_write_record(c->w, rec, 0), rec);
        break;
    }
    /* A sticky writer (sink) error stops reading: nothing more can be written. */
    return fxt_writer_status(c->w) != FXT_OK;
}

/* Damaged records are skipped and make the exit status 1; only the first 10 are reported. */
static void on_error(void *ctx, fxt_reader_t *r, const fxt_diag_t *d) {
    cut_t *c = ctx;
    (void)r;
    c->errors++;
    if (c->errors <= 10) {
        fprintf(stderr, "fxt cut: offset %" PRIu64 ": %s (skipped)\n", d->offset, d->msg);
    }
}

/* ---- parallel selection (-j) --------------------------------------------------------- */

/*
 * The writer's interning makes the output depend on everything written before, so
 * encoding stays sequential; what runs in parallel is decoding and selecting, most of
 * the work when a window keeps a small share. Range 0 is cut directly by its worker
 * (no other range is merged before it). A later range's worker records, in file order,
 * what the merge has to replay through the sequential code above:
 *  - IT_FULL: a record that may be written or changes decoding state (metadata,
 *    strings, threads, objects, selected events, ends and continuations in the
 *    window): its raw bytes (copied into the range), decoded again in the merge by
 *    the merge reader (range 0's state, then every state record merged since);
 *  - IT_LIGHT: an event that cannot be written itself but moves the pairing state (a
 *    begin not selected, an end or continuation outside the window): its ids and
 *    time, with the worker's selection (PRE_*);
 *  - IT_ERROR: a damaged record's diagnostic; IT_SKIP: a light begin cancelled later.
 * Other events not selected only count as dropped and move their provider's latest
 * time: folded per range. So do duration pairs begun and ended in the range whose
 * begin was not selected, when nothing between them on their thread is replayed
 * (a replayed event inside keeps its enclosing begins: the depth limit MAX_DEPTH
 * sees the same nesting); each thread's first pair event in a range is replayed, so
 * the merge creates the thread's stack where a sequential read does (its order is the
 * order of the ends written at the close). So stacks, chains, waiting continuations and
 * closing are exactly the sequential ones, and so are the output bytes and messages.
 */
enum { IT_FULL, IT_LIGHT, IT_ERROR, IT_SKIP };

typedef struct item {
    uint8_t kind, type, has_provider, pre;
    uint32_t provider;
    uint64_t off; /* IT_FULL: the record's offset; IT_ERROR: index into errs */
    union {
        struct {
            uint64_t at; /* the record's bytes: the range's arena from here (the read buffer is reused) */
            uint64_t size;
        } full;
        struct {
            uint64_t ts, tps, pid, tid, id;
        } light;
    } u;
} item_t;

/* Providers whose latest event time a range folds (more: their events become light items). */
#define TICKS_FOLD 8

/* Range bytes at most: a range's items (<= 56 bytes per record of >= 8 bytes) are held until
 * its merge, and at most jobs + 2 ranges are in flight (docs/archive.md states the bound). */
#define CUT_MAX_RANGE (UINT64_C(2) << 20)

/* Nesting of a thread's pairs begun in the range; frames deeper than this are replayed. */
#define LOCAL_DEPTH 64

typedef struct lstack {
    uint32_t depth;             /* begins of this range still open (may exceed LOCAL_DEPTH) */
    uint32_t keep_below;        /* open frames [0, keep_below) are replayed: something inside is */
    uint32_t item[LOCAL_DEPTH]; /* a frame's light begin item, cancelled if nothing inside is replayed */
} lstack_t;

typedef struct cut_range {
    cut_t *c;
    size_t index;
    int oom;
    item_t *items;
    size_t n, cap;
    fxt_diag_t *errs;
    size_t nerr, errcap;
    uint64_t dropped, dropped_ends;
    struct {
        int has;
        uint32_t provider;
        uint64_t max;
    } ticks[TICKS_FOLD];
    unsigned nticks;
    cli_map_t stacks; /* (has_provider, provider, pid, tid) -> lstack_t */
    cli_select_t sel; /* the worker's own: matching writes its scratch buffer */
    uint8_t *arena;   /* copies of the IT_FULL records, until the merge */
    size_t alen, acap;
} cut_range_t;

static void *range_new(void *ctx, size_t index) {
    cut_t *c = ctx;
    cut_range_t *g = calloc(1, sizeof *g);
    if (g == NULL) {
        return NULL;
    }
    g->c = c;
    g->index = index;
    pthread_mutex_lock(&c->mu);
    if (c->npool) {
        c->npool--;
        g->items = c->pool[c->npool];
        g->cap = c->pool_cap[c->npool];
    }
    pthread_mutex_unlock(&c->mu);
    cli_map_init(&g->stacks, sizeof(lstack_t));
    cli_select_init(&g->sel, c->filter);
    return g;
}

static void range_free(void *ctx, void *range) {
    cut_t *c = ctx;
    cut_range_t *g = range;
    cli_map_free(&g->stacks);
    pthread_mutex_lock(&c->mu);
    if (g->items != NULL && c->npool < sizeof c->pool / sizeof c->pool[0]) {
        c->pool_cap[c->npool] = g->cap;
        c->pool[c->npool++] = g->items;
        g->items = NULL;
    }
    pthread_mutex_unlock(&c->mu);
    free(g->items);
    free(g->errs);
    free(g->arena);
    free(g);
}

/* The next item slot (amortized growth, not per record); NULL when out of memory. */
static item_t *range_item(cut_range_t *g, uint8_t kind) {
    if (g->n == g->cap && cli_grow(&g->items, &g->cap, g->n + 1, sizeof *g->items, 4096) != 0) {
        g->oom = 1;
        return NULL;
    }
    item_t *it = &g->items[g->n++];
    it->kind = kind;
    return it;
}

static void range_full(cut_range_t *g, const fxt_record_t *rec) {
    if (cli_grow(&g->arena, &g->acap, g->alen + (size_t)rec->size, 1, 65536) != 0) {
        g->oom = 1;
        return;
    }
    item_t *it = range_item(g, IT_FULL);
    if (it != NULL) {
        memcpy(g->arena + g->alen, rec->bytes, (size_t)rec->size);
        it->off = rec->offset;
        it->u.full.at = g->alen;
        it->u.full.size = rec->size;
        g->alen += (size_t)rec->size;
    }
}

/* The base probe: the first timed record before `end`, read by the sequential loop. */
typedef struct base_probe {
    uint64_t end, ns;
    int found;
} base_probe_t;

static int probe_record(void *ctx, fxt_reader_t *r, const fxt_record_t *rec) {
    base_probe_t *b = ctx;
    uint64_t ts;
    if (rec->offset >= b->end) {
        return 1;
    }
    if (record_ts(rec, &ts)) {
        b->ns = cli_ticks_to_ns(ts, fxt_reader_ticks_per_second(r));
        b->found = 1;
        return 1;
    }
    return 0;
}

/* Damaged records before the base: the range holding them reports them. */
static void probe_error(void *ctx, fxt_reader_t *r, const fxt_diag_t *d) {
    (void)ctx;
    (void)r;
    (void)d;
}

/* Whether a timed record is among the records before `end` of the input file `path` (decoded
 * from its start as the sequential read does); *ns gets the first one's time. */
static int first_timed_ns(const char *path, uint64_t end, uint64_t *ns) {
    base_probe_t b = {end, 0, 0};
    (void)cli_read_trace("cut", path, NULL, probe_record, probe_error, &b, NULL);
    if (b.found) {
        *ns = b.ns;
    }
    return b.found;
}

/* The window test of a range worker. Relative times need the base, the trace's first timed
 * record: published by range 0's cut or by a worker that found it; a worker that needs it
 * before then scans the input before its record (usually a few records to the first event).
 * Finding none there, its record is the first: the base for every range and for the merge
 * (which replays only some records, so it cannot find the base itself when range 0 holds no
 * timed record). */
static int range_time(cut_range_t *g, const fxt_record_t *rec, uint64_t ns) {
    cut_t *c = g->c;
    if (c->need_base && !g->sel.have_base) {
        pthread_mutex_lock(&c->mu);
        int known = c->base_known;
        uint64_t base = c->base_ns;
        pthread_mutex_unlock(&c->mu);
        if (!known) {
            /* ranges after the first come from a plain file: read it again up to the record */
            base = ns;
            (void)first_timed_ns(c->in, rec->offset, &base);
            pthread_mutex_lock(&c->mu);
            c->base_known = 1; /* every finder finds the same record */
            c->base_ns = base;
            pthread_mutex_unlock(&c->mu);
        }
        g->sel.have_base = 1;
        g->sel.base_ns = base;
    }
    return cut_in_window(&g->sel, ns);
}

/* Folds an event time into its provider's latest; 0 when the range folds too many providers. */
static int range_fold(cut_range_t *g, int has, uint32_t provider, uint64_t ts) {
    unsigned i = 0;
    while (i < g->nticks && (g->ticks[i].has != has || g->ticks[i].provider != provider)) {
        i++;
    }
    if (i == g->nticks) {
        if (i == TICKS_FOLD) {
            return 0;
        }
        g->ticks[i].has = has;
        g->ticks[i].provider = provider;
        g->ticks[i].max = 0;
        g->nticks++;
    }
    g->ticks[i].max = ts > g->ticks[i].max ? ts : g->ticks[i].max;
    return 1;
}

/* Records an event for the merge: its bytes, or (light) its ids, time and selection. */
static void range_put(cut_range_t *g, const fxt_record_t *rec, uint64_t tps, int light, int inwin,
                      int selected) {
    if (!light) {
        range_full(g, rec);
        return;
    }
    item_t *it = range_item(g, IT_LIGHT);
    if (it != NULL) {
        it->type = (uint8_t)rec->u.event.type;
        it->has_provider = (uint8_t)rec->has_provider;
        it->provider = rec->provider;
        it->pre = (uint8_t)((inwin ? PRE_INWIN : 0) | (selected ? PRE_SELECTED : 0));
        it->off = rec->offset;
        it->u.light.ts = rec->u.event.ts;
        it->u.light.tps = tps;
        it->u.light.pid = rec->u.event.thread.pid;
        it->u.light.tid = rec->u.event.thread.tid;
        it->u.light.id = rec->u.event.id;
    }
}

/* A duration begin or end: pairs of the range that leave no trace are cancelled (see above). */
static void range_pair(cut_range_t *g, const fxt_record_t *rec, uint64_t tps, int inwin, int selected) {
    const fxt_thread_ref_t *t = &rec->u.event.thread;
    uint64_t key[4] = {(uint64_t)rec->has_provider, rec->provider, t->pid, t->tid};
    size_t before = g->stacks.count;
    lstack_t *ls = cli_map_get(&g->stacks, key, sizeof key, 1);
    if (ls == NULL) {
        g->oom = 1;
        return;
    }
    int first = g->stacks.count != before;
    if (rec->u.event.type == FXT_EVENT_DURATION_BEGIN) {
        uint32_t d = ls->depth++;
        if (selected || first || d >= LOCAL_DEPTH) {
            ls->keep_below = d + 1 < LOCAL_DEPTH ? d + 1 : LOCAL_DEPTH; /* it and every enclosing begin */
        } else {
            ls->item[d] = (uint32_t)g->n; /* provisional: cancelled with its end if nothing inside is kept */
        }
        range_put(g, rec, tps, !selected, inwin, selected);
        return;
    }
    if (ls->depth > 0) {
        uint32_t d = --ls->depth;
        if (d < LOCAL_DEPTH && d >= ls->keep_below && !g->oom) {
            item_t *b = &g->items[ls->item[d]];
            if (range_fold(g, b->has_provider, b->provider, b->u.light.ts) &&
                range_fold(g, rec->has_provider, rec->provider, rec->u.event.ts)) {
                /* as the merge would: the begin and the end dropped, the end counted unmatched if selected */
                g->dropped += 2;
                g->dropped_ends += selected;
                if (ls->item[d] + 1 == g->n) {
                    g->n--;
                } else {
                    b->kind = IT_SKIP;
                }
                return;
            }
        }
        if (ls->keep_below > d) {
            ls->keep_below = d;
        }
    }
    /* an end of a replayed begin, or of one in an earlier range: written as its begin decides */
    range_put(g, rec, tps, !inwin, inwin, selected);
}

/* Selects an event as on_event would, recording what the merge must replay (see above). */
static void range_event(cut_range_t *g, fxt_reader_t *r, const fxt_record_t *rec) {
    uint64_t tps = fxt_reader_ticks_per_second(r);
    int inwin = range_time(g, rec, cli_ticks_to_ns(rec->u.event.ts, tps));
    int selected = inwin && cli_select_match(&g->sel, g->sel.f.cats, g->sel.f.ncats, rec->u.event.category) &&
                   cli_select_match(&g->sel, g->sel.f.names, g->sel.f.nnames, rec->u.event.name);
    uint32_t type = rec->u.event.type;
    if (type == FXT_EVENT_DURATION_BEGIN || type == FXT_EVENT_DURATION_END) {
        range_pair(g, rec, tps, inwin, selected);
    } else if (type == FXT_EVENT_ASYNC_BEGIN || type == FXT_EVENT_FLOW_BEGIN) {
        range_put(g, rec, tps, !selected, inwin, selected); /* written only when selected */
    } else if (type > FXT_EVENT_ASYNC_BEGIN && type <= FXT_EVENT_FLOW_END) {
        range_put(g, rec, tps, !inwin, inwin, selected); /* written, in the window, as its begin decided */
    } else if (selected) {
        range_full(g, rec);
    } else if (range_fold(g, rec->has_provider, rec->provider, rec->u.event.ts)) {
        g->dropped++;
    } else {
        range_put(g, rec, tps, 1, inwin, selected);
    }
}

/* Range 0's records are cut directly; the merge reader follows their decoding state (byte
 * order, then the records the pre-scan also feeds its reader), to re-decode later ranges. */
static void merge_reader_follow(cut_t *c, fxt_reader_t *r, uint64_t offset) {
    if (c->mrd != NULL && !c->mrd_seeded) {
        c->mrd_seeded = 1;
        /* Seeded at the first record or error: its byte order (a record already applied is
         * applied again when fed, to the same effect). */
        c->mrd_oom = fxt_reader_seed(c->mrd, r, offset) != FXT_OK;
    }
}

static int range_record(void *range, fxt_reader_t *r, const fxt_record_t *rec) {
    cut_range_t *g = range;
    cut_t *c = g->c;
    if (g->index == 0) {
        merge_reader_follow(c, r, rec->offset);
        if (c->mrd != NULL && !c->mrd_oom &&
            (rec->type <= FXT_RECORD_THREAD || rec->kind == FXT_KIND_KERNEL_OBJECT ||
             rec->kind == FXT_KIND_USERSPACE_OBJECT)) {
            static fxt_record_t tmp; /* large: static, used by range 0's worker only */
            fxt_in_buffer_t in = {rec->bytes, (size_t)rec->size, 0};
            c->mrd_oom = fxt_reader_next(c->mrd, &in, &tmp) == FXT_E_NOMEM;
        }
        if (on_record(c, r, rec) != 0) {
            return CLI_EXIT_IO; /* the writer failed (sticky): the read ends, cut_run reports it */
        }
        if (c->need_base && !c->base_pub && c->sel.have_base) {
            c->base_pub = 1;
            pthread_mutex_lock(&c->mu);
            c->base_known = 1;
            c->base_ns = c->sel.base_ns;
            pthread_mutex_unlock(&c->mu);
        }
        return 0;
    }
    uint64_t ts;
    if (rec->kind == FXT_KIND_EVENT) {
        range_event(g, r, rec);
    } else if (!record_ts(rec, &ts)) {
        range_full(g, rec); /* metadata, strings, threads, objects, blobs...: as on_record */
    } else if (range_time(g, rec, cli_ticks_to_ns(ts, fxt_reader_ticks_per_second(r))) &&
               g->sel.f.ncats == 0 && g->sel.f.nnames == 0) {
        /* logs and scheduling records, as on_record: no state, written only when in the window
         * without category/name filters */
        range_full(g, rec);
    }
    return 0;
}

static void range_error(void *range, fxt_reader_t *r, const fxt_diag_t *d) {
    cut_range_t *g = range;
    if (g->index == 0) {
        merge_reader_follow(g->c, r, d->offset);
        on_error(g->c, r, d);
        return;
    }
    if (g->nerr == g->errcap) {
        size_t ncap = g->errcap ? g->errcap * 2 : 16;
        fxt_diag_t *ne = realloc(g->errs, ncap * sizeof *ne);
        if (ne == NULL) {
            g->oom = 1;
            return;
        }
        g->errs = ne;
        g->errcap = ncap;
    }
    item_t *it = range_item(g, IT_ERROR);
    if (it != NULL) {
        g->errs[g->nerr] = *d;
        it->off = g->nerr++;
    }
}

/* Replays a later range's items through the sequential cut, in file order. */
static int range_replay(cut_t *c, cut_range_t *g) {
    if (g->oom || c->mrd == NULL || c->mrd_oom) {
        return CLI_EXIT_LIMIT;
    }
    pthread_mutex_lock(&c->mu);
    if (c->base_known && !c->sel.have_base) {
        c->sel.have_base = 1;
        c->sel.base_ns = c->base_ns;
    }
    pthread_mutex_unlock(&c->mu);
    static fxt_record_t rec, light; /* large: static, used by the one merging thread */
    memset(&light, 0, sizeof light);
    light.kind = FXT_KIND_EVENT;
    for (size_t i = 0; i < g->n; i++) {
        const item_t *it = &g->items[i];
        if (it->kind == IT_FULL) {
            fxt_in_buffer_t in = {g->arena + it->u.full.at, (size_t)it->u.full.size, 0};
            fxt_status st = fxt_reader_next(c->mrd, &in, &rec);
            if (st == FXT_OK) {
                rec.offset = it->off;
                if (on_record(c, c->mrd, &rec) != 0) {
                    return 0; /* the output failed: range_merge says so */
                }
            } else if (st < 0) {
                /* decoded by the worker with the same state: not expected */
                fxt_diag_t d = *fxt_reader_diag(c->mrd);
                d.offset = it->off;
                on_error(c, c->mrd, &d);
            }
        } else if (it->kind == IT_LIGHT) {
            light.offset = it->off;
            light.has_provider = it->has_provider;
            light.provider = it->provider;
            light.u.event.type = it->type;
            light.u.event.ts = it->u.light.ts;
            light.u.event.thread.pid = it->u.light.pid;
            light.u.event.thread.tid = it->u.light.tid;
            light.u.event.id = it->u.light.id;
            on_event(c, it->u.light.tps, &light, it->pre);
        } else if (it->kind == IT_ERROR) {
            on_error(c, NULL, &g->errs[it->off]);
        }
    }
    c->dropped += g->dropped;
    c->dropped_ends += g->dropped_ends;
    for (unsigned i = 0; i < g->nticks; i++) {
        prov_t *p = prov_of(c, g->ticks[i].has, g->ticks[i].provider);
        if (p && g->ticks[i].max > p->max_ticks) {
            p->max_ticks = g->ticks[i].max;
        }
    }
    return 0;
}

static int range_merge(void *ctx, void *range) {
    cut_t *c = ctx;
    cut_range_t *g = range;
    int rc = g->index == 0 ? 0 : range_replay(c, g);
    range_free(c, g);
    /* A write error (sticky in the writer) ends the read, as on_record's answer does at -j 1:
     * no later range is decoded; cut_run reports it. */
    return rc == 0 && fxt_writer_status(c->w) != FXT_OK ? CLI_EXIT_IO : rc;
}

static const cli_par_ops_t cut_par_ops = {range_new, range_record, range_error, range_merge, range_free};

/* ---- the window's base ----------------------------------------------------------------- */

/* Sets the relative window's base to the earliest event of `path` (stats' first_ns; file order
 * is not time order): 0 or an exit code. */
static int cut_base(cut_t *c, const char *path, unsigned jobs) {
    cli_bases_t b;
    fxt_reader_options_t ro = {sizeof ro, FXT_READ_LAZY_ARGS, 0};
    int rc = cli_read_bases("cut", path, &ro, jobs, &b);
    if (rc == 0 && b.have_ev) {
        /* Known before the read: range workers and the merge take it from here (range_time). */
        c->sel.have_base = 1;
        c->sel.base_ns = b.ev_ns;
        c->base_known = c->base_pub = 1;
        c->base_ns = b.ev_ns;
    }
    return rc;
}

/* ---- command ------------------------------------------------------------------------ */

typedef struct cut_config {
    const char *in, *out, *compress;
    cli_filter_t filter;
    unsigned jobs;
} cut_config_t;

static const cli_opt_t cut_opts[] = {
    CLI_TIME(cut_config_t, filter.from_ns, filter.has_from, "from", "T",
             "start of the window, in ns relative to the first event (suffixes ns, us, ms, s; decimals "
             "like 1.5ms); may be omitted"),
    CLI_TIME(cut_config_t, filter.to_ns, filter.has_to, "to", "T",
             "end of the window, like --from; may be omitted"),
    CLI_FLAG(cut_config_t, filter.absolute, "absolute", 0, "--from/--to are absolute trace times in ns"),
    CLI_LIST(cut_config_t, filter.cats, filter.ncats, "category", "PATTERN",
             "keep events whose category matches (glob; repeatable)"),
    CLI_LIST(cut_config_t, filter.names, filter.nnames, "name", "PATTERN",
             "keep events whose name matches (glob; repeatable)"),
    CLI_OUTPUT_OPTS(cut_config_t, out, compress, "output (default: standard output); .gz/.zst compress"),
    CLI_PAR_JOBS_OPT(cut_config_t, jobs),
};

static const cli_spec_t cut_spec = {
    "cut",
    cut_opts,
    sizeof cut_opts / sizeof cut_opts[0],
    NULL,
    sizeof(cut_config_t),
    "IN",
    offsetof(cut_config_t, in),
    0,
    0,
    1,
};

/* Where pairs and chains left open are closed: the window's end, else the provider's last event. */
static uint64_t close_ticks(cut_t *c, const prov_t *p, uint64_t last_ticks) {
    if (c->sel.f.has_to) {
        return window_end_ticks(c, p ? p->tps : 1000000000u);
    }
    return p ? p->max_ticks : last_ticks;
}

/* End the kept duration begins that never ended, and free the stacks' strings. */
static void cut_close_durations(cut_t *c) {
    for (size_t i = 0; i < c->stacks.count; i++) {
        tstack_t *st = cli_map_at(&c->stacks, i, NULL, NULL);
        /* Innermost first, so the synthesized ends nest properly; frames past MAX_DEPTH were dropped. */
        for (uint32_t d = st->depth < MAX_DEPTH ? st->depth : MAX_DEPTH; d > 0; d--) {
            frame_t *f = &st->f[d - 1];
            if (f->kept) {
                write_end(c, st, f,
                          close_ticks(c, prov_of(c, st->has_provider, st->provider), st->last_ticks));
                c->closed++;
            }
        }
        for (uint32_t d = 0; d < MAX_DEPTH; d++) {
            free(st->f[d].cat);
            free(st->f[d].name);
        }
    }
}

/* End the async and flow chains that were kept open, and free the chain table. */
static void cut_close_chains(cut_t *c) {
    for (size_t i = 0; i < c->chains.cap; i++) {
        chain_t *ch = &c->chains.slot[i];
        if (ch->used && ch->state == CH_WAITING) {
            /* continuations whose begin never came: unmatched in the input, not kept */
            c->dropped += ch->npend;
            c->dropped_ends += ch->npend;
            pend_free(c, ch);
            /* (continuations written in place stay: unmatched in the input as well) */
        } else if (ch->used && ch->state == CH_KEPT) {
            uint64_t ts = close_ticks(c, prov_of(c, ch->has_provider, ch->provider), ch->last_ticks);
            fxt_event_desc_t ev = {ch->flow ? FXT_EVENT_FLOW_END : FXT_EVENT_ASYNC_END,
                                   ts,
                                   fxt_thread(ch->pid, ch->tid),
                                   fxt_str_n(ch->cat, ch->cat_len),
                                   fxt_str_n(ch->name, ch->name_len),
                                   ch->id,
                                   0,
                                   NULL,
                                   0,
                                   NULL,
                                   0};
            ensure_context(c, ch->has_provider, ch->provider);
            put(c, fxt_write_event(c->w, &ev), NULL);
            c->closed++;
        }
        free(ch->cat);
        free(ch->name);
    }
    free(c->chains.slot);
}

/* The summary on stderr, so it never mixes with a trace written to stdout. */
static void cut_report(const cut_t *c) {
    fprintf(stderr,
            "fxt cut: kept %" PRIu64 " events, dropped %" PRIu64 ", closed %" PRIu64
            " durations/chains with an added end, dropped %" PRIu64 " unmatched ends",
            c->kept, c->dropped, c->closed, c->dropped_ends);
    if (c->late) {
        fprintf(stderr, ", %" PRIu64 " continuations written after their later-read begins", c->late);
    }
    if (c->refused) {
        fprintf(stderr, ", %" PRIu64 " records not re-encodable", c->refused);
    }
    fputc('\n', stderr);
}

/* Reads IN, writes the selected records through a writer, then closes what was left open. */
static int cut_run(void *config) {
    const cut_config_t *cfg = config;
    static cut_t c; /* large (per-thread stacks in maps): static, reset for in-process reruns */
    memset(&c, 0, sizeof c);
    cli_select_init(&c.sel, &cfg->filter);
    char err[512];
    cli_output_t *out;
    int orc = cli_input_check("cut", cfg->in);
    if (orc == 0) {
        orc = cli_output_check("cut", cfg->out, &cfg->in, 1);
    }
    if (orc != 0) {
        return orc; /* no output file for a missing input, nor one written over the input */
    }
    orc = cli_output_open(cfg->out, cfg->compress, &out, err, sizeof err);
    if (orc != 0) {
        fprintf(stderr, "fxt cut: %s\n", err);
        return orc;
    }
    fxt_writer_options_t wo = {sizeof wo, 0, 1u << 20, 0, 0};
    if (fxt_writer_create(&wo, cli_output_sink(out), &c.w) != FXT_OK) {
        fprintf(stderr, "fxt cut: out of memory\n");
        cli_output_close(out, 1);
        return CLI_EXIT_LIMIT;
    }
    cli_map_init(&c.provs, sizeof(prov_t));
    cli_map_init(&c.stacks, sizeof(tstack_t));
    c.filter = &cfg->filter;
    c.need_base = (cfg->filter.has_from || cfg->filter.has_to) && !cfg->filter.absolute;
    pthread_mutex_init(&c.mu, NULL);
    unsigned jobs = cfg->jobs ? cfg->jobs : cli_par_default_jobs();
    if (!cfg->filter.has_from && !cfg->filter.has_to && cfg->filter.ncats == 0 && cfg->filter.nnames == 0) {
        /* Nothing is cut away: every record is decoded again and re-encoded in the merge, so
         * ranges would only add work (measured: 1.6x the CPU time of one sequential read). */
        jobs = 1;
    }
    if (jobs > 1 && fxt_reader_create(NULL, &c.mrd) != FXT_OK) {
        c.mrd = NULL; /* range merges then fail: out of memory */
    }
    c.in = cfg->in;
    int rc = 0, spool_fd = -1;
    static char spool[4096];
    if (c.need_base) {
        /* read twice: standard input or a pipe is copied to a temporary file first */
        rc = cli_input_spool("cut", cfg->in, spool, sizeof spool, &spool_fd);
        c.in = spool;
        if (rc == 0) {
            rc = cut_base(&c, c.in, jobs);
        }
    }
    rc = rc != 0    ? rc
         : jobs > 1 ? cli_read_parallel_max("cut", c.in, NULL, jobs, 0, CUT_MAX_RANGE, &cut_par_ops, &c, NULL)
                    : cli_read_trace("cut", c.in, NULL, on_record, on_error, &c, NULL);
    if (spool_fd >= 0) {
        close(spool_fd);
    }
    fxt_reader_destroy(c.mrd);
    pthread_mutex_destroy(&c.mu);
    while (c.npool) {
        free(c.pool[--c.npool]);
    }
    /* Closed even after a read error: the output stays a balanced, valid trace. */
    cut_close_durations(&c);
    cut_close_chains(&c);
    fxt_status st = fxt_writer_finish(c.w);
    fxt_writer_destroy(c.w);
    /* On writer failure the compressor trailer is skipped, and on a failed read (I/O, memory)
     * the output is not kept: a file cut short by an error must not look like the whole cut.
     * Damaged records (exit 1) are reported and the rest is kept. A close failure is an I/O error. */
    if (cli_output_close(out, st != FXT_OK || rc != 0) != 0 && st == FXT_OK && rc == 0) {
        st = FXT_E_IO;
    }
    int werr = errno;
    cli_map_free(&c.provs);
    cli_map_free(&c.stacks);
    /* A write error is reported whatever ended the read (range_merge stops it with one). */
    if (st == FXT_E_IO) {
        cli_output_error("cut", werr);
        return CLI_EXIT_IO;
    }
    if (rc != 0) {
        return rc;
    }
    if (st != FXT_OK) {
        fprintf(stderr, "fxt cut: %s\n", fxt_status_str(st));
        return CLI_EXIT_LIMIT;
    }
    cut_report(&c);
    /* Skipped or dropped records make the output partial: exit 1 (see the help text). */
    return c.errors || c.refused ? CLI_EXIT_DATA : CLI_EXIT_OK;
}

const cli_command_t cli_cmd_cut = {
    "cut",
    cut_run,
    NULL,
    "keep a time window / categories / names of a trace",
    "fxt cut [options] IN -o OUT",
    "Write a valid trace holding only the selected events. Every string, thread,\n"
    "provider, initialization, kernel object and userspace object record the kept\n"
    "events need is emitted again (in their provider). Duration begin/end pairs\n"
    "that straddle the window are balanced: an end whose begin was dropped is\n"
    "dropped, a kept begin is closed at the window's end. Streaming; with -j N and\n"
    "a window or filter, ranges of a regular file are decoded and selected in\n"
    "parallel and merged in order: the output is the same for any N\n"
    "(docs/archive.md).\n",
    &cut_spec,
    "The category and name filters select events and the begins of pairs and\n"
    "async/flow chains; the ends and continuations of kept ones follow them when in\n"
    "the window, whatever their own strings. Logs and scheduling records are kept\n"
    "when in the window and no category or name filter is given. Chains are matched\n"
    "by id and time, so a continuation written before its begin (another thread's\n"
    "chunk) follows it (docs/archive.md).\n"
    "\n"
    "exit status: 0 ok, 1 damaged input records (skipped) or records that could not\n"
    "be re-encoded (dropped), 2 usage error, 3 I/O error,\n"
    "4 out of memory or an internal limit\n",
};
