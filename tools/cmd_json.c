/* SPDX-License-Identifier: MIT */
/*
 * fxt json: Chrome Trace Event Format JSON for Perfetto UI, Chrome DevTools'
 * Performance panel and other viewers, in one streaming pass with bounded memory
 * (the open duration begins of each thread).
 *
 * The mapping follows Fuchsia's trace2json (docs/json.md has the table) with
 * its weaknesses fixed: exact nanosecond timestamps printed as decimal
 * microseconds from integer arithmetic, 64-bit ids as strings, per-provider
 * tick rates, process/thread names as standard "M" metadata events in file
 * order, null arguments kept, works from a pipe. Scheduling records go to
 * "systemTraceEvents" (spilled to a temporary file while streaming, so memory
 * stays constant) unless --no-system-events. A regular file is converted in
 * parallel ranges (cli_parallel.h; "Parallel ranges" below, docs/json.md).
 */
#include <fxt/reader.h>

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_io.h"
#include "cli_json.h"
#include "cli_map.h"
#include "cli_parallel.h"
#include "cli_trace.h"

__extension__ typedef unsigned __int128 u128;

/* Where scheduling records go (docs/json.md, "Scheduling records"). */
enum { SYS_SYSTRACE, SYS_FUCHSIA, SYS_NONE };

/* An open duration begin: its JSON head and arguments wait in the thread's text buffer
 * until the end turns them into one "X" event. */
typedef struct jframe {
    u128 ns;
    size_t off, args_off; /* the head is text[off, args_off), the arguments follow */
    int kept;             /* selected by the filters (else its end is dropped too) */
    int has_args;         /* the held "args" object is not empty */
} jframe_t;

/* Past this nesting depth begins and ends are written as "B"/"E" as they come, so a
 * hostile trace of nothing but begins cannot make memory grow without bound. */
#define JSON_MAX_DEPTH 4096

typedef struct jthread {
    cli_jbuf_t text; /* growing: the heads and arguments of the open begins */
    jframe_t *f;
    uint32_t depth, cap;
    uint32_t deep; /* begins past JSON_MAX_DEPTH written as "B", whose "E" are still to come */
    /* A range after the first (see "Parallel ranges"): the deepest its own begins went, whether
     * they reached JSON_MAX_DEPTH, and at its merge the thread's state before the range. */
    uint32_t peak;
    int over;
    struct jthread *peer;
} jthread_t;

/* A range after the first holds its output as text with deferred items: bytes that depend on
 * the state before the range, written by its merge (see "Parallel ranges"). */
enum {
    PC_END, /* an end whose begin came before the range: its arguments are held at off */
    PC_COMM /* systemTraceEvents: the comm of thread v, named before the range */
};

/* A process's or thread's name, the last one given, as a JSON string literal: written once, at
 * the end (docs/json.md, Names). */
typedef struct jname {
    char *lit;
    size_t len;
} jname_t;

typedef struct jpiece {
    u128 ns;
    uint64_t v;    /* thread (index in the range's map), sort index or tid */
    size_t off;    /* where in its stream's text (out, or sys for PC_COMM) */
    uint32_t nel;  /* elements begun in that stream since its previous piece */
    uint32_t skip; /* text bytes the item consumes (an end's arguments) */
    uint8_t kind, has_args;
} jpiece_t;

/* Interned strings' literals are cached by cli_slit (cli_json.h). */

/* A thread's ,"pid":P,"tid":T formatted once, and its index in the context's thread map, by
 * (provider, pid, tid): checked against the values, so nothing invalidates it (a reused range
 * context starts with it empty, as with its map). */
#define JTHR_BITS 8

typedef struct jthr {
    uint64_t prov;     /* (has_provider << 32 | provider) + 1; 0: empty */
    uint64_t pid, tid; /* as written: 0 when the thread ref is unresolved */
    size_t ix1;        /* index in the thread map + 1; 0: not looked up yet */
    size_t flix1;      /* the same in the flows' thread map (jflows_t) */
    uint32_t len;
    char lit[64]; /* 2 * (7 + 20) bytes used at most: copied whole */
} jthr_t;

typedef struct jctx {
    cli_jbuf_t out;
    cli_jbuf_t sys; /* system events, spilled to a temporary file */
    int sysfmt;     /* SYS_*: how scheduling records are written */
    int sys_on;
    uint64_t nevents, nsys, nmeta, skipped, errors, overflows, unmatched_ends, unclosed;
    int first_sys;
    int nomem;
    /* --time-base=trace-start: times are printed relative to the earliest time (json_time_base) */
    int rel_time, have_base;
    u128 base_ns;
    cli_map_t threads; /* (has_provider, provider, pid, tid) -> jthread_t */
    cli_map_t comms;   /* tid -> comm_t, thread names for the systrace lines */
    cli_map_t names;   /* (process 0 / thread 1, pid, tid) -> jname_t, written at the end */
    /* flows (docs/json.md, Flows): bound and matched by the run, written at the end; fed as
     * records are read, or by the merge of the range that read them (flog) */
    struct jflows *fl;
    /* a range after the first: its flows and asyncs in file order (struct flop), the flows' and
     * asyncs' text in the same order, its slices (struct flslice), and its threads ((has_provider, provider,
     * pid, tid) -> fllocal_t), for its merge to feed to the run's flow state */
    struct flop *flog;
    size_t nflog, capflog;
    struct flslice *fls; /* its slices, on their threads' lists (fllocal_t) */
    size_t nfls, capfls;
    cli_jbuf_t fltext;
    cli_map_t flth;
    cli_slitc_t lit; /* interned strings' literals (never a null table) */
    jthr_t thr[1u << JTHR_BITS];
    /* ts_put's digits of the last timestamp's integer microseconds, but the last two (ts_hi) */
    uint64_t ts_hi; /* 0: none */
    size_t ts_n;
    char ts_d[24];
    /* filters */
    cli_select_t sel;
    int filtered; /* any: a time range, categories or names */
    uint64_t nel; /* elements of traceEvents written: all but the first need a comma */
    /* a range after the first (part): its output and stderr lines wait for its merge */
    int part;
    jpiece_t *pc;
    size_t npc, cappc;
    uint32_t nel_out, nel_sys; /* elements begun in out / sys since the stream's last piece */
    cli_jbuf_t msg;     /* held stderr lines: a tag byte ('E' damaged record, 'O' other), length, text */
    uint64_t first_off; /* offset of the range's first record or error */
    int have_off;
    /* the run: merged ranges kept for reuse, the input (read again when a range cannot be
     * merged), and whether it was */
    struct jpool *pool;
    const struct jctx *proto; /* the settings ranges start from: range 0 changes the run's own */
    const char *path;
    int replayed;
    uint64_t replay_from;
} jctx_t;

/* ---- output: a large buffer with inline number and string formatting --------------- */

/* Nanoseconds of a tick count, exact (rounded down) for any tick rate, in 128 bits. */
static inline u128 ticks_ns(uint64_t ticks, uint64_t tps) {
    if (tps == 1000000000u || tps == 0) {
        /* 1 tick = 1 ns needs no arithmetic; 0 ticks per second cannot convert: ticks used as is. */
        return ticks;
    }
    return (u128)ticks * 1000000000u / tps;
}

static inline uint64_t sat64(u128 v) { return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v; }

/* cli_us_put for a timestamp (up to 24 bytes at p): events come nearly in time order, so the
 * integer microseconds mostly differ from the previous timestamp's only in the last two digits,
 * and the others are copied from it. */
CLI_NOINLINE size_t ts_put_miss(jctx_t *j, char *p, uint64_t ns) {
    uint64_t us = ns / 1000u, hi = us / 100u;
    if (hi == 0) {
        return cli_us_put(p, ns); /* fewer than 3 digits */
    }
    j->ts_n = cli_u64_put(j->ts_d, us);
    j->ts_hi = hi;
    memcpy(p, j->ts_d, sizeof j->ts_d);
    return cli_us_frac_put(p, j->ts_n, ns);
}

CLI_INLINE size_t ts_put(jctx_t *j, char *p, uint64_t ns) {
    uint64_t us = ns / 1000u, hi = us / 100u;
    if (hi != j->ts_hi || hi == 0) {
        return ts_put_miss(j, p, ns);
    }
    size_t n = j->ts_n;
    memcpy(p, j->ts_d, sizeof j->ts_d);
    memcpy(p + n - 2, cli_digit_pairs + 2 * (us - hi * 100u), 2);
    return cli_us_frac_put(p, n, ns);
}

/* A duration in µs; negative when a complete event ends before it starts (docs/json.md). */
static void jb_us_signed(cli_jbuf_t *b, u128 from, u128 to) {
    if (to >= from) {
        cli_jb_us(b, to - from);
    } else {
        cli_jb_putc(b, '-');
        cli_jb_us(b, from - to);
    }
}

static inline void jb_fstr(cli_jbuf_t *b, fxt_str_t s) {
    cli_jb_str(b, s.ptr ? s.ptr : "", s.ptr ? s.len : 0);
}

/* ---- the caches (cli_slit, jthr_t) -------------------------------------------------- */

/* A string of the current record as a JSON literal: an interned one from the cache, any other as
 * jb_fstr. */
static inline void jb_istr(jctx_t *j, cli_jbuf_t *o, fxt_str_t s) {
    const cli_slit_t *e = cli_slit_hit(&j->lit, s);
    if (e == NULL) {
        cli_slit_miss(&j->lit, o, s);
    } else if (cli_jb_room(o, CLI_SLIT_MAX)) {
        /* the whole slot copied (the buffer's room allows it), the length counted */
        memcpy(o->p + o->n, e->lit, CLI_SLIT_MAX);
        o->n += e->len;
    }
}

/* A jthr_of miss: entry e takes the thread. */
CLI_NOINLINE jthr_t *jthr_fill(jthr_t *e, uint64_t prov, uint64_t pid, uint64_t tid) {
    e->prov = prov;
    e->pid = pid;
    e->tid = tid;
    e->ix1 = 0;
    e->flix1 = 0;
    memcpy(e->lit, ",\"pid\":", 7);
    size_t n = 7 + cli_u64_put(e->lit + 7, pid);
    memcpy(e->lit + n, ",\"tid\":", 7);
    n += 7;
    n += cli_u64_put(e->lit + n, tid);
    e->len = (uint32_t)n;
    return e;
}

/* The cache entry of thread ref t of record rec, filled on a miss. */
static inline jthr_t *jthr_of(jctx_t *j, const fxt_record_t *rec, const fxt_thread_ref_t *t) {
    uint64_t pid = t->resolved ? t->pid : 0, tid = t->resolved ? t->tid : 0;
    uint64_t prov = ((uint64_t)(uint32_t)rec->has_provider << 32 | rec->provider) + 1;
    jthr_t *e = &j->thr[(tid * UINT64_C(0x9e3779b97f4a7c15)) >> (64 - JTHR_BITS)];
    if (e->prov == prov && e->pid == pid && e->tid == tid) {
        return e;
    }
    return jthr_fill(e, prov, pid, tid);
}

/* ---- filters and time ------------------------------------------------------------- */

/* No --time-range: everything passes, without the selection's first-event bookkeeping. */
static int time_selected(jctx_t *j, u128 ns) {
    return (!j->sel.f.has_from && !j->sel.f.has_to) || cli_select_time(&j->sel, sat64(ns));
}

/* A "ts" value: absolute, or relative to the base (negative for a record written later in
 * the file than the first one but earlier in time). */
static void jb_ts(jctx_t *j, cli_jbuf_t *o, u128 ns) {
    if (j->rel_time) {
        jb_us_signed(o, j->base_ns, ns);
    } else if (ns > UINT64_MAX) {
        cli_jb_us(o, ns);
    } else if (cli_jb_room(o, 24)) {
        o->n += ts_put(j, o->p + o->n, (uint64_t)ns);
    }
}

/* ---- events ----------------------------------------------------------------------- */

/* Elements of traceEvents are separated by commas; the first needs none. A range after the
 * first writes the comma always and counts: its merge drops it when nothing came before. */
static void begin_event(jctx_t *j) {
    if (j->part) {
        CLI_JB_LIT(&j->out, ",\n");
        j->nel_out++;
        return;
    }
    if (cli_jb_room(&j->out, 2)) {
        char *p = j->out.p + j->out.n;
        if (j->nel++ > 0) {
            p[0] = ',';
            p[1] = '\n';
            j->out.n += 2;
        } else {
            p[0] = '\n';
            j->out.n++;
        }
    }
}

/* begin_event's counting where the caller has made room and writes the separator: its length,
 * 2 for ",\n", 1 for the first element's "\n". */
CLI_INLINE size_t sep_count(jctx_t *j) {
    if (j->part) {
        j->nel_out++;
        return 2;
    }
    return j->nel++ > 0 ? 2 : 1;
}

/* A deferred item of a range at the current end of its stream (growing: amortised, not per record). */
static jpiece_t *add_piece(jctx_t *j, int kind) {
    if (j->npc == j->cappc) {
        size_t ncap = j->cappc ? j->cappc * 2 : 64;
        jpiece_t *np = realloc(j->pc, ncap * sizeof *np);
        if (np == NULL) {
            j->nomem = 1;
            return NULL;
        }
        j->pc = np;
        j->cappc = ncap;
    }
    jpiece_t *p = &j->pc[j->npc++];
    memset(p, 0, sizeof *p);
    p->kind = (uint8_t)kind;
    if (kind == PC_COMM) {
        p->off = j->sys.n;
        p->nel = j->nel_sys;
        j->nel_sys = 0;
    } else {
        p->off = j->out.n;
        p->nel = j->nel_out;
        j->nel_out = 0;
    }
    return p;
}

/* ,"args":{...} with every argument of a known type (empty when there are none); with
 * `open`, the object was opened by the caller: arguments continue it and it is closed.
 * Returns how many were written. */
static unsigned write_args_of(jctx_t *j, cli_jbuf_t *o, const fxt_record_t *rec, const char *extra_key,
                              fxt_str_t extra, int open) {
    /* Most arguments are written in place after one check for room: the lead (,"args":{ or a
     * comma), a cached name, its colon and any value but a string not cached (48 bytes). */
    static const char first[16] = ",\"args\":{", next[16] = ",";
    unsigned written = open ? 1 : 0;
    for (unsigned i = 0; i < rec->nargs; i++) {
        const fxt_arg_t *a = &rec->args[i];
        if (a->type >= FXT_ARG_TYPE_COUNT) {
            continue; /* unknown argument types have no JSON form */
        }
        int lead_first = written++ == 0;
        const cli_slit_t *e = cli_slit_hit(&j->lit, a->name);
        char *p;
        if (e != NULL && cli_jb_room(o, 16 + CLI_SLIT_MAX + 1 + 48)) {
            p = o->p + o->n;
            memcpy(p, lead_first ? first : next, 16);
            p += lead_first ? 9 : 1;
            memcpy(p, e->lit, CLI_SLIT_MAX);
            p += e->len;
            *p++ = ':';
        } else {
            if (lead_first) {
                CLI_JB_LIT(o, ",\"args\":{");
            } else {
                cli_jb_putc(o, ',');
            }
            jb_istr(j, o, a->name);
            cli_jb_putc(o, ':');
            if (!cli_jb_room(o, 48)) {
                continue; /* out of memory (a growing buffer): the error is sticky */
            }
            p = o->p + o->n;
        }
        switch (a->type) {
        case FXT_ARG_NULL:
            memcpy(p, "null", 4);
            p += 4;
            break;
        case FXT_ARG_INT32:
            p += cli_i64_put(p, a->v.i32);
            break;
        case FXT_ARG_UINT32:
            p += cli_u64_put(p, a->v.u32);
            break;
        case FXT_ARG_INT64:
            p += cli_i64_put(p, a->v.i64);
            break;
        case FXT_ARG_UINT64:
            p += cli_u64_put(p, a->v.u64);
            break;
        case FXT_ARG_DOUBLE:
            p += cli_json_double_put(p, a->v.f64);
            break;
        case FXT_ARG_STRING: {
            const cli_slit_t *s = cli_slit_hit(&j->lit, a->str);
            if (s != NULL) {
                memcpy(p, s->lit, CLI_SLIT_MAX);
                p += s->len;
            } else {
                /* escaped as it comes (and cached): it checks for room itself */
                o->n = (size_t)(p - o->p);
                cli_slit_miss(&j->lit, o, a->str);
                p = o->p + o->n;
            }
            break;
        }
        case FXT_ARG_POINTER:
            *p++ = '"';
            p += cli_hex_put(p, a->v.pointer);
            *p++ = '"';
            break;
        case FXT_ARG_KOID:
            memcpy(p, "\"#", 2);
            p += 2 + cli_u64_put(p + 2, a->v.koid);
            *p++ = '"';
            break;
        case FXT_ARG_BOOL:
            if (a->v.boolean) {
                memcpy(p, "true", 4);
                p += 4;
            } else {
                memcpy(p, "false", 5);
                p += 5;
            }
            break;
        default:
            break;
        }
        o->n = (size_t)(p - o->p);
    }
    if (extra_key != NULL) {
        if (written++) {
            cli_jb_putc(o, ',');
        } else {
            CLI_JB_LIT(o, ",\"args\":{");
        }
        cli_jb_putc(o, '"');
        cli_jb_mem(o, extra_key, strlen(extra_key));
        CLI_JB_LIT(o, "\":");
        jb_fstr(o, extra);
    }
    if (written) {
        cli_jb_putc(o, '}');
    } else {
        /* "args" on every event, as Chrome writes them: DevTools reads args of some event
         * names (an instant named DrawFrame) without checking that they exist */
        CLI_JB_LIT(o, ",\"args\":{}");
    }
    return written - (open ? 1 : 0);
}

/* write_args, with an event without arguments (most) handled in line. */
CLI_INLINE unsigned write_args(jctx_t *j, cli_jbuf_t *o, const fxt_record_t *rec, const char *extra_key,
                               fxt_str_t extra, int open) {
    if (rec->nargs != 0 || extra_key != NULL) {
        return write_args_of(j, o, rec, extra_key, extra, open);
    }
    if (open) {
        cli_jb_putc(o, '}');
    } else {
        CLI_JB_LIT(o, ",\"args\":{}");
    }
    return 0;
}

/* An event's arguments as write_args writes them, then its closing brace. */
CLI_INLINE void write_args_end(jctx_t *j, cli_jbuf_t *o, const fxt_record_t *rec, int open) {
    if (rec->nargs != 0) {
        write_args_of(j, o, rec, NULL, rec->u.event.name, open);
        cli_jb_putc(o, '}');
    } else if (open) {
        CLI_JB_LIT(o, "}}");
    } else {
        CLI_JB_LIT(o, ",\"args\":{}}");
    }
}

/* The keys of an event before its ts value: cat (every event has one: DevTools throws on a
 * missing one), name. */
static void event_head_to_ts(jctx_t *j, cli_jbuf_t *o, fxt_str_t cat, fxt_str_t name) {
    CLI_JB_LIT(o, "{\"cat\":");
    jb_istr(j, o, cat);
    CLI_JB_LIT(o, ",\"name\":");
    jb_istr(j, o, name);
    CLI_JB_LIT(o, ",\"ts\":");
}

/* The keys after ts: pid, tid (e: the thread's jthr_of). */
static void event_head_ids(cli_jbuf_t *o, const jthr_t *e) {
    if (cli_jb_room(o, sizeof e->lit)) {
        memcpy(o->p + o->n, e->lit, sizeof e->lit);
        o->n += e->len;
    }
}

/* event_head piece by piece: a string not cached, relative or 128-bit times, a buffer to flush
 * or grow. */
CLI_NOINLINE void event_head_slow(jctx_t *j, cli_jbuf_t *o, const fxt_str_t *cat, const fxt_str_t *name,
                                  const jthr_t *e, u128 ns, int sep) {
    if (sep) {
        begin_event(j);
    }
    event_head_to_ts(j, o, *cat, *name);
    jb_ts(j, o, ns);
    event_head_ids(o, e);
}

/* Common keys of an event: cat, name, ts, pid, tid (e: the thread's jthr_of), after begin_event's
 * separator when sep is set (o is then j->out). The strings by pointer: by value they would be
 * passed on the stack. */
static void event_head(jctx_t *j, cli_jbuf_t *o, const fxt_str_t *cat, const fxt_str_t *name, const jthr_t *e,
                       u128 ns, int sep) {
    /* the separator and the first key in one copy: none, the first element's, any other's */
    static const char lead[3][16] = {"{\"cat\":", "\n{\"cat\":", ",\n{\"cat\":"};
    const cli_slit_t *c = cli_slit_hit(&j->lit, *cat), *nm = cli_slit_hit(&j->lit, *name);
    /* The common case in one piece: cached literals and fixed-size copies with room for them
     * (the copies may run past the bytes counted); making room is the slow path's. */
    if (c == NULL || nm == NULL || j->rel_time || ns > UINT64_MAX ||
        (o->grow ? o->cap : CLI_JB_CAP) - o->n <
            16 + CLI_SLIT_MAX + 8 + CLI_SLIT_MAX + 8 + 24 + sizeof e->lit) {
        event_head_slow(j, o, cat, name, e, ns, sep);
        return;
    }
    size_t k = sep ? sep_count(j) : 0;
    char *p0 = o->p + o->n, *p = p0;
    memcpy(p, lead[k], 16);
    p += 7 + k;
    memcpy(p, c->lit, CLI_SLIT_MAX);
    p += c->len;
    memcpy(p, ",\"name\":", 8);
    p += 8;
    memcpy(p, nm->lit, CLI_SLIT_MAX);
    p += nm->len;
    memcpy(p, ",\"ts\":", 6);
    p += 6;
    p += ts_put(j, p, (uint64_t)ns);
    memcpy(p, e->lit, sizeof e->lit);
    p += e->len;
    o->n += (size_t)(p - p0);
}

/* thread_of when the cache entry has no map index yet: the map looked up (and the entry filled). */
CLI_NOINLINE jthread_t *thread_of_miss(jctx_t *j, const fxt_record_t *rec, size_t *ix, jthr_t *e) {
    /* maps only grow: the index stays valid */
    uint64_t key[4] = {(uint64_t)rec->has_provider, rec->provider, e->pid, e->tid};
    jthread_t *th = cli_map_get_ix(&j->threads, key, sizeof key, 1, ix);
    if (th == NULL) {
        j->nomem = 1;
        return NULL;
    }
    th->text.grow = 1;
    e->ix1 = *ix + 1;
    return th;
}

/* The open-begin state of the event's thread (its index in the map in *ix, its jthr_of in *ep);
 * NULL (and nomem set) when out of memory. */
static jthread_t *thread_of(jctx_t *j, const fxt_record_t *rec, size_t *ix, const jthr_t **ep) {
    jthr_t *e = jthr_of(j, rec, &rec->u.event.thread);
    *ep = e;
    if (e->ix1 == 0) {
        return thread_of_miss(j, rec, ix, e);
    }
    *ix = e->ix1 - 1;
    return cli_map_at(&j->threads, *ix, NULL, NULL);
}

/* A begin or end past JSON_MAX_DEPTH, written as it comes with its `ph` key. */
static void write_as_is(jctx_t *j, const fxt_record_t *rec, u128 ns, const char *ph) {
    event_head(j, &j->out, &rec->u.event.category, &rec->u.event.name, jthr_of(j, rec, &rec->u.event.thread),
               ns, 1);
    cli_jb_mem(&j->out, ph, strlen(ph));
    write_args_end(j, &j->out, rec, 0);
    j->nevents++;
}

/* A begin is held, not written: DevTools pairs "B"/"E" in file order across all threads,
 * which gives zero-length slices when threads interleave; its end writes one "X". */
static void on_begin(jctx_t *j, const fxt_record_t *rec, u128 ns, int selected) {
    size_t ix;
    const jthr_t *e;
    jthread_t *th = thread_of(j, rec, &ix, &e);
    if (th == NULL) {
        return;
    }
    if (j->part) {
        /* Whether this begin goes past JSON_MAX_DEPTH depends on the begins open before the
         * range: the merge checks with the peak and, when it might, reads the input again from
         * the range on (json_replay). */
        if (th->depth == JSON_MAX_DEPTH) {
            th->over = 1;
            return;
        }
        if (th->depth + 1 > th->peak) {
            th->peak = th->depth + 1;
        }
    } else if (th->depth == JSON_MAX_DEPTH || th->deep) {
        th->deep++;
        if (selected) {
            write_as_is(j, rec, ns, ",\"ph\":\"B\"");
        }
        return;
    }
    if (th->depth == th->cap) {
        uint32_t ncap = th->cap ? th->cap * 2 : 16;
        jframe_t *nf = realloc(th->f, ncap * sizeof *nf);
        if (nf == NULL) {
            j->nomem = 1;
            return;
        }
        th->f = nf;
        th->cap = ncap;
    }
    jframe_t *f = &th->f[th->depth++];
    f->ns = ns;
    f->kept = selected;
    f->off = th->text.n;
    if (selected) {
        event_head(j, &th->text, &rec->u.event.category, &rec->u.event.name, e, ns, 0);
    }
    f->args_off = th->text.n;
    f->has_args = selected && write_args(j, &th->text, rec, NULL, rec->u.event.name, 0) > 0;
    j->nomem |= th->text.err;
}

/* The "X" event of held begin f ending at ns, up to where the end's arguments go: its
 * "args" object is left open when the begin had arguments. */
static void write_complete(jctx_t *j, const jthread_t *th, const jframe_t *f, u128 ns) {
    /* f is the innermost open begin: its text runs to the end of the thread's text */
    static const char ph[] = ",\"ph\":\"X\",\"dur\":";
    cli_jbuf_t *o = &j->out;
    size_t head = f->args_off - f->off;
    /* the begin's arguments without their closing brace, continued by the end's */
    size_t args = f->has_args ? th->text.n - f->args_off - 1 : 0;
    /* Both ends converted the same way so ts + dur is exactly the end's time (docs/json.md). */
    if (ns >= f->ns && ns - f->ns <= UINT64_MAX &&
        (o->grow ? o->cap : CLI_JB_CAP) - o->n >= 2 + head + sizeof ph + 24 + args) {
        /* the common case after one check for room */
        char *p = o->p + o->n;
        size_t k = sep_count(j);
        p[0] = ',';
        p[k - 1] = '\n'; /* ",\n", or "\n" over the comma */
        p += k;
        memcpy(p, th->text.p + f->off, head);
        p += head;
        memcpy(p, ph, sizeof ph);
        p += sizeof ph - 1;
        p += cli_us_put(p, (uint64_t)(ns - f->ns));
        memcpy(p, th->text.p + f->args_off, args);
        o->n = (size_t)(p + args - o->p);
    } else {
        begin_event(j);
        cli_jb_mem(o, th->text.p + f->off, head);
        CLI_JB_LIT(o, ph);
        jb_us_signed(o, f->ns, ns);
        cli_jb_mem(o, th->text.p + f->args_off, args);
    }
    j->nevents++;
}

/* The end of a held begin: one "X" with the begin's keys and arguments, the end's arguments
 * added (as Chrome merges an "E" into its "B"); an end with no begin has no slice to close. */
static void on_end(jctx_t *j, const fxt_record_t *rec, u128 ns, int selected) {
    size_t ix;
    const jthr_t *e;
    jthread_t *th = thread_of(j, rec, &ix, &e);
    if (th == NULL) {
        return;
    }
    if (th->deep) {
        th->deep--;
        if (selected) {
            write_as_is(j, rec, ns, ",\"ph\":\"E\"");
        }
        return;
    }
    if (th->depth == 0) {
        if (j->part) {
            /* The begin, if any, came before the range: the merge pairs them. The end's
             * arguments are held in the text as their own "args" object. */
            jpiece_t *p = add_piece(j, PC_END);
            if (p != NULL) {
                p->ns = ns;
                p->v = ix;
                p->has_args = write_args(j, &j->out, rec, NULL, rec->u.event.name, 0) > 0;
                p->skip = (uint32_t)(j->out.n - p->off);
            }
            return;
        }
        j->unmatched_ends++;
        return;
    }
    jframe_t *f = &th->f[--th->depth];
    if (f->kept) {
        cli_jbuf_t *o = &j->out;
        write_complete(j, th, f, ns);
        write_args_end(j, o, rec, f->has_args);
    }
    th->text.n = f->off;
}

/* Frees the per-thread state (held begins). */
static void free_threads(cli_map_t *threads) {
    for (size_t i = 0; i < threads->count; i++) {
        jthread_t *th = cli_map_at(threads, i, NULL, NULL);
        free(th->text.p);
        free(th->f);
    }
    cli_map_free(threads);
}

/* At the end of input: begins never ended stay "B" (outermost first), which Perfetto draws to
 * the end of the trace; then the per-thread state is freed. */
static void json_close_threads(jctx_t *j) {
    for (size_t i = 0; i < j->threads.count; i++) {
        jthread_t *th = cli_map_at(&j->threads, i, NULL, NULL);
        for (uint32_t d = 0; d < th->depth; d++) {
            jframe_t *f = &th->f[d];
            if (!f->kept) {
                continue;
            }
            size_t end = d + 1 < th->depth ? th->f[d + 1].off : th->text.n;
            begin_event(j);
            cli_jb_mem(&j->out, th->text.p + f->off, f->args_off - f->off);
            CLI_JB_LIT(&j->out, ",\"ph\":\"B\"");
            cli_jb_mem(&j->out, th->text.p + f->args_off, end - f->args_off);
            cli_jb_putc(&j->out, '}');
            j->nevents++;
            j->unclosed++;
        }
    }
    free_threads(&j->threads);
}

/* Whether an event passes the filters: no call per event without patterns, one test without any. */
static inline int event_selected(jctx_t *j, const fxt_record_t *rec, u128 ns) {
    return !j->filtered || (time_selected(j, ns) &&
                            (j->sel.f.ncats == 0 || cli_select_match(&j->sel, j->sel.f.cats, j->sel.f.ncats,
                                                                     rec->u.event.category)) &&
                            (j->sel.f.nnames == 0 ||
                             cli_select_match(&j->sel, j->sel.f.names, j->sel.f.nnames, rec->u.event.name)));
}

/* ---- flows: bound to their slice, matched into chains, written at the end ----------- */

/*
 * A flow event is written where viewers bind it (docs/json.md, Flows): at the start of the
 * innermost slice that encloses it in time on its thread, begin/end pairs and complete events
 * alike. A complete event is written at its end, after what it encloses, so a flow waits on its
 * thread (pending) until the slice is known: an enclosing complete event (the first read is the
 * innermost: inner scopes end first), or the end of the innermost pair open at its time (any
 * complete event inside that pair came before its end). Bound flows are then matched into
 * chains by the chain-id rule (docs/check.md#chain-ids) in time order, which needs them sorted:
 * they are kept in memory up to FL_RUN_BYTES, spilled to temporary files as sorted runs past
 * that, and merged. Each chain gets an id of its own, and its events are written in time
 * order with its begin's category and name (both viewers group flow events by category, name
 * and id; DevTools binds them in file order), after every other event.
 */

/* A thread's pending flows at most (each complete event of the thread looks at them): past
 * it they are all bound to what is known then. */
#define FL_MAX_PENDING 256
/* Bytes a run is written and read by at once. */
#define FL_IO_BYTES 65536
/* Bound flows held in memory before a sorted run is spilled. */
#define FL_RUN_BYTES (UINT64_C(8) << 20)

typedef struct flpend {
    u128 ts;
    uint64_t id, seq;
    size_t off;                                    /* text in the thread's ptext */
    uint32_t ids_len, cat_len, name_len, args_len; /* ,"pid":..,"tid":.. / cat / name / ,"args":{..} */
    int32_t cand;                                  /* the innermost pair open at its time, -1 none */
    uint8_t type, sel, live;
} flpend_t;

typedef struct flthread {
    u128 *f; /* the open pairs' begin times */
    size_t depth, cap;
    uint32_t deep; /* pairs past JSON_MAX_DEPTH: not tracked */
    flpend_t *p;
    size_t np, capp, live;
    cli_jbuf_t ptext;
    uint64_t prov;
} flthread_t;

/* A bound flow or an async event: the sort key (kind, id, ts, seq), where it is written (at) and
 * its text. */
typedef struct flrec {
    uint64_t id, seq;
    u128 ts, at;
    uint64_t prov, off;
    uint32_t ids_len, cat_len, name_len, args_len;
    uint8_t type, sel;
    uint8_t kind; /* FL_FLOW or FL_ASYNC: chains of the two kinds are apart (docs/check.md#chain-ids) */
} flrec_t;

enum { FL_FLOW, FL_ASYNC };

typedef struct flchain {
    u128 last_at; /* where its last event was written */
    uint64_t prov, uid;
    cli_jbuf_t text; /* the begin's cat and name literals */
    size_t cat_len;
    int open;
} flchain_t;

typedef struct jflows {
    cli_map_t threads; /* (has_provider, provider, pid, tid) -> flthread_t */
    flrec_t *r;
    size_t nr, capr;
    uint32_t *ix; /* fl_sort's: r's order, and room to merge */
    size_t capix;
    cli_jbuf_t text;
    FILE **runs;
    size_t nruns, capruns;
    uint64_t seq, uids;
    uint64_t orphans, collisions, unmoved;
    uint64_t a_orphans, a_alone, a_collisions; /* async ends dropped, instants alone, begins reused */
    uint64_t run_bytes;                        /* FL_RUN_BYTES, or FXT_JSON_FLOW_RUN_BYTES (tests) */
    int err;                                   /* out of memory or a spill failed */
} jflows_t;

static int fl_cmp(const void *a, const void *b) {
    const flrec_t *x = a, *y = b;
    if (x->kind != y->kind) {
        return x->kind < y->kind ? -1 : 1;
    }
    if (x->id != y->id) {
        return x->id < y->id ? -1 : 1;
    }
    if (x->ts != y->ts) {
        return x->ts < y->ts ? -1 : 1;
    }
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The records in memory in fl_cmp order, as their indices (NULL when out of memory): a merge
 * sort of 4-byte indices with the comparison inlined; qsort moved the 96-byte records and
 * called fl_cmp through a pointer (a third of the flow pass at -j 1). The order is total (seq
 * is unique), so any sort gives it. */
static const uint32_t *fl_sort(jflows_t *fl) {
    size_t n = fl->nr;
    if (n > UINT32_MAX || cli_grow(&fl->ix, &fl->capix, 2 * n, sizeof *fl->ix, 256) != 0) {
        fl->err = 1;
        return NULL;
    }
    uint32_t *a = fl->ix, *b = fl->ix + n;
    for (size_t i = 0; i < n; i++) {
        a[i] = (uint32_t)i;
    }
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = n - lo > w ? lo + w : n, hi = n - mid > w ? mid + w : n;
            size_t i = lo, k = mid, o = lo;
            while (i < mid && k < hi) {
                const flrec_t *x = &fl->r[a[k]], *y = &fl->r[a[i]];
                int less = x->kind != y->kind ? x->kind < y->kind
                           : x->id != y->id   ? x->id < y->id
                           : x->ts != y->ts   ? x->ts < y->ts
                                              : x->seq < y->seq;
                b[o++] = less ? a[k++] : a[i++];
            }
            while (i < mid) {
                b[o++] = a[i++];
            }
            while (k < hi) {
                b[o++] = a[k++];
            }
        }
        uint32_t *t = a;
        a = b;
        b = t;
    }
    return a;
}

/* The records in memory, sorted, as a run in a temporary file. */
static void fl_spill(jflows_t *fl) {
    const uint32_t *ord = fl_sort(fl);
    if (ord == NULL) {
        return;
    }
    FILE *f = tmpfile();
    if (f == NULL || cli_grow(&fl->runs, &fl->capruns, fl->nruns + 1, sizeof *fl->runs, 8) != 0) {
        if (f != NULL) {
            fclose(f);
        }
        fl->err = 1;
        return;
    }
    /* staged: two fwrite calls per record cost more than the sort */
    char buf[FL_IO_BYTES];
    size_t nb = 0;
    for (size_t i = 0; i < fl->nr; i++) {
        flrec_t rec = fl->r[ord[i]];
        size_t n = (size_t)rec.ids_len + rec.cat_len + rec.name_len + rec.args_len;
        const char *t = fl->text.p + rec.off;
        rec.off = 0;
        if (nb + sizeof rec + n > sizeof buf) {
            fl->err |= nb > 0 && fwrite(buf, 1, nb, f) != nb;
            nb = 0;
        }
        if (sizeof rec + n > sizeof buf) {
            fl->err |= fwrite(&rec, sizeof rec, 1, f) != 1 || fwrite(t, 1, n, f) != n;
            continue;
        }
        memcpy(buf + nb, &rec, sizeof rec);
        memcpy(buf + nb + sizeof rec, t, n);
        nb += sizeof rec + n;
    }
    fl->err |= nb > 0 && fwrite(buf, 1, nb, f) != nb;
    if (fflush(f) != 0) {
        fl->err = 1;
    }
    rewind(f);
    fl->runs[fl->nruns++] = f;
    fl->nr = 0;
    fl->text.n = 0;
}

/* Pending flow p of thread th, written at `at` (the start of its slice; NULL: its own time). */
static void fl_bind(jflows_t *fl, flthread_t *th, flpend_t *p, const u128 *at) {
    if (fl->text.n + fl->nr * sizeof *fl->r >= fl->run_bytes) { /* text and records together */
        fl_spill(fl);
    }
    if (cli_grow(&fl->r, &fl->capr, fl->nr + 1, sizeof *fl->r, 256) != 0) {
        fl->err = 1;
        return;
    }
    flrec_t *r = &fl->r[fl->nr++];
    r->id = p->id;
    r->seq = p->seq;
    r->ts = p->ts;
    r->at = at != NULL ? *at : p->ts;
    r->prov = th->prov;
    r->off = fl->text.n;
    r->ids_len = p->ids_len;
    r->cat_len = p->cat_len;
    r->name_len = p->name_len;
    r->args_len = p->args_len;
    r->type = p->type;
    r->sel = p->sel;
    r->kind = FL_FLOW;
    cli_jb_mem(&fl->text, th->ptext.p + p->off, (size_t)p->ids_len + p->cat_len + p->name_len + p->args_len);
    fl->err |= fl->text.err;
    p->live = 0;
    if (--th->live == 0) {
        th->np = 0;
        th->ptext.n = 0;
    }
}

/* Binds p to its candidate pair (still open), else to its own time. */
static void fl_bind_cand(jflows_t *fl, flthread_t *th, flpend_t *p) {
    fl_bind(fl, th, p, p->cand >= 0 ? &th->f[p->cand] : NULL);
}

static void fl_bind_all(jflows_t *fl, flthread_t *th) {
    for (size_t i = 0; i < th->np && th->live; i++) {
        if (th->p[i].live) {
            fl_bind_cand(fl, th, &th->p[i]);
        }
    }
}

/* The flow state of the event's thread (cached in its jthr_t, *ep: looked up when NULL); NULL
 * when out of memory. */
static flthread_t *fl_thread(jctx_t *j, const fxt_record_t *rec, jthr_t **ep) {
    jthr_t *e = *ep != NULL ? *ep : jthr_of(j, rec, &rec->u.event.thread);
    *ep = e;
    if (e->flix1 != 0) {
        return cli_map_at(&j->fl->threads, e->flix1 - 1, NULL, NULL);
    }
    uint64_t key[4] = {(uint64_t)rec->has_provider, rec->provider, e->pid, e->tid};
    size_t ix;
    flthread_t *th = cli_map_get_ix(&j->fl->threads, key, sizeof key, 1, &ix);
    if (th == NULL) {
        j->fl->err = 1;
        return NULL;
    }
    th->ptext.grow = 1;
    th->prov = (uint64_t)(uint32_t)rec->has_provider << 32 | rec->provider;
    e->flix1 = ix + 1;
    return th;
}

/* A duration begin, end or complete event of thread th: the slices flows bind to. */
static void fl_slice_th(jflows_t *fl, flthread_t *th, unsigned type, u128 ns, u128 end_ns) {
    if (type == FXT_EVENT_DURATION_BEGIN) {
        if (th->depth == JSON_MAX_DEPTH || th->deep) {
            th->deep++;
            return;
        }
        if (cli_grow(&th->f, &th->cap, th->depth + 1, sizeof *th->f, 16) != 0) {
            fl->err = 1;
            return;
        }
        th->f[th->depth++] = ns;
    } else if (type == FXT_EVENT_DURATION_END) {
        if (th->deep) {
            th->deep--;
            return;
        }
        if (th->depth == 0) {
            return;
        }
        /* flows waiting for this pair: no complete event inside it enclosed them */
        for (size_t i = 0; i < th->np && th->live; i++) {
            if (th->p[i].live && th->p[i].cand == (int32_t)th->depth - 1) {
                fl_bind_cand(fl, th, &th->p[i]);
            }
        }
        th->depth--;
    } else if (th->live) {
        /* a complete event: the innermost enclosing one of the flows it encloses, unless their
         * pair started later (inside it) */
        for (size_t i = 0; i < th->np && th->live; i++) {
            flpend_t *p = &th->p[i];
            if (!p->live || p->ts < ns || p->ts > end_ns) {
                continue;
            }
            fl_bind(fl, th, p, p->cand >= 0 && th->f[p->cand] > ns ? &th->f[p->cand] : &ns);
        }
    }
}

/* e: the thread's jthr_of entry, looked up once for this and the event's output */
static void fl_slice(jctx_t *j, const fxt_record_t *rec, jthr_t *e, u128 ns, u128 end_ns) {
    flthread_t *th = fl_thread(j, rec, &e);
    if (th != NULL) {
        fl_slice_th(j->fl, th, rec->u.event.type, ns, end_ns);
    }
}

/* A flow event of thread th: pending until its slice is known; its text (ids, cat, name, args)
 * goes to th->ptext from the returned entry's off on. NULL when out of memory. */
static flpend_t *fl_flow_th(jflows_t *fl, flthread_t *th, u128 ns, uint64_t id, unsigned type, int selected) {
    if (th->np == FL_MAX_PENDING) {
        fl_bind_all(fl, th);
    }
    if (cli_grow(&th->p, &th->capp, th->np + 1, sizeof *th->p, 16) != 0) {
        fl->err = 1;
        return NULL;
    }
    flpend_t *p = &th->p[th->np++];
    th->live++;
    p->ts = ns;
    p->id = id;
    p->seq = fl->seq++;
    p->type = (uint8_t)(type - FXT_EVENT_FLOW_BEGIN);
    p->sel = (uint8_t)selected;
    p->live = 1;
    p->cand = th->depth > 0 ? (int32_t)th->depth - 1 : -1;
    p->off = th->ptext.n;
    return p;
}

/* An event's ,"pid":..,"tid":.. / cat / name / ,"args":{..} appended to o; their lengths in len. */
static void fl_text(jctx_t *j, cli_jbuf_t *o, const fxt_record_t *rec, const jthr_t *e, uint32_t len[4]) {
    cli_jb_mem(o, e->lit, e->len);
    len[0] = e->len;
    size_t at = o->n;
    jb_istr(j, o, rec->u.event.category);
    len[1] = (uint32_t)(o->n - at);
    at = o->n;
    jb_istr(j, o, rec->u.event.name);
    len[2] = (uint32_t)(o->n - at);
    at = o->n;
    write_args(j, o, rec, NULL, rec->u.event.name, 0);
    len[3] = (uint32_t)(o->n - at);
}

/* A flow event: pending on its thread until its slice is known. */
static void fl_flow(jctx_t *j, const fxt_record_t *rec, u128 ns, int selected) {
    jthr_t *e = NULL;
    flthread_t *th = fl_thread(j, rec, &e);
    if (th == NULL) {
        return;
    }
    flpend_t *p = fl_flow_th(j->fl, th, ns, rec->u.event.id, rec->u.event.type, selected);
    if (p == NULL) {
        return;
    }
    uint32_t len[4];
    fl_text(j, &th->ptext, rec, e, len);
    p->ids_len = len[0];
    p->cat_len = len[1];
    p->name_len = len[2];
    p->args_len = len[3];
    j->fl->err |= th->ptext.err;
}

/* An async event of provider prov: held with the flows (at its own time, no slice to bind to),
 * matched into chains by the same rule, written at the end (docs/json.md, Async events); its
 * text goes to fl->text from the returned record's off on. NULL when out of memory. */
static flrec_t *fl_async_rec(jflows_t *fl, uint64_t prov, u128 ns, uint64_t id, unsigned type, int selected) {
    if (fl->text.n + fl->nr * sizeof *fl->r >= fl->run_bytes) { /* text and records together */
        fl_spill(fl);
    }
    if (cli_grow(&fl->r, &fl->capr, fl->nr + 1, sizeof *fl->r, 256) != 0) {
        fl->err = 1;
        return NULL;
    }
    flrec_t *r = &fl->r[fl->nr++];
    memset(r, 0, sizeof *r);
    r->id = id;
    r->seq = fl->seq++;
    r->ts = r->at = ns;
    r->prov = prov;
    r->type = (uint8_t)(type - FXT_EVENT_ASYNC_BEGIN);
    r->sel = (uint8_t)selected;
    r->kind = FL_ASYNC;
    r->off = fl->text.n;
    return r;
}

static void fl_async(jctx_t *j, const fxt_record_t *rec, u128 ns, int selected) {
    jflows_t *fl = j->fl;
    flrec_t *r = fl_async_rec(fl, (uint64_t)(uint32_t)rec->has_provider << 32 | rec->provider, ns,
                              rec->u.event.id, rec->u.event.type, selected);
    if (r == NULL) {
        return;
    }
    uint32_t len[4];
    fl_text(j, &fl->text, rec, jthr_of(j, rec, &rec->u.event.thread), len);
    r->ids_len = len[0];
    r->cat_len = len[1];
    r->name_len = len[2];
    r->args_len = len[3];
    fl->err |= fl->text.err;
}

/* One async event of chain c (slot: its place among the chains of its id open at once; -1: an
 * instant with no begin): "0x<id>", or "0x<id>:<slot+1>" while another chain of the id is open in
 * another provider, so independent chains never merge in a viewer. The begin's category (viewers
 * group by it) and, but for instants, its name (Perfetto ends a slice only by an "e" of its name). */
static void as_write(jctx_t *j, const flrec_t *r, const char *t, const flchain_t *c, long slot) {
    static const char ph[3] = {'b', 'n', 'e'};
    cli_jbuf_t *o = &j->out;
    begin_event(j);
    const char *own_cat = t + r->ids_len, *own_name = own_cat + r->cat_len;
    CLI_JB_LIT(o, "{\"cat\":");
    if (c != NULL) {
        cli_jb_mem(o, c->text.p, c->cat_len);
    } else {
        cli_jb_mem(o, own_cat, r->cat_len);
    }
    CLI_JB_LIT(o, ",\"name\":");
    if (c != NULL && r->type != 1) {
        cli_jb_mem(o, c->text.p + c->cat_len, c->text.n - c->cat_len);
    } else {
        cli_jb_mem(o, own_name, r->name_len);
    }
    CLI_JB_LIT(o, ",\"ts\":");
    jb_ts(j, o, r->ts);
    cli_jb_mem(o, t, r->ids_len);
    char head[] = ",\"ph\":\"?\",\"id\":\"";
    head[7] = ph[r->type];
    cli_jb_mem(o, head, sizeof head - 1);
    cli_jb_hex(o, r->id);
    if (slot != 0) {
        cli_jb_putc(o, ':');
        cli_jb_u64(o, (uint64_t)(slot + 1));
    }
    cli_jb_putc(o, '"');
    cli_jb_mem(o, own_name + r->name_len, r->args_len);
    cli_jb_putc(o, '}');
    j->nevents++;
}

/* One flow event of chain c, as the viewers read it, at `at`. */
static void fl_write(jctx_t *j, const flrec_t *r, const char *t, const flchain_t *c, u128 at) {
    static const char ph[3] = {'s', 't', 'f'};
    cli_jbuf_t *o = &j->out;
    begin_event(j);
    CLI_JB_LIT(o, "{\"cat\":");
    cli_jb_mem(o, c->text.p, c->cat_len);
    CLI_JB_LIT(o, ",\"name\":");
    cli_jb_mem(o, c->text.p + c->cat_len, c->text.n - c->cat_len);
    CLI_JB_LIT(o, ",\"ts\":");
    jb_ts(j, o, at);
    cli_jb_mem(o, t, r->ids_len);
    char head[] = ",\"ph\":\"?\",\"bp\":\"e\",\"id\":\"";
    head[7] = ph[r->type];
    cli_jb_mem(o, head, sizeof head - 1);
    cli_jb_u64(o, c->uid);
    cli_jb_putc(o, '"');
    cli_jb_mem(o, t + r->ids_len + r->cat_len + r->name_len, r->args_len);
    cli_jb_putc(o, '}');
    j->nevents++;
}

/* The chains of one id so far (open ones: at most one per provider). */
typedef struct flgroup {
    flchain_t *c;
    size_t n, cap;
    uint64_t id;
    int any, kind;
} flgroup_t;

/* One bound flow in (id, time) order: matched to its chain (docs/check.md#chain-ids), written. */
static void fl_chain(jctx_t *j, flgroup_t *g, const flrec_t *r, const char *t) {
    jflows_t *fl = j->fl;
    if (!g->any || r->id != g->id || r->kind != g->kind) {
        for (size_t i = 0; i < g->n; i++) {
            g->c[i].open = 0;
        }
        g->any = 1;
        g->id = r->id;
        g->kind = r->kind;
    }
    int async = r->kind == FL_ASYNC;
    flchain_t *own = NULL, *other = NULL, *free_c = NULL;
    size_t others = 0;
    for (size_t i = 0; i < g->n; i++) {
        flchain_t *c = &g->c[i];
        if (!c->open) {
            free_c = free_c ? free_c : c;
        } else if (c->prov == r->prov) {
            own = c;
        } else {
            other = c;
            others++;
        }
    }
    if (r->type == 0) {
        if (own != NULL) {
            *(async ? &fl->a_collisions : &fl->collisions) += 1; /* begun again while open: the old
                                                                   chain ends here */
            free_c = own;
        } else if (free_c == NULL) {
            if (cli_grow(&g->c, &g->cap, g->n + 1, sizeof *g->c, 4) != 0) {
                fl->err = 1;
                return;
            }
            free_c = &g->c[g->n++];
            memset(free_c, 0, sizeof *free_c);
            free_c->text.grow = 1;
        }
        free_c->open = 1;
        free_c->prov = r->prov;
        free_c->uid = ++fl->uids;
        free_c->text.n = 0;
        cli_jb_mem(&free_c->text, t + r->ids_len, (size_t)r->cat_len + r->name_len);
        free_c->cat_len = r->cat_len;
        fl->err |= free_c->text.err;
        own = free_c;
    } else if (own == NULL) {
        if (others != 1) {
            /* no begin open, or several other providers' (ambiguous) */
            if (!async) {
                fl->orphans++;
            } else if (r->type == 2) {
                fl->a_orphans++; /* an "e" with no "b" draws nothing */
            } else {
                fl->a_alone++; /* an instant is drawn alone: kept, apart from any chain */
                if (r->sel) {
                    as_write(j, r, t, NULL, -1);
                }
            }
            return;
        }
        own = other;
    }
    if (async) {
        if (r->sel) {
            as_write(j, r, t, own, (long)(own - g->c));
        }
        if (r->type == 2) {
            own->open = 0;
        }
        return;
    }
    /* A step or end whose slice starts before where the chain's previous event was written
     * stays at its own time (bp "e" binds it there; Perfetto would drop a flow going back in
     * time; DevTools, which binds by an equal ts, does not draw it) */
    u128 at = r->at;
    if (r->type != 0 && at < own->last_at) {
        at = r->ts;
        fl->unmoved++;
    }
    own->last_at = at;
    if (r->sel) {
        fl_write(j, r, t, own, at);
    }
    if (r->type == 2) {
        own->open = 0;
    }
}

/* A run being read back: FL_IO_BYTES at a time (two fread calls per record cost more than the
 * merge). */
typedef struct flrun {
    FILE *f;
    char *buf;
    size_t pos, n, cap;
} flrun_t;

/* n bytes of run u to dst; 0 when the run has fewer left. */
static int fl_run_get(flrun_t *u, void *dst, size_t n) {
    char *d = dst;
    while (n > 0) {
        if (u->pos == u->n) {
            u->pos = 0;
            u->n = fread(u->buf, 1, u->cap, u->f);
            if (u->n == 0) {
                return 0;
            }
        }
        size_t k = u->n - u->pos < n ? u->n - u->pos : n;
        memcpy(d, u->buf + u->pos, k);
        u->pos += k;
        d += k;
        n -= k;
    }
    return 1;
}

/* Reads one record of a run; 0 at its end. */
static int fl_run_read(flrun_t *u, flrec_t *r, cli_jbuf_t *t) {
    if (!fl_run_get(u, r, sizeof *r)) {
        return 0;
    }
    size_t n = (size_t)r->ids_len + r->cat_len + r->name_len + r->args_len;
    t->n = 0;
    if (n && cli_jb_room(t, n) && fl_run_get(u, t->p, n)) {
        t->n = n;
    }
    return t->n == n;
}

/* At the end of input: every pending flow bound, the chains matched and written in order. */
static void fl_finish(jctx_t *j) {
    jflows_t *fl = j->fl;
    for (size_t i = 0; i < fl->threads.count; i++) {
        fl_bind_all(fl, cli_map_at(&fl->threads, i, NULL, NULL));
    }
    flgroup_t g;
    memset(&g, 0, sizeof g);
    if (fl->nruns == 0) {
        const uint32_t *ord = fl->nr > 0 ? fl_sort(fl) : NULL; /* r is NULL without flows */
        for (size_t i = 0; ord != NULL && i < fl->nr; i++) {
            fl_chain(j, &g, &fl->r[ord[i]], fl->text.p + fl->r[ord[i]].off);
        }
    } else {
        if (fl->nr > 0) {
            fl_spill(fl);
        }
        /* k-way merge of the runs (few: a linear scan for the least) */
        size_t k = fl->nruns;
        flrec_t *cur = calloc(k, sizeof *cur);
        cli_jbuf_t *txt = calloc(k, sizeof *txt);
        int *live = calloc(k, sizeof *live);
        flrun_t *run = calloc(k, sizeof *run);
        size_t cap = k > 64 ? 4096 : FL_IO_BYTES; /* many runs (tests): stdio's size */
        char *bufs = malloc(k * cap);
        if (cur == NULL || txt == NULL || live == NULL || run == NULL || bufs == NULL) {
            fl->err = 1;
            k = 0;
        }
        for (size_t i = 0; i < k; i++) {
            txt[i].grow = 1;
            run[i].f = fl->runs[i];
            run[i].buf = bufs + i * cap;
            run[i].cap = cap;
            live[i] = fl_run_read(&run[i], &cur[i], &txt[i]);
        }
        for (;;) {
            size_t best = k;
            for (size_t i = 0; i < k; i++) {
                if (live[i] && (best == k || fl_cmp(&cur[i], &cur[best]) < 0)) {
                    best = i;
                }
            }
            if (best == k) {
                break;
            }
            fl_chain(j, &g, &cur[best], txt[best].p);
            live[best] = fl_run_read(&run[best], &cur[best], &txt[best]);
            fl->err |= txt[best].err;
        }
        for (size_t i = 0; i < k; i++) {
            fl->err |= ferror(fl->runs[i]) != 0;
            free(txt[i].p);
        }
        free(cur);
        free(txt);
        free(live);
        free(run);
        free(bufs);
    }
    for (size_t i = 0; i < g.n; i++) {
        free(g.c[i].text.p);
    }
    free(g.c);
}

static void fl_free(jflows_t *fl) {
    for (size_t i = 0; i < fl->threads.count; i++) {
        flthread_t *th = cli_map_at(&fl->threads, i, NULL, NULL);
        free(th->f);
        free(th->p);
        free(th->ptext.p);
    }
    cli_map_free(&fl->threads);
    for (size_t i = 0; i < fl->nruns; i++) {
        fclose(fl->runs[i]);
    }
    free(fl->runs);
    free(fl->r);
    free(fl->ix);
    free(fl->text.p);
}

/* ---- flows read by a range after the first: logged in file order, fed by its merge ------- */

/* A flow or async event read by a range, as the flow state takes it; its text follows the
 * previous one's in the range's fltext. */
typedef struct flop {
    u128 ns;
    uint64_t id;
    uint32_t th;     /* index in the range's flth */
    uint32_t nsl;    /* slices of its thread logged before it (a flow's binding depends on them) */
    uint32_t len[4]; /* ,"pid":..,"tid":.. / cat / name / ,"args":{..} */
    uint8_t type, sel;
} flop_t;

/* A duration begin, end or complete event read by a range, on its thread's list. Logged apart
 * from the flows: a thread's slices are fed to the run's flow state only up to its next flow,
 * and complete events only while it has flows waiting for a slice (without, they change
 * nothing), so a trace without flows costs one entry per duration event and no work at the
 * merge but the begins and ends. */
typedef struct flslice {
    u128 ns, end_ns; /* end_ns: a complete event's end */
    uint32_t next;   /* the thread's next slice, UINT32_MAX none */
    uint32_t up;     /* a begin: the begin open around it in the range, UINT32_MAX none */
    uint32_t nfl;    /* a begin: the thread's flows logged before it */
    uint8_t type;    /* FL_DEAD: a begin ended in the range with no flow of its thread between */
} flslice_t;

/* A begin/end pair of a range with no flow of its thread between them changes nothing the
 * flows bind to: a flow waiting from before it waits on a pair open outside it (its end binds
 * only flows begun inside it) and a complete event inside it compares the flow's own pair. */
#define FL_DEAD 0xff

typedef struct fllocal {
    uint64_t prov;       /* has_provider << 32 | provider */
    size_t peer;         /* at the merge: the index of the run's flthread_t */
    uint32_t head, tail; /* its slices in the range's fls, UINT32_MAX none */
    uint32_t nsl, done;  /* slices logged; fed by the merge so far */
    uint32_t pairs;      /* begins and ends not yet fed */
    uint32_t open, nfl;  /* its innermost open begin in fls (UINT32_MAX none); flows logged */
} fllocal_t;

/* The range-local thread of an event (e: its jthr_of entry); NULL when out of memory. */
static fllocal_t *flog_thread(jctx_t *j, const fxt_record_t *rec, jthr_t *e) {
    if (e->flix1 != 0) {
        return cli_map_at(&j->flth, e->flix1 - 1, NULL, NULL);
    }
    uint64_t key[4] = {(uint64_t)rec->has_provider, rec->provider, e->pid, e->tid};
    size_t ix;
    fllocal_t *lt = cli_map_get_ix(&j->flth, key, sizeof key, 1, &ix);
    if (lt == NULL) {
        j->nomem = 1;
        return NULL;
    }
    lt->prov = (uint64_t)(uint32_t)rec->has_provider << 32 | rec->provider;
    lt->head = lt->tail = lt->open = UINT32_MAX;
    e->flix1 = ix + 1;
    return lt;
}

/* Logs a duration event of a range (j->part) for its merge: the slices flows bind to. */
static void flog_slice(jctx_t *j, const fxt_record_t *rec, jthr_t *e, unsigned type, u128 ns, u128 end_ns) {
    fllocal_t *lt = flog_thread(j, rec, e);
    if (lt == NULL) {
        return;
    }
    if (type == FXT_EVENT_DURATION_END && lt->open != UINT32_MAX) {
        flslice_t *b = &j->fls[lt->open];
        lt->open = b->up;
        if (b->nfl == lt->nfl) {
            b->type = FL_DEAD; /* neither it nor its end is fed */
            lt->pairs--;
            return;
        }
    }
    if (j->nfls == j->capfls &&
        (j->nfls >= UINT32_MAX - 1 || cli_grow(&j->fls, &j->capfls, j->nfls + 1, sizeof *j->fls, 256) != 0)) {
        j->nomem = 1;
        return;
    }
    uint32_t ix = (uint32_t)j->nfls++;
    flslice_t *s = &j->fls[ix];
    s->ns = ns;
    s->end_ns = end_ns;
    s->next = UINT32_MAX;
    s->type = (uint8_t)type;
    if (type == FXT_EVENT_DURATION_BEGIN) {
        s->up = lt->open;
        s->nfl = lt->nfl;
        lt->open = ix;
    }
    if (lt->tail == UINT32_MAX) {
        lt->head = ix;
    } else {
        j->fls[lt->tail].next = ix;
    }
    lt->tail = ix;
    lt->nsl++;
    lt->pairs += type != FXT_EVENT_DURATION_COMPLETE;
}

/* Logs a flow or async event of a range (j->part) for its merge: the state flows bind and
 * match against depends on every range before, known only there. */
static void flog_add(jctx_t *j, const fxt_record_t *rec, unsigned type, u128 ns, int selected) {
    if (cli_grow(&j->flog, &j->capflog, j->nflog + 1, sizeof *j->flog, 256) != 0) {
        j->nomem = 1;
        return;
    }
    jthr_t *e = jthr_of(j, rec, &rec->u.event.thread);
    fllocal_t *lt = flog_thread(j, rec, e);
    if (lt == NULL) {
        return;
    }
    flop_t *op = &j->flog[j->nflog++];
    op->ns = ns;
    op->id = rec->u.event.id;
    op->th = (uint32_t)(e->flix1 - 1);
    op->nsl = lt->nsl;
    lt->nfl += type >= FXT_EVENT_FLOW_BEGIN;
    op->type = (uint8_t)type;
    op->sel = (uint8_t)selected;
    fl_text(j, &j->fltext, rec, e, op->len);
    j->nomem |= j->fltext.err;
}

/* Range g's slices of thread lt fed to the run's thread th until upto of them are. A complete
 * event changes nothing while th has no flow waiting (fl_slice_th), nor do the begins and ends
 * then but for the open pairs, so only those are fed. */
static void flog_feed(jflows_t *fl, const jctx_t *g, fllocal_t *lt, flthread_t *th, uint32_t upto) {
    if (upto == lt->nsl && lt->pairs == 0 && th->live == 0) {
        lt->done = upto; /* the last feed of a thread of complete events only: nothing to do */
        return;
    }
    while (lt->done < upto) {
        const flslice_t *s = &g->fls[lt->head];
        lt->head = s->next;
        lt->done++;
        if (s->type == FL_DEAD) {
            continue;
        }
        if (s->type != FXT_EVENT_DURATION_COMPLETE) {
            lt->pairs--;
        } else if (th->live == 0) {
            continue;
        }
        fl_slice_th(fl, th, s->type, s->ns, s->end_ns);
    }
}

/* Range g's logged events fed to the run's flow state, in order: what one sequential read
 * does with them. Returns -1 when out of memory. */
static int flog_merge(jctx_t *j, jctx_t *g) {
    jflows_t *fl = j->fl;
    for (size_t i = 0; i < g->flth.count; i++) {
        const char *key;
        size_t kl;
        fllocal_t *lt = cli_map_at(&g->flth, i, &key, &kl);
        flthread_t *th = cli_map_get_ix(&fl->threads, key, kl, 1, &lt->peer);
        if (th == NULL) {
            fl->err = 1;
            return -1;
        }
        th->ptext.grow = 1;
        th->prov = lt->prov;
    }
    /* no thread is added below: the run's flthread_t stay where they are. Each thread's
     * slices are fed in its own order up to its next flow; the threads' flow states are apart
     * (the bound flows are sorted at the end), and flows and asyncs go in file order (seq). */
    const char *t = g->fltext.p;
    for (size_t i = 0; i < g->nflog; i++) {
        const flop_t *op = &g->flog[i];
        fllocal_t *lt = cli_map_at(&g->flth, op->th, NULL, NULL);
        size_t n = (size_t)op->len[0] + op->len[1] + op->len[2] + op->len[3];
        if (op->type >= FXT_EVENT_FLOW_BEGIN) {
            flthread_t *th = cli_map_at(&fl->threads, lt->peer, NULL, NULL);
            flog_feed(fl, g, lt, th, op->nsl);
            flpend_t *p = fl_flow_th(fl, th, op->ns, op->id, op->type, op->sel);
            if (p != NULL) {
                cli_jb_mem(&th->ptext, t, n);
                p->ids_len = op->len[0];
                p->cat_len = op->len[1];
                p->name_len = op->len[2];
                p->args_len = op->len[3];
                fl->err |= th->ptext.err;
            }
        } else {
            flrec_t *r = fl_async_rec(fl, lt->prov, op->ns, op->id, op->type, op->sel);
            if (r != NULL) {
                cli_jb_mem(&fl->text, t, n);
                r->ids_len = op->len[0];
                r->cat_len = op->len[1];
                r->name_len = op->len[2];
                r->args_len = op->len[3];
                fl->err |= fl->text.err;
            }
        }
        t += n;
    }
    for (size_t i = 0; i < g->flth.count; i++) {
        fllocal_t *lt = cli_map_at(&g->flth, i, NULL, NULL);
        flog_feed(fl, g, lt, cli_map_at(&fl->threads, lt->peer, NULL, NULL), lt->nsl);
    }
    return fl->err ? -1 : 0;
}

/* One event as a Chrome trace event; the ph letters and keys follow the table in docs/json.md. */
static void on_event(jctx_t *j, fxt_reader_t *r, const fxt_record_t *rec) {
    cli_jbuf_t *o = &j->out;
    /* An event type this spec revision does not define has no ph letter: counted as skipped. */
    if (rec->u.event.type >= FXT_EVENT_TYPE_COUNT) {
        j->skipped++;
        return;
    }
    uint64_t tps = fxt_reader_ticks_per_second(r);
    u128 ns = ticks_ns(rec->u.event.ts, tps);
    int selected = event_selected(j, rec, ns);
    unsigned type = rec->u.event.type;
    if (type >= FXT_EVENT_ASYNC_BEGIN) {
        /* written at the end, bound (flows) and matched into chains (see "flows" above) */
        if (j->part) {
            flog_add(j, rec, type, ns, selected); /* unselected ones too */
        } else if (type >= FXT_EVENT_FLOW_BEGIN) {
            fl_flow(j, rec, ns, selected);
        } else {
            fl_async(j, rec, ns, selected); /* unselected ones too: they take part in matching */
        }
        return;
    }
    jthr_t *e = NULL; /* the thread's cache entry, looked up once for the log and the output */
    if (type >= FXT_EVENT_DURATION_BEGIN && type <= FXT_EVENT_DURATION_COMPLETE) {
        u128 end_ns = type == FXT_EVENT_DURATION_COMPLETE ? ticks_ns(rec->u.event.end_ts, tps) : 0;
        e = jthr_of(j, rec, &rec->u.event.thread);
        if (j->part) {
            flog_slice(j, rec, e, type, ns, end_ns);
        } else {
            fl_slice(j, rec, e, ns, end_ns);
        }
    }
    /* A pair is selected by its begin: the end follows it (docs/json.md, Filters). */
    if (type == FXT_EVENT_DURATION_BEGIN) {
        on_begin(j, rec, ns, selected);
        return;
    }
    if (type == FXT_EVENT_DURATION_END) {
        on_end(j, rec, ns, selected);
        return;
    }
    if (!selected) {
        return;
    }
    event_head(j, o, &rec->u.event.category, &rec->u.event.name,
               e != NULL ? e : jthr_of(j, rec, &rec->u.event.thread), ns, 1);
    switch (rec->u.event.type) {
    case FXT_EVENT_INSTANT: {
        uint64_t s = FXT_SCOPE_THREAD;
        /* The scope word Fuchsia appends after the arguments (spec-notes: instants with a scope word);
         * without it, thread scope. */
        if (rec->u.event.extra_words > 0) {
            s = fxt_record_word(rec, rec->u.event.extra, 0);
        }
        /* "I", not the older "i": DevTools reads only "I" (Perfetto and catapult read both). */
        if (s == FXT_SCOPE_GLOBAL) {
            CLI_JB_LIT(o, ",\"ph\":\"I\",\"s\":\"g\"");
        } else if (s == FXT_SCOPE_PROCESS) {
            CLI_JB_LIT(o, ",\"ph\":\"I\",\"s\":\"p\"");
        } else {
            CLI_JB_LIT(o, ",\"ph\":\"I\",\"s\":\"t\"");
        }
        break;
    }
    case FXT_EVENT_COUNTER:
        CLI_JB_LIT(o, ",\"ph\":\"C\"");
        /* The id key only for a non-zero counter id (docs/json.md mapping). */
        if (rec->u.event.id != 0) {
            CLI_JB_LIT(o, ",\"id\":\"");
            cli_jb_hex(o, rec->u.event.id);
            cli_jb_putc(o, '"');
        }
        break;
    case FXT_EVENT_DURATION_COMPLETE:
        CLI_JB_LIT(o, ",\"ph\":\"X\",\"dur\":");
        /* Both ends converted the same way so ts + dur is exactly the end's ts (docs/json.md). */
        jb_us_signed(o, ns, ticks_ns(rec->u.event.end_ts, tps));
        break;
    default:
        break;
    }
    write_args_end(j, o, rec, 0);
    j->nevents++;
}

/* Elements of the spilled systemTraceEvents array, comma-separated like begin_event. */
static void sys_begin(jctx_t *j) {
    if (j->part) {
        CLI_JB_LIT(&j->sys, ",\n");
        j->nel_sys++;
        return;
    }
    if (!j->first_sys) {
        cli_jb_putc(&j->sys, ',');
    }
    j->first_sys = 0;
    cli_jb_putc(&j->sys, '\n');
}

/* A named argument's integer value (scheduling weights). */
static int find_int_arg(const fxt_record_t *rec, const char *name, int64_t *v) {
    size_t n = strlen(name);
    for (unsigned i = 0; i < rec->nargs; i++) {
        const fxt_arg_t *a = &rec->args[i];
        if (a->name.ptr && a->name.len == n && memcmp(a->name.ptr, name, n) == 0) {
            switch (a->type) {
            case FXT_ARG_INT32:
                *v = a->v.i32;
                return 1;
            case FXT_ARG_UINT32:
                *v = a->v.u32;
                return 1;
            case FXT_ARG_INT64:
                *v = a->v.i64;
                return 1;
            case FXT_ARG_UINT64:
                *v = (int64_t)a->v.u64;
                return 1;
            default:
                return 0;
            }
        }
    }
    return 0;
}

/* A thread's name for the systrace lines: at most 15 bytes like a Linux comm, with
 * characters that would break the line's "key=value" fields replaced by '_'. */
typedef struct comm {
    char s[16];
} comm_t;

static void remember_comm(jctx_t *j, uint64_t tid, fxt_str_t name) {
    comm_t *c = cli_map_get_u64(&j->comms, tid, 0, 1);
    if (c == NULL) {
        return; /* out of memory: the thread is shown by its tid */
    }
    size_t n = name.len < sizeof c->s - 1 ? name.len : sizeof c->s - 1;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)name.ptr[i];
        c->s[i] = ch <= ' ' || ch >= 0x7f || ch == '=' || ch == '"' || ch == '\\' ? '_' : (char)ch;
    }
    c->s[n] = '\0';
}

/* The thread's comm, or "tid-<tid>" when no kernel object named it. */
static void sys_comm(jctx_t *j, uint64_t tid) {
    const comm_t *c = tid ? cli_map_get_u64(&j->comms, tid, 0, 0) : NULL;
    if (c == NULL && tid && j->part) {
        /* not named in the range: its name, if any, came before it */
        jpiece_t *p = add_piece(j, PC_COMM);
        if (p != NULL) {
            p->v = tid;
        }
        return;
    }
    if (c != NULL && c->s[0]) {
        cli_jb_mem(&j->sys, c->s, strlen(c->s));
    } else if (tid == 0) {
        CLI_JB_LIT(&j->sys, "<idle>");
    } else {
        CLI_JB_LIT(&j->sys, "tid-");
        cli_jb_u64(&j->sys, tid);
    }
}

/* Linux's prev_state letter for an FXT thread state (docs/json.md, Scheduling records). */
static const char *sys_state(uint64_t st) {
    switch (st) {
    case FXT_THREAD_SUSPENDED:
        return "T";
    case FXT_THREAD_BLOCKED:
        return "S";
    case FXT_THREAD_DYING:
        return "Z";
    case FXT_THREAD_DEAD:
        return "X";
    default:
        return "R"; /* new or running: preempted while runnable */
    }
}

/* The start of one systrace line, "<comm>-<tid> [cpu] .... <sec>.<nsec>: <what>: ", inside the
 * systemTraceEvents string: 9 decimals (Perfetto reads them; ftrace's 6 would round durations). */
static void sys_line(jctx_t *j, uint64_t tid, uint64_t cpu, u128 ns, const char *what) {
    cli_jbuf_t *o = &j->sys;
    sys_comm(j, tid);
    cli_jb_putc(o, '-');
    cli_jb_u64(o, tid);
    CLI_JB_LIT(o, " [");
    char c3[3] = {(char)('0' + cpu / 100 % 10), (char)('0' + cpu / 10 % 10), (char)('0' + cpu % 10)};
    cli_jb_mem(o, c3, 3);
    CLI_JB_LIT(o, "] .... ");
    u128 t = ns;
    if (j->rel_time) {
        t = ns >= j->base_ns ? ns - j->base_ns : 0; /* ftrace times cannot be negative */
    }
    cli_jb_u128(o, t / 1000000000u);
    unsigned frac = (unsigned)(t % 1000000000u);
    char f[10] = {'.'};
    for (int k = 9; k > 0; k--, frac /= 10) {
        f[k] = (char)('0' + frac % 10);
    }
    cli_jb_mem(o, f, 10);
    CLI_JB_LIT(o, ": ");
    cli_jb_mem(o, what, strlen(what));
    CLI_JB_LIT(o, ": ");
}

/* A priority as ftrace's 32-bit prio: -1 when absent or out of range. */
static int64_t sys_prio(int found, int64_t v) { return found && v >= INT32_MIN && v <= INT32_MAX ? v : -1; }

/* One sched_switch line; prio -1 when the record has none (ftrace prints what it has). */
static void sys_switch(jctx_t *j, u128 ns, uint64_t cpu, uint64_t out_tid, uint64_t out_state,
                       int64_t out_prio, uint64_t in_tid, int64_t in_prio) {
    cli_jbuf_t *o = &j->sys;
    sys_line(j, out_tid, cpu, ns, "sched_switch");
    CLI_JB_LIT(o, "prev_comm=");
    sys_comm(j, out_tid);
    CLI_JB_LIT(o, " prev_pid=");
    cli_jb_u64(o, out_tid);
    CLI_JB_LIT(o, " prev_prio=");
    cli_jb_i64(o, out_prio);
    CLI_JB_LIT(o, " prev_state=");
    cli_jb_mem(o, sys_state(out_state), 1);
    CLI_JB_LIT(o, " ==> next_comm=");
    sys_comm(j, in_tid);
    CLI_JB_LIT(o, " next_pid=");
    cli_jb_u64(o, in_tid);
    CLI_JB_LIT(o, " next_prio=");
    cli_jb_i64(o, in_prio);
    CLI_JB_LIT(o, "\\n");
}

/* Scheduling records: systrace text lines (default, the form Perfetto's JSON importer reads)
 * or Fuchsia's systemTraceEvents objects ("k" switch, "w" wakeup), spilled until the end. */
static void on_sched(jctx_t *j, fxt_reader_t *r, const fxt_record_t *rec) {
    uint64_t tps = fxt_reader_ticks_per_second(r);
    uint64_t ts = rec->kind == FXT_KIND_LEGACY_CONTEXT_SWITCH ? rec->u.legacy_context_switch.ts
                  : rec->kind == FXT_KIND_CONTEXT_SWITCH      ? rec->u.context_switch.ts
                                                              : rec->u.thread_wakeup.ts;
    u128 ns = ticks_ns(ts, tps);
    if (!j->sys_on) {
        return;
    }
    cli_jbuf_t *o = &j->sys;
    int64_t v, w;
    if (j->sysfmt == SYS_SYSTRACE) {
        uint64_t t1 = rec->kind == FXT_KIND_LEGACY_CONTEXT_SWITCH ? rec->u.legacy_context_switch.out.tid
                      : rec->kind == FXT_KIND_CONTEXT_SWITCH      ? rec->u.context_switch.out_tid
                                                                  : rec->u.thread_wakeup.tid;
        uint64_t t2 = rec->kind == FXT_KIND_LEGACY_CONTEXT_SWITCH ? rec->u.legacy_context_switch.in.tid
                      : rec->kind == FXT_KIND_CONTEXT_SWITCH      ? rec->u.context_switch.in_tid
                                                                  : 0;
        /* Perfetto reads systrace pids as 32-bit: a line it cannot convert fails the whole
         * import, so a record with a larger koid has no systrace form (docs/json.md). */
        if (t1 > UINT32_MAX || t2 > UINT32_MAX) {
            j->skipped++;
            return;
        }
        if (rec->kind == FXT_KIND_LEGACY_CONTEXT_SWITCH) {
#define CS rec->u.legacy_context_switch
            sys_switch(j, ns, CS.cpu, CS.out.tid, CS.out_state, CS.out_prio, CS.in.tid, CS.in_prio);
#undef CS
        } else if (rec->kind == FXT_KIND_CONTEXT_SWITCH) {
            /* fxt record --sched writes the kernel's priorities; Fuchsia writes weights */
            int fv = find_int_arg(rec, "outgoing_priority", &v) || find_int_arg(rec, "outgoing_weight", &v);
            int fw = find_int_arg(rec, "incoming_priority", &w) || find_int_arg(rec, "incoming_weight", &w);
            sys_switch(j, ns, rec->u.context_switch.cpu, rec->u.context_switch.out_tid,
                       rec->u.context_switch.out_state, sys_prio(fv, v), rec->u.context_switch.in_tid,
                       sys_prio(fw, w));
        } else {
            /* The waker is not recorded: the line is attributed to the idle task. sched_waking,
             * not sched_wakeup: Perfetto's importer reads only sched_waking (catapult reads both). */
            sys_line(j, 0, rec->u.thread_wakeup.cpu, ns, "sched_waking");
            CLI_JB_LIT(o, "comm=");
            sys_comm(j, rec->u.thread_wakeup.tid);
            CLI_JB_LIT(o, " pid=");
            cli_jb_u64(o, rec->u.thread_wakeup.tid);
            CLI_JB_LIT(o, " prio=");
            int fv = find_int_arg(rec, "priority", &v) || find_int_arg(rec, "weight", &v);
            cli_jb_i64(o, sys_prio(fv, v));
            CLI_JB_LIT(o, " target_cpu=");
            cli_jb_u64(o, rec->u.thread_wakeup.cpu);
            CLI_JB_LIT(o, "\\n");
        }
        j->nsys++;
        return;
    }
    sys_begin(j);
    if (rec->kind == FXT_KIND_LEGACY_CONTEXT_SWITCH) {
        const fxt_thread_ref_t *out = &rec->u.legacy_context_switch.out,
                               *in = &rec->u.legacy_context_switch.in;
        CLI_JB_LIT(o, "{\"ph\":\"k\",\"ts\":");
        jb_ts(j, o, ns);
        CLI_JB_LIT(o, ",\"cpu\":");
        cli_jb_u64(o, rec->u.legacy_context_switch.cpu);
        CLI_JB_LIT(o, ",\"out\":{\"pid\":");
        cli_jb_u64(o, out->pid);
        CLI_JB_LIT(o, ",\"tid\":");
        cli_jb_u64(o, out->tid);
        CLI_JB_LIT(o, ",\"state\":");
        cli_jb_u64(o, rec->u.legacy_context_switch.out_state);
        CLI_JB_LIT(o, ",\"prio\":");
        cli_jb_u64(o, rec->u.legacy_context_switch.out_prio);
        CLI_JB_LIT(o, "},\"in\":{\"pid\":");
        cli_jb_u64(o, in->pid);
        CLI_JB_LIT(o, ",\"tid\":");
        cli_jb_u64(o, in->tid);
        CLI_JB_LIT(o, ",\"prio\":");
        cli_jb_u64(o, rec->u.legacy_context_switch.in_prio);
        CLI_JB_LIT(o, "}}");
    } else if (rec->kind == FXT_KIND_CONTEXT_SWITCH) {
        CLI_JB_LIT(o, "{\"ph\":\"k\",\"ts\":");
        jb_ts(j, o, ns);
        CLI_JB_LIT(o, ",\"cpu\":");
        cli_jb_u64(o, rec->u.context_switch.cpu);
        CLI_JB_LIT(o, ",\"out\":{\"tid\":");
        cli_jb_u64(o, rec->u.context_switch.out_tid);
        CLI_JB_LIT(o, ",\"state\":");
        cli_jb_u64(o, rec->u.context_switch.out_state);
        /* The current context switch record has no priority field: Fuchsia puts weights in arguments. */
        if (find_int_arg(rec, "outgoing_weight", &v)) {
            CLI_JB_LIT(o, ",\"prio\":");
            cli_jb_i64(o, v);
        }
        CLI_JB_LIT(o, "},\"in\":{\"tid\":");
        cli_jb_u64(o, rec->u.context_switch.in_tid);
        if (find_int_arg(rec, "incoming_weight", &v)) {
            CLI_JB_LIT(o, ",\"prio\":");
            cli_jb_i64(o, v);
        }
        CLI_JB_LIT(o, "}}");
    } else {
        CLI_JB_LIT(o, "{\"ph\":\"w\",\"ts\":");
        jb_ts(j, o, ns);
        CLI_JB_LIT(o, ",\"cpu\":");
        cli_jb_u64(o, rec->u.thread_wakeup.cpu);
        CLI_JB_LIT(o, ",\"tid\":");
        cli_jb_u64(o, rec->u.thread_wakeup.tid);
        if (find_int_arg(rec, "weight", &v)) {
            CLI_JB_LIT(o, ",\"prio\":");
            cli_jb_i64(o, v);
        }
        cli_jb_putc(o, '}');
    }
    j->nsys++;
}

/* Sets the name of a process (what 0) or thread (1), a JSON literal, replacing an earlier one:
 * one name per process or thread, the last (fxt record's manager names a process first with its
 * name cut to 63 bytes, its stream then with the whole name; Perfetto keeps the last). */
static void name_set(jctx_t *j, cli_map_t *m, uint64_t what, uint64_t pid, uint64_t tid, const char *lit,
                     size_t len) {
    uint64_t key[3] = {what, pid, tid};
    jname_t *nm = cli_map_get(m, key, sizeof key, 1);
    char *p = nm != NULL ? realloc(nm->lit, len ? len : 1) : NULL;
    if (p == NULL) {
        j->nomem = 1;
        return;
    }
    memcpy(p, lit, len);
    nm->lit = p;
    nm->len = len;
}

static void names_free(cli_map_t *m) {
    for (size_t i = 0; i < m->count; i++) {
        free(((jname_t *)cli_map_at(m, i, NULL, NULL))->lit);
    }
    cli_map_free(m);
}

/* One name: a name record's "M" event, then its sort index (the order names first appear among
 * processes or threads, so viewers keep the trace's order). */
static void meta_event(jctx_t *j, uint64_t what, uint64_t pid, uint64_t tid, const jname_t *nm,
                       uint64_t sort_index) {
    cli_jbuf_t *o = &j->out;
    const char *kind = what ? "thread" : "process";
    for (int k = 0; k < 2; k++) {
        begin_event(j);
        CLI_JB_LIT(o, "{\"cat\":\"__metadata\",\"ph\":\"M\",\"name\":\"");
        cli_jb_mem(o, kind, strlen(kind));
        if (k) {
            CLI_JB_LIT(o, "_sort_index\",\"pid\":");
        } else {
            CLI_JB_LIT(o, "_name\",\"pid\":");
        }
        cli_jb_u64(o, pid);
        CLI_JB_LIT(o, ",\"tid\":");
        cli_jb_u64(o, tid);
        if (k) {
            CLI_JB_LIT(o, ",\"args\":{\"sort_index\":");
            cli_jb_u64(o, sort_index);
        } else {
            CLI_JB_LIT(o, ",\"args\":{\"name\":");
            cli_jb_mem(o, nm->lit, nm->len);
        }
        CLI_JB_LIT(o, "}}");
        j->nmeta++;
    }
}

/* At the end of input: every process's and thread's last name, in the order they first appear. */
static void json_names(jctx_t *j) {
    uint64_t n[2] = {0, 0};
    for (size_t i = 0; i < j->names.count; i++) {
        const char *k;
        const jname_t *nm = cli_map_at(&j->names, i, &k, NULL);
        uint64_t key[3];
        memcpy(key, k, sizeof key);
        meta_event(j, key[0], key[1], key[2], nm, n[key[0] != 0]++);
    }
}

/* A kernel object's name as a JSON literal, kept for json_names. */
static void name_note(jctx_t *j, uint64_t what, uint64_t pid, uint64_t tid, fxt_str_t name) {
    cli_jbuf_t b;
    memset(&b, 0, sizeof b);
    b.grow = 1;
    jb_fstr(&b, name);
    if (b.err) {
        j->nomem = 1;
    } else {
        name_set(j, &j->names, what, pid, tid, b.p, b.n);
    }
    free(b.p);
}

/* Process and thread names become "M" metadata events (docs/json.md mapping). */
static void on_kernel_object(jctx_t *j, const fxt_record_t *rec) {
    const fxt_str_t *name = &rec->u.kernel_object.name;
    /* Nothing to name: an unresolved or empty name gives no metadata event. */
    if (name->ptr == NULL || name->len == 0) {
        return;
    }
    if (rec->u.kernel_object.obj_type == FXT_OBJ_PROCESS) {
        name_note(j, 0, rec->u.kernel_object.koid, 0, *name);
    } else if (rec->u.kernel_object.obj_type == FXT_OBJ_THREAD) {
        remember_comm(j, rec->u.kernel_object.koid, *name);
        for (unsigned i = 0; i < rec->nargs; i++) {
            const fxt_arg_t *a = &rec->args[i];
            /* A thread needs its process koid to be placed; a koid or uint64 "process" (docs/json.md). */
            if ((a->type == FXT_ARG_KOID || a->type == FXT_ARG_UINT64) && a->name.ptr && a->name.len == 7 &&
                memcmp(a->name.ptr, "process", 7) == 0) {
                name_note(j, 1, a->v.koid, rec->u.kernel_object.koid, *name);
                break;
            }
        }
    }
}

/* A line for stderr ('E': a damaged record's, 'O' another): printed now, or held by a range
 * after the first until its merge, where the count of damaged records before it is known. */
static void say(jctx_t *j, char tag, const char *line) {
    size_t n = strlen(line);
    if (j->part) {
        uint32_t n32 = (uint32_t)n;
        cli_jb_putc(&j->msg, tag);
        cli_jb_mem(&j->msg, &n32, sizeof n32);
        cli_jb_mem(&j->msg, line, n);
        return;
    }
    if (tag != 'E') {
        fputs(line, stderr);
    } else if (++j->errors <= 20) {
        fputs(line, stderr);
    } else if (j->errors == 21) {
        fprintf(stderr, "fxt json: further damaged records are only counted\n");
    }
}

/* on_record for the records that are not events, out of line: their code would make every
 * event's call save registers. */
CLI_NOINLINE void on_other(jctx_t *j, fxt_reader_t *r, const fxt_record_t *rec) {
    switch (rec->kind) {
    case FXT_KIND_LOG: {
        u128 ns = ticks_ns(rec->u.log.ts, fxt_reader_ticks_per_second(r));
        fxt_str_t logname = {"log", 3, 0, 0};
        /* A log has no category: any --category filter drops it; its name is "log". */
        if (!time_selected(j, ns) || j->sel.f.ncats > 0 ||
            !cli_select_match(&j->sel, j->sel.f.names, j->sel.f.nnames, logname)) {
            break;
        }
        begin_event(j);
        /* An empty category: a log has none, and DevTools throws on an event without "cat".
         * The keys before ts are constant: copied whole (event_head would escape both strings). */
        CLI_JB_LIT(&j->out, "{\"cat\":\"\",\"name\":\"log\",\"ts\":");
        jb_ts(j, &j->out, ns);
        event_head_ids(&j->out, jthr_of(j, rec, &rec->u.log.thread));
        CLI_JB_LIT(&j->out, ",\"ph\":\"I\",\"s\":\"g\"");
        write_args(j, &j->out, rec, "message", rec->u.log.message, 0);
        cli_jb_putc(&j->out, '}');
        j->nevents++;
        break;
    }
    case FXT_KIND_KERNEL_OBJECT:
        on_kernel_object(j, rec);
        break;
    case FXT_KIND_CONTEXT_SWITCH:
    case FXT_KIND_THREAD_WAKEUP:
    case FXT_KIND_LEGACY_CONTEXT_SWITCH:
        on_sched(j, r, rec);
        break;
    case FXT_KIND_LARGE_BLOB:
        /* Only fidl:blob large blobs with metadata have a JSON form (as in trace2json). */
        if (rec->u.large_blob.format == FXT_LARGE_BLOB_WITH_METADATA && rec->u.large_blob.category.ptr &&
            rec->u.large_blob.category.len == 9 &&
            memcmp(rec->u.large_blob.category.ptr, "fidl:blob", 9) == 0) {
            u128 ns = ticks_ns(rec->u.large_blob.ts, fxt_reader_ticks_per_second(r));
            if (!time_selected(j, ns) ||
                !cli_select_match(&j->sel, j->sel.f.cats, j->sel.f.ncats, rec->u.large_blob.category) ||
                !cli_select_match(&j->sel, j->sel.f.names, j->sel.f.nnames, rec->u.large_blob.name)) {
                break;
            }
            event_head(j, &j->out, &rec->u.large_blob.category, &rec->u.large_blob.name,
                       jthr_of(j, rec, &rec->u.large_blob.thread), ns, 1);
            CLI_JB_LIT(&j->out, ",\"ph\":\"O\",\"id\":\"\",\"blob\":");
            cli_jb_base64(&j->out, rec->u.large_blob.payload, rec->u.large_blob.size);
            cli_jb_putc(&j->out, '}');
            j->nevents++;
        } else {
            j->skipped++;
        }
        break;
    case FXT_KIND_PROVIDER_EVENT:
        if (rec->u.provider_event.event == FXT_PROVIDER_EVENT_BUFFER_FULL) {
            char line[160];
            j->overflows++;
            snprintf(line, sizeof line,
                     "fxt json: provider %" PRIu32 " reported a full buffer at offset %" PRIu64
                     ": records were likely dropped\n",
                     rec->u.provider_event.id, rec->offset);
            say(j, 'O', line);
        }
        break;
    case FXT_KIND_UNKNOWN:
        j->skipped++;
        break;
    case FXT_KIND_STRING:
        cli_slit_forget(&j->lit, rec->u.string.index);
        break;
    case FXT_KIND_PROVIDER_INFO:
        cli_slit_drop_all(
            &j->lit); /* the reader keeps a provider's strings; dropped all the same, it is rare */
        break;
    case FXT_KIND_EVENT: /* on_event's */
    case FXT_KIND_MAGIC:
    case FXT_KIND_PROVIDER_SECTION:
    case FXT_KIND_TRACE_INFO:
    case FXT_KIND_INIT:
    case FXT_KIND_THREAD:
    case FXT_KIND_BLOB:
    case FXT_KIND_USERSPACE_OBJECT:
        break;
    }
}

/* Dispatches by record kind; metadata records (strings, threads, providers) are used by the reader. */
static int on_record(void *ctx, fxt_reader_t *r, const fxt_record_t *rec) {
    jctx_t *j = ctx;
    cli_slit_provider(&j->lit, rec->has_provider, rec->provider);
    if (rec->kind == FXT_KIND_EVENT) {
        on_event(j, r, rec);
    } else {
        on_other(j, r, rec);
    }
    return j->out.err | j->sys.err | j->nomem; /* stop reading when the output cannot be written */
}

/* Damaged records are skipped and counted; after 20 reports only counted. */
static void on_error(void *ctx, fxt_reader_t *r, const fxt_diag_t *d) {
    jctx_t *j = ctx;
    char line[sizeof d->msg + 64];
    (void)r;
    cli_slit_drop_all(&j->lit); /* damage is rare: whatever a damaged record did to the strings */
    snprintf(line, sizeof line, "fxt json: offset %" PRIu64 ": %s\n", d->offset, d->msg);
    say(j, 'E', line);
}

/* ---- parallel ranges ---------------------------------------------------------------- */

/*
 * Range 0 is decoded with the run's own context, writing straight to the output as a
 * sequential read does. A range after it starts from nothing (part): its output is text
 * with every element's comma, its stderr lines are held, and what depends on the state
 * before it becomes a deferred item (jpiece_t): an end whose begin came earlier, a flow's
 * ts when no slice of its own is open, a sort index, a systrace comm. The merge, in order,
 * writes the text, resolves the items against the run's context (which is then the state
 * before the range) and folds the range's own state in: counts, comms, and the begins it
 * leaves open, pushed onto their threads. The bases of --time-base=trace-start and of a
 * relative --time-range are found before the read (json_find_bases). Past JSON_MAX_DEPTH
 * a range cannot know what to write: its merge reads the input again from the range's
 * first record to the end, sequentially (json_replay), and later ranges are dropped.
 */

/* At most this many input bytes per range: ranges hold their output until their merge. */
#define JSON_MAX_RANGE (UINT64_C(512) << 10)

/* The reader's reassembly limit, the same in every read (ranges and the sequential read are
 * both read in chunks): a claimed size above it is skipped alike by every -j. */
#define JSON_MAX_RECORD (UINT64_C(256) << 20)
static const fxt_reader_options_t json_reader_opts = {sizeof(fxt_reader_options_t), 0, JSON_MAX_RECORD};

/* Ranges after the first, with their grown buffers, kept for the next ones: fresh multi-MB
 * buffers cost more in page faults and copies while growing than formatting does. At most
 * jobs + 2 ranges are in use at once, so a few are kept. */
#define JSON_POOL 16

typedef struct jpool {
    pthread_mutex_t mu; /* taken once per range, not per record */
    jctx_t *kept[JSON_POOL];
    size_t n;
} jpool_t;

static void range_free(void *ctx, void *range) {
    jctx_t *j = ctx, *g = range;
    if (g == j) {
        return; /* range 0 is the run itself */
    }
    free_threads(&g->threads);
    cli_map_free(&g->comms);
    names_free(&g->names);
    cli_map_free(&g->flth);
    if (j->pool != NULL) {
        pthread_mutex_lock(&j->pool->mu);
        if (j->pool->n < JSON_POOL) {
            j->pool->kept[j->pool->n++] = g;
            g = NULL;
        }
        pthread_mutex_unlock(&j->pool->mu);
    }
    if (g != NULL) {
        free(g->out.p);
        free(g->sys.p);
        free(g->msg.p);
        free(g->pc);
        free(g->flog);
        free(g->fls);
        free(g->fltext.p);
        cli_slits_free(g->lit.t);
        free(g);
    }
}

static void *range_new(void *ctx, size_t index) {
    jctx_t *j = ctx, *g = NULL;
    if (index == 0) {
        return j;
    }
    if (j->pool != NULL) {
        pthread_mutex_lock(&j->pool->mu);
        if (j->pool->n > 0) {
            g = j->pool->kept[--j->pool->n];
        }
        pthread_mutex_unlock(&j->pool->mu);
    }
    if (g != NULL) {
        /* keep the buffers, empty */
        jctx_t old = *g;
        memset(g, 0, sizeof *g);
        g->out.p = old.out.p;
        g->out.cap = old.out.cap;
        g->sys.p = old.sys.p;
        g->sys.cap = old.sys.cap;
        g->msg.p = old.msg.p;
        g->msg.cap = old.msg.cap;
        g->pc = old.pc;
        g->cappc = old.cappc;
        g->flog = old.flog;
        g->capflog = old.capflog;
        g->fls = old.fls;
        g->capfls = old.capfls;
        g->fltext.p = old.fltext.p;
        g->fltext.cap = old.fltext.cap;
        g->lit.t = old.lit.t;
        cli_slit_drop_all(&g->lit); /* another range: another reader */
    } else if ((g = calloc(1, sizeof *g)) == NULL) {
        return NULL;
    } else {
        g->lit.t = cli_slits_new();
    }
    const jctx_t *pr = j->proto;
    g->part = 1;
    g->out.grow = g->sys.grow = g->msg.grow = g->fltext.grow = 1;
    g->sysfmt = pr->sysfmt;
    g->sys_on = pr->sys_on;
    g->rel_time = pr->rel_time;
    g->have_base = pr->have_base;
    g->base_ns = pr->base_ns;
    g->sel = pr->sel; /* bases found by json_time_base; the scratch string is the range's own */
    g->filtered = pr->filtered;
    cli_map_init(&g->threads, sizeof(jthread_t));
    cli_map_init(&g->comms, sizeof(comm_t));
    cli_map_init(&g->names, sizeof(jname_t));
    cli_map_init(&g->flth, sizeof(fllocal_t));
    return g;
}

static int range_record(void *range, fxt_reader_t *r, const fxt_record_t *rec) {
    jctx_t *g = range;
    if (!g->have_off) {
        g->have_off = 1;
        g->first_off = rec->offset;
    }
    if (on_record(g, r, rec) != 0) {
        /* Range 0 writes the output as it goes: a write error ends the read (json_run reports
         * it). The other ranges write to memory. */
        return !g->part && (g->out.err | g->sys.err) ? CLI_EXIT_IO : CLI_EXIT_LIMIT;
    }
    return 0;
}

static void range_error(void *range, fxt_reader_t *r, const fxt_diag_t *d) {
    jctx_t *g = range;
    if (!g->have_off) {
        g->have_off = 1;
        g->first_off = d->offset;
    }
    on_error(g, r, d);
}

/* The replay: records and errors from replay_from on go to the run's context. */
static int replay_record(void *ctx, fxt_reader_t *r, const fxt_record_t *rec) {
    jctx_t *j = ctx;
    return rec->offset < j->replay_from ? 0 : on_record(j, r, rec);
}

static void replay_error(void *ctx, fxt_reader_t *r, const fxt_diag_t *d) {
    jctx_t *j = ctx;
    if (d->offset >= j->replay_from) {
        on_error(j, r, d);
    }
}

/* Range g cannot be merged exactly: the rest of the input is read again from its first
 * record with the run's context, as one sequential read would; later ranges are dropped. */
static int json_replay(jctx_t *j, jctx_t *g) {
    j->replayed = 1;
    j->replay_from = g->first_off;
    if (getenv("FXT_RERUN_NOTE") != NULL) {
        /* for tests: the only case in which json reads the input again */
        fprintf(stderr, "fxt json: note: reading again from offset %" PRIu64 " with one thread\n",
                j->replay_from);
    }
    cli_slit_drop_all(&j->lit); /* a new reader, and string records before replay_from are not seen */
    range_free(j, g);
    return cli_read_trace("json", j->path, &json_reader_opts, replay_record, replay_error, j, NULL);
}

/* Text [from, to) of a range's stream holding nel elements; the very first element of the
 * stream loses its comma. */
static void merge_text(jctx_t *j, cli_jbuf_t *dst, const cli_jbuf_t *src, size_t from, size_t to,
                       uint32_t nel) {
    if (nel > 0) {
        if (dst == &j->out ? j->nel == 0 : j->first_sys) {
            from++;
        }
        if (dst == &j->out) {
            j->nel += nel;
        } else {
            j->first_sys = 0;
        }
    }
    if (to - from >= CLI_JB_CAP / 8) {
        /* long text goes straight to the sink: one copy less */
        cli_jb_flush(dst);
        cli_jb_write(dst, src->p + from, to - from);
    } else if (to > from) {
        cli_jb_mem(dst, src->p + from, to - from);
    }
}

/* An end whose begin came before the range, with its arguments held in the range's text. */
static void merge_end(jctx_t *j, jthread_t *th, const jpiece_t *p, const char *args) {
    if (th->depth == 0) {
        j->unmatched_ends++;
        return;
    }
    jframe_t *f = &th->f[--th->depth];
    if (f->kept) {
        write_complete(j, th, f, p->ns);
        if (!f->has_args) {
            cli_jb_mem(&j->out, args, p->skip); /* the end's own "args" object */
        } else if (p->has_args) {
            /* ,"args":{a..} continues the begin's open object as ,a..} */
            cli_jb_putc(&j->out, ',');
            cli_jb_mem(&j->out, args + 9, p->skip - 9);
        } else {
            cli_jb_putc(&j->out, '}');
        }
        cli_jb_putc(&j->out, '}');
    }
    th->text.n = f->off;
}

/* The begins range thread lt leaves open, pushed onto the run's thread. */
static int merge_open(jthread_t *th, const jthread_t *lt) {
    if (lt->depth == 0) {
        return 0;
    }
    if (th->cap - th->depth < lt->depth) {
        uint32_t ncap = th->depth + lt->depth;
        jframe_t *nf = realloc(th->f, ncap * sizeof *nf);
        if (nf == NULL) {
            return -1;
        }
        th->f = nf;
        th->cap = ncap;
    }
    size_t base = th->text.n;
    if (lt->text.n > 0) { /* none when no begin was kept */
        cli_jb_mem(&th->text, lt->text.p, lt->text.n);
    }
    for (uint32_t d = 0; d < lt->depth; d++) {
        jframe_t f = lt->f[d];
        f.off += base;
        f.args_off += base;
        th->f[th->depth++] = f;
    }
    return th->text.err ? -1 : 0;
}

static int range_merge(void *ctx, void *range) {
    jctx_t *j = ctx, *g = range;
    if (g == j) {
        return 0; /* range 0 wrote its output as it went */
    }
    if (j->replayed) {
        range_free(j, g);
        return 0;
    }
    if (g->nomem || g->out.err || g->sys.err || g->msg.err) {
        range_free(j, g);
        return CLI_EXIT_LIMIT;
    }
    /* The range's threads join the run's in the order of their first event, as in one read;
     * the run's map stays as is during the rest of the merge. */
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < g->threads.count; i++) {
            const char *key;
            size_t kl;
            jthread_t *lt = cli_map_at(&g->threads, i, &key, &kl);
            lt->peer = cli_map_get(&j->threads, key, kl, 1);
            if (lt->peer == NULL) {
                range_free(j, g);
                return CLI_EXIT_LIMIT;
            }
            lt->peer->text.grow = 1;
        }
    }
    for (size_t i = 0; i < g->threads.count; i++) {
        const jthread_t *lt = cli_map_at(&g->threads, i, NULL, NULL);
        if (lt->over || lt->peer->deep || (uint64_t)lt->peer->depth + lt->peak > JSON_MAX_DEPTH) {
            return json_replay(j, g);
        }
    }
    for (size_t at = 0; at < g->msg.n;) {
        char tag = g->msg.p[at];
        uint32_t n;
        memcpy(&n, g->msg.p + at + 1, sizeof n);
        char line[sizeof((fxt_diag_t *)0)->msg + 64];
        memcpy(line, g->msg.p + at + 1 + sizeof n, n);
        line[n] = '\0';
        say(j, tag, line);
        at += 1 + sizeof n + n;
    }
    size_t pos[2] = {0, 0};
    for (size_t i = 0; i < g->npc; i++) {
        const jpiece_t *p = &g->pc[i];
        int sys = p->kind == PC_COMM;
        merge_text(j, sys ? &j->sys : &j->out, sys ? &g->sys : &g->out, pos[sys], p->off, p->nel);
        pos[sys] = p->off + p->skip;
        if (p->kind == PC_END) {
            jthread_t *th = ((jthread_t *)cli_map_at(&g->threads, (size_t)p->v, NULL, NULL))->peer;
            merge_end(j, th, p, g->out.p + p->off);
        } else {
            sys_comm(j, p->v);
        }
    }
    merge_text(j, &j->out, &g->out, pos[0], g->out.n, g->nel_out);
    merge_text(j, &j->sys, &g->sys, pos[1], g->sys.n, g->nel_sys);
    j->nevents += g->nevents;
    j->nmeta += g->nmeta;
    j->nsys += g->nsys;
    j->skipped += g->skipped;
    j->overflows += g->overflows;
    int rc = flog_merge(j, g) != 0 ? CLI_EXIT_LIMIT : 0;
    /* the range's names, in the order they first appear in it; the last one wins */
    for (size_t i = 0; i < g->names.count; i++) {
        const char *k;
        const jname_t *nm = cli_map_at(&g->names, i, &k, NULL);
        uint64_t key[3];
        memcpy(key, k, sizeof key);
        name_set(j, &j->names, key[0], key[1], key[2], nm->lit, nm->len);
    }
    for (size_t i = 0; i < g->comms.count; i++) {
        uint64_t key[2];
        const char *k;
        comm_t *lc = cli_map_at(&g->comms, i, &k, NULL);
        memcpy(key, k, sizeof key);
        comm_t *c = cli_map_get_u64(&j->comms, key[0], key[1], 1);
        if (c != NULL) {
            *c = *lc;
        }
    }
    for (size_t i = 0; i < g->threads.count; i++) {
        const jthread_t *lt = cli_map_at(&g->threads, i, NULL, NULL);
        if (merge_open(lt->peer, lt) != 0) {
            rc = CLI_EXIT_LIMIT;
        }
    }
    range_free(j, g);
    return rc;
}

/* range_merge, and a write error of the output ends the read: no later range is decoded
 * (json_run reports it). */
static int range_merge_out(void *ctx, void *range) {
    jctx_t *j = ctx;
    int rc = range_merge(ctx, range);
    return rc == 0 && (j->out.err | j->sys.err) ? CLI_EXIT_IO : rc;
}

static const cli_par_ops_t json_ops = {range_new, range_record, range_error, range_merge_out, range_free};

/* ---- command ------------------------------------------------------------------------ */

typedef struct json_config {
    const char *in, *out, *compress;
    int no_system_events;
    unsigned system_events; /* SYS_* */
    unsigned time_base;     /* 0 absolute, 1 trace-start */
    cli_filter_t filter;
    unsigned jobs;
} json_config_t;

static const char *const kSysNames[] = {"systrace", "fuchsia", "none", NULL};
static const char *const kTimeBases[] = {"absolute", "trace-start", NULL};

/* --time-range [@]FROM:TO: either side may be empty; '@' makes both absolute. */
static int json_time_range(void *config, const char *v, char *err, size_t errlen) {
    cli_filter_t *f = &((json_config_t *)config)->filter;
    if (v[0] == '@') {
        f->absolute = 1;
        v++;
    }
    const char *colon = strchr(v, ':');
    if (colon == NULL) {
        snprintf(err, errlen, "FROM:TO wanted");
        return -1;
    }
    /* FROM copied to be NUL-terminated: cli_parse_ns reads a whole C string. */
    char from[64] = {0};
    snprintf(from, sizeof from, "%.*s", (int)(colon - v), v);
    if ((from[0] && cli_parse_ns(from, &f->from_ns) != 0) ||
        (colon[1] && cli_parse_ns(colon + 1, &f->to_ns) != 0)) {
        snprintf(err, errlen, "times are ns, or with a unit: 1.5us, 2ms, 0.25s");
        return -1;
    }
    f->has_from = from[0] != '\0';
    f->has_to = colon[1] != '\0';
    return 0;
}

static const cli_opt_t json_opts[] = {
    CLI_OUTPUT_OPTS(json_config_t, out, compress,
                    "write JSON to FILE (default: standard output); .gz/.zst compress"),
    CLI_LIST(json_config_t, filter.cats, filter.ncats, "category", "PATTERN",
             "keep events whose category matches (glob; repeatable)"),
    CLI_LIST(json_config_t, filter.names, filter.nnames, "name", "PATTERN",
             "keep events whose name matches (glob; repeatable)"),
    CLI_CUSTOM("time-range", json_time_range, "FROM:TO",
               "keep events in [FROM, TO], nanoseconds relative to the trace's earliest event (suffixes ns, "
               "us, ms, s; either side may be empty)"),
    CLI_FLAG(json_config_t, filter.absolute, "absolute", 0,
             "--time-range is in absolute trace time (ns); same as writing it @FROM:TO"),
    CLI_FLAG(json_config_t, no_system_events, "no-system-events", 0,
             "drop scheduling records (systemTraceEvents); same as --system-events=none"),
    CLI_CHOICE(json_config_t, system_events, "system-events", kSysNames, "FORM",
               "scheduling records as systrace text (default: Perfetto reads it), fuchsia "
               "(trace2json's objects) or none"),
    CLI_CHOICE(json_config_t, time_base, "time-base", kTimeBases, "BASE",
               "ts as absolute trace time (default) or relative to the trace's earliest event "
               "(trace-start: small numbers that JavaScript doubles hold to the nanosecond)"),
    CLI_PAR_JOBS_OPT(json_config_t, jobs),
};

static const cli_spec_t json_spec = {
    "json",
    json_opts,
    sizeof json_opts / sizeof json_opts[0],
    NULL,
    sizeof(json_config_t),
    "IN",
    offsetof(json_config_t, in),
    0,
    0,
    1,
};

/* Append the spilled system events to the output as "systemTraceEvents". */
/* Ordering: the spill is complete only after traceEvents, so it is copied in at the end. */
static void json_system_events(jctx_t *j, FILE *spill) {
    if (j->sysfmt == SYS_SYSTRACE) {
        CLI_JB_LIT(&j->out, ",\"systemTraceEvents\":\"# tracer: nop\\n");
    } else {
        CLI_JB_LIT(&j->out, ",\"systemTraceEvents\":{\"type\":\"fuchsia\",\"events\":[");
    }
    /* Flush our buffer and stdio's before rewinding, or the tail of the events would be lost. */
    cli_jb_flush(&j->sys);
    j->sys.err |= fflush(spill) != 0 || ferror(spill);
    rewind(spill);
    cli_jb_flush(&j->out);
    size_t n;
    /* The system buffer is free now: reused as the copy buffer. */
    while ((n = fread(j->sys.p, 1, CLI_JB_CAP, spill)) > 0) {
        cli_jb_write(&j->out, j->sys.p, n);
    }
    j->sys.err |= ferror(spill) != 0;
    if (j->sysfmt == SYS_SYSTRACE) {
        cli_jb_putc(&j->out, '"');
    } else {
        CLI_JB_LIT(&j->out, "\n]}");
    }
}

/* Counts on stderr, so stdout carries only the JSON. */
static void json_report(const jctx_t *j, uint64_t bytes) {
    fprintf(stderr,
            "fxt json: %" PRIu64 " events, %" PRIu64 " metadata events, %" PRIu64
            " system events from %" PRIu64 " bytes",
            j->nevents, j->nmeta, j->nsys, bytes);
    if (j->skipped) {
        fprintf(stderr, "; %" PRIu64 " records without a JSON form skipped", j->skipped);
    }
    if (j->unmatched_ends) {
        fprintf(stderr, "; %" PRIu64 " duration ends without a begin dropped", j->unmatched_ends);
    }
    if (j->unclosed) {
        fprintf(stderr, "; %" PRIu64 " duration begins never ended (kept as B)", j->unclosed);
    }
    if (j->fl->orphans) {
        fprintf(stderr, "; %" PRIu64 " flow steps/ends without a begin dropped", j->fl->orphans);
    }
    if (j->fl->unmoved) {
        fprintf(
            stderr,
            "; %" PRIu64
            " flow events left at their own time (their slice starts before their chain's previous event)",
            j->fl->unmoved);
    }
    if (j->fl->collisions) {
        fprintf(stderr, "; %" PRIu64 " flow begins with an id already open in their provider",
                j->fl->collisions);
    }
    if (j->fl->a_orphans) {
        fprintf(stderr, "; %" PRIu64 " async ends without a begin dropped", j->fl->a_orphans);
    }
    if (j->fl->a_alone) {
        fprintf(stderr, "; %" PRIu64 " async instants without a begin (kept alone)", j->fl->a_alone);
    }
    if (j->fl->a_collisions) {
        fprintf(stderr, "; %" PRIu64 " async begins with an id already open in their provider",
                j->fl->a_collisions);
    }
    if (j->overflows) {
        fprintf(stderr, "; %" PRIu64 " buffer-overflow reports", j->overflows);
    }
    if (j->errors) {
        fprintf(stderr, "; %" PRIu64 " damaged records", j->errors);
    }
    fputc('\n', stderr);
}

/* Reads the input into j: in parallel ranges, or in chunks with one thread; returns the read's status. */
static int json_read(jctx_t *j, const json_config_t *cfg, uint64_t *bytes) {
    unsigned jobs = cfg->jobs ? cfg->jobs : cli_par_default_jobs();
    if (jobs == 1) {
        /* One thread: the sequential read, with no range machinery; the same output. */
        return cli_read_trace("json", cfg->in, &json_reader_opts, on_record, on_error, j, bytes);
    }
    jpool_t pool;
    memset(&pool, 0, sizeof pool);
    pthread_mutex_init(&pool.mu, NULL);
    j->pool = &pool;
    int rc = 0;
    /* what ranges start from, copied before range 0 starts changing the run's context */
    jctx_t *proto = rc == 0 ? malloc(sizeof *proto) : NULL;
    if (proto != NULL) {
        *proto = *j;
        j->proto = proto;
        rc = cli_read_parallel_max("json", cfg->in, &json_reader_opts, jobs, 0, JSON_MAX_RANGE, &json_ops, j,
                                   bytes);
    } else if (rc == 0) {
        fprintf(stderr, "fxt json: out of memory\n");
        rc = CLI_EXIT_LIMIT;
    }
    j->pool = NULL;
    j->proto = NULL;
    free(proto);
    while (pool.n > 0) {
        range_free(j, pool.kept[--pool.n]);
    }
    pthread_mutex_destroy(&pool.mu);
    return rc;
}

/* Convert into j->out (and j->sys when spill is not NULL); returns the exit status. */
static int json_convert(jctx_t *j, const json_config_t *cfg, FILE *spill) {
    CLI_JB_LIT(&j->out, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[");
    uint64_t bytes = 0;
    int rc = json_read(j, cfg, &bytes);
    json_names(j);
    if ((rc == 0 || rc == CLI_EXIT_DATA) && !j->out.err && !j->nomem) {
        fl_finish(j);
    }
    j->nomem |= j->fl->err;
    json_close_threads(j);
    CLI_JB_LIT(&j->out, "\n]");
    if (spill != NULL) {
        json_system_events(j, spill);
    }
    if (j->rel_time && j->have_base) {
        /* The base, so absolute times can be recovered (viewers ignore this key). */
        CLI_JB_LIT(&j->out, ",\"metadata\":{\"fxt-time-base-ns\":");
        cli_jb_u128(&j->out, j->base_ns);
        cli_jb_putc(&j->out, '}');
    }
    CLI_JB_LIT(&j->out, "}\n");
    cli_jb_flush(&j->out);
    /* A write error outranks damaged records: the JSON itself is incomplete. */
    if (j->out.err | j->sys.err) {
        return CLI_EXIT_IO;
    }
    if (j->nomem) {
        fprintf(stderr, "fxt json: out of memory\n");
        return CLI_EXIT_LIMIT;
    }
    json_report(j, bytes);
    /* Damaged records still give complete, valid JSON: only the exit status says so. */
    return rc == 0 && j->errors ? CLI_EXIT_DATA : rc;
}

/* A relative --time-range and --time-base=trace-start count from the trace's earliest event, not
 * the first in the file (a thread's chunk written first may start well after another's): found by
 * a first read of `in`, a file (cli_input_spool copies a pipe to one). */
static int json_time_base(jctx_t *j, const json_config_t *cfg, const char *in) {
    int range = (cfg->filter.has_from || cfg->filter.has_to) && !cfg->filter.absolute;
    if (!range && !j->rel_time) {
        return 0;
    }
    cli_bases_t b;
    int rc =
        cli_read_bases("json", in, &json_reader_opts, cfg->jobs ? cfg->jobs : cli_par_default_jobs(), &b);
    if (range) {
        j->sel.have_base = 1;
        j->sel.base_ns = b.have_ev ? b.ev_ns : 0;
    }
    /* --time-base=trace-start: the earliest time of anything written with one (events, logs,
     * scheduling records, blobs), so no ts is negative */
    j->have_base = b.have_all;
    j->base_ns = b.have_all ? ticks_ns(b.all_ticks, b.all_tps) : 0;
    return rc; /* damage is reported by the conversion */
}

/* Sets up the buffers, the output and the spill file, converts, then reports write errors once. */
static int json_run(void *config) {
    const json_config_t *cfg = config;
    static jctx_t j; /* holds the selection's scratch string: static, reset for in-process reruns */
    memset(&j, 0, sizeof j);
    cli_select_init(&j.sel, &cfg->filter);
    j.filtered = cfg->filter.has_from || cfg->filter.has_to || cfg->filter.ncats || cfg->filter.nnames;
    cli_map_init(&j.threads, sizeof(jthread_t));
    cli_map_init(&j.comms, sizeof(comm_t));
    cli_map_init(&j.names, sizeof(jname_t));
    j.sysfmt = cfg->no_system_events ? SYS_NONE : (int)cfg->system_events;
    j.rel_time = cfg->time_base == 1;
    j.path = cfg->in;
    j.lit.t = cli_slits_new();
    static jflows_t fl;
    memset(&fl, 0, sizeof fl);
    fl.text.grow = 1;
    const char *rb = getenv("FXT_JSON_FLOW_RUN_BYTES");
    fl.run_bytes = rb != NULL && strtoull(rb, NULL, 10) > 0 ? strtoull(rb, NULL, 10) : FL_RUN_BYTES;
    cli_map_init(&fl.threads, sizeof(flthread_t));
    j.fl = &fl;
    int sys = j.sysfmt != SYS_NONE;
    j.out.p = malloc(CLI_JB_CAP);
    j.sys.p = sys ? malloc(CLI_JB_CAP) : NULL;
    if (j.out.p == NULL || (sys && j.sys.p == NULL)) {
        free(j.out.p);
        free(j.sys.p);
        cli_slits_free(j.lit.t);
        cli_map_free(&j.threads);
        cli_map_free(&j.comms);
        names_free(&j.names);
        fl_free(&fl);
        fprintf(stderr, "fxt json: out of memory\n");
        return CLI_EXIT_LIMIT;
    }
    char err[512];
    cli_output_t *out = NULL;
    FILE *spill = NULL;
    int rc = cli_input_check("json", cfg->in);
    if (rc == 0) {
        rc = cli_output_check("json", cfg->out, &cfg->in, 1); /* -o IN would destroy IN */
    }
    /* read twice (the bases first): a pipe is copied to a temporary file */
    static char spool[4096];
    int spool_fd = -1;
    json_config_t scfg = *cfg;
    int twice = ((cfg->filter.has_from || cfg->filter.has_to) && !cfg->filter.absolute) || j.rel_time;
    if (rc == 0 && twice && (rc = cli_input_spool("json", cfg->in, spool, sizeof spool, &spool_fd)) == 0) {
        scfg.in = spool;
        j.path = spool;
        cfg = &scfg;
        rc = json_time_base(&j, cfg, spool);
    }
    if (rc != 0) {
        /* said; no output (a document with no events would look like an empty trace) */
    } else if ((rc = cli_output_open(cfg->out, cfg->compress, &out, err, sizeof err)) != 0) {
        fprintf(stderr, "fxt json: %s\n", err);
        /* systemTraceEvents comes after traceEvents, so streaming needs somewhere to hold it. */
    } else if (sys && (spill = tmpfile()) == NULL) {
        fprintf(stderr,
                "fxt json: cannot create a temporary file for system events (%s); "
                "use --no-system-events\n",
                strerror(errno));
        rc = CLI_EXIT_IO;
    } else {
        j.out.sink = cli_output_sink(out);
        if (spill != NULL) {
            j.sys.sink = fxt_sink_file(spill);
            j.sys_on = 1;
        }
        j.first_sys = 1;
        rc = json_convert(&j, cfg, spill);
    }
    if (spill != NULL) {
        fclose(spill);
    }
    if (spool_fd >= 0) {
        close(spool_fd);
    }
    /* a failed output gets no compressed-stream trailer; a close error (the trailer or
     * close(2) failing) is a write error too */
    /* a read that failed (I/O, memory) keeps no output: a document cut short must not look whole */
    /* why the first write failed (ENOSPC: "No space left on device"), taken before the close
     * frees the output; a failed close or rename says its own reason */
    int werr = j.out.err ? cli_output_errno(out) : 0;
    if (out != NULL && cli_output_close(out, j.out.err || rc == CLI_EXIT_IO || rc == CLI_EXIT_LIMIT) != 0 &&
        !j.out.err) {
        rc = CLI_EXIT_IO;
        j.out.err = 1;
        werr = errno;
    }
    if (j.out.err) {
        cli_output_error("json", werr);
    } else if (j.sys.err) {
        fprintf(stderr, "fxt json: error writing the temporary file of system events (use "
                        "--no-system-events)\n");
    }
    free(j.out.p);
    free(j.sys.p);
    cli_slits_free(j.lit.t);
    cli_map_free(&j.threads); /* emptied by json_close_threads unless the output failed to open */
    cli_map_free(&j.comms);
    names_free(&j.names);
    fl_free(&fl);
    return rc;
}

const cli_command_t cli_cmd_json = {
    "json",
    json_run,
    NULL,
    "convert to Chrome/Perfetto JSON",
    "fxt json [options] [IN] [-o OUT]",
    "Convert an FXT trace to Chrome Trace Event Format JSON, which loads in\n"
    "Perfetto UI (ui.perfetto.dev) and Chrome DevTools' Performance panel. One\n"
    "streaming pass, bounded memory; IN and OUT may be '-' (stdin / stdout). A\n"
    "file is converted in parallel ranges on every core (-j); the output is the\n"
    "same for any -j.\n",
    &json_spec,
    "Timestamps are exact: ticks are converted to nanoseconds with integer\n"
    "arithmetic using each provider's own tick rate and printed as decimal\n"
    "microseconds. Ids are strings. Duration begin/end pairs become 'X' events;\n"
    "process and thread names from kernel object records become 'M' metadata\n"
    "events; scheduling records become systrace text. See docs/json.md.\n"
    "\n"
    "env FXT_RANGE_BYTES: smallest range converted on its own (default 512 KiB; for\n"
    "tests). FXT_JSON_FLOW_RUN_BYTES: flow events held in memory before a sorted\n"
    "run is spilled (default 8 MiB; for tests).\n"
    "\n"
    "exit status: 0 ok, 1 the trace had damaged records (the JSON is still\n"
    "complete and valid), 2 usage error, 3 I/O error,\n"
    "4 out of memory or an internal limit\n",
};
