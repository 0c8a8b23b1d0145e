/* SPDX-License-Identifier: MIT */
/*
 * fxt dump: every record, one line each, as text (default) or as JSON Lines
 * following ../shared/contracts/dump-jsonl.md (--json).
 */
#include <fxt/reader.h>

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_io.h"
#include "cli_json.h"
#include "cli_parallel.h"

/* A thread ref's ,"pid":P,"tid":T (or nulls), formatted once per (resolved, pid, tid): checked
 * against the values, so nothing invalidates it. */
#define DTHR_BITS 6

typedef struct dthr {
    char lit[56]; /* 2 * (7 + 20) bytes at most: copied whole */
    uint64_t pid, tid;
    uint8_t used; /* 0: empty, else resolved + 1 */
    uint8_t len;
} dthr_t;

typedef struct dump {
    cli_jbuf_t o; /* stdout, written in large blocks: no stdio call per field */
    int json;
    uint64_t records, errors;
    cli_slitc_t lit; /* interned strings' JSON literals (cli_json.h; never a null table) */
    dthr_t thr[1u << DTHR_BITS];
} dump_t;

/* ---- small writers shared by both modes --------------------------------------- */

#define LIT(o, lit) CLI_JB_LIT((o), lit)

/* Copies a string literal at p and moves p past it; the caller has made room. */
#define PUT(p, lit) (memcpy((p), (lit), sizeof(lit) - 1), (p) += sizeof(lit) - 1)

/* Copies n bytes (a multiple of 8) a word at a time: as a memcpy of a constant size, gcc may
 * spell it as a rep movs, which is slow for a few dozen bytes. */
CLI_INLINE void copy_words(char *dst, const char *src, size_t n) {
#pragma GCC unroll 8
    for (size_t i = 0; i < n; i += 8) {
        uint64_t w;
        memcpy(&w, src + i, 8);
        memcpy(dst + i, &w, 8);
    }
}

/* Keeps the string cache in step with the record (cli_slit). */
static void slit_record(dump_t *d, const fxt_record_t *rec) {
    cli_slit_provider(&d->lit, rec->has_provider, rec->provider);
    if (rec->kind == FXT_KIND_STRING) {
        cli_slit_forget(&d->lit, rec->u.string.index);
    } else if (rec->kind == FXT_KIND_PROVIDER_INFO) {
        cli_slit_drop_all(&d->lit);
    }
}

/* A key literal k (kn bytes, may be empty) and string s as a JSON literal (null when unresolved:
 * the dump contract), from the cache when it is there. */
CLI_INLINE void key_str(dump_t *d, const char *k, size_t kn, const fxt_str_t *s) {
    cli_jbuf_t *o = &d->o;
    const cli_slit_t *e = cli_slit_hit(&d->lit, *s);
    if (e != NULL) {
        if (cli_jb_room(o, kn + CLI_SLIT_MAX)) {
            /* the whole slot copied (there is room for it), the length counted */
            memcpy(o->p + o->n, k, kn);
            copy_words(o->p + o->n + kn, e->lit, CLI_SLIT_MAX);
            o->n += kn + e->len;
        }
        return;
    }
    cli_jb_mem(o, k, kn);
    if (s->unresolved) {
        LIT(o, "null");
    } else {
        cli_slit_miss(&d->lit, o, *s);
    }
}

#define KEY_STR(d, k, s) key_str((d), (k), sizeof(k) - 1, (s))

/* An unresolved indexed string ref prints null, per the dump contract (docs/dump.md). */
static void str_or_null(dump_t *d, const fxt_str_t *s) { key_str(d, "", 0, s); }

/* A key in both spellings, JSON `,"key":` and text ` key=`, put together at compile time. */
#define K(k) ",\"" k "\":", " " k "="

static void key(dump_t *d, const char *jk, const char *tk) { cli_jb_name(&d->o, d->json ? jk : tk); }

/* v in decimal at p, or null when !ok; returns the end. Integers are printed exactly over the
 * 64-bit range, never as doubles (dump contract). */
static inline char *u64_or_null(char *p, int ok, uint64_t v) {
    if (ok) {
        return p + cli_u64_put(p, v);
    }
    PUT(p, "null");
    return p;
}

static inline void key_u64(dump_t *d, const char *k, size_t kn, int ok, uint64_t v) {
    cli_jbuf_t *o = &d->o;
    if (cli_jb_room(o, kn + 20)) {
        memcpy(o->p + o->n, k, kn);
        o->n = (size_t)(u64_or_null(o->p + o->n + kn, ok, v) - o->p);
    }
}

/* A key and its value in the output's spelling, the key's length known at compile time;
 * KV_OPT's value is null when !ok. */
#define KV_OPT(d, k, ok, v)                                                                                  \
    ((d)->json ? key_u64((d), ",\"" k "\":", sizeof(",\"" k "\":") - 1, (ok), (v))                           \
               : key_u64((d), " " k "=", sizeof(" " k "=") - 1, (ok), (v)))
#define KV_U64(d, k, v) KV_OPT((d), k, 1, (v))
#define KV_STR(d, k, s) ((d)->json ? KEY_STR((d), ",\"" k "\":", (s)) : KEY_STR((d), " " k "=", (s)))

/* An unresolved thread ref gives null for both pid and tid (dump contract). */
static void kv_thread(dump_t *d, const char *pjk, const char *ptk, const char *tjk, const char *ttk,
                      const fxt_thread_ref_t *t) {
    key(d, pjk, ptk);
    if (t->resolved) {
        cli_jb_u64(&d->o, t->pid);
    } else {
        LIT(&d->o, "null");
    }
    key(d, tjk, ttk);
    if (t->resolved) {
        cli_jb_u64(&d->o, t->tid);
    } else {
        LIT(&d->o, "null");
    }
}

/* kv_thread for the "pid" and "tid" keys in JSON, from the thread cache (dthr_t). */
static void json_thread(dump_t *d, const fxt_thread_ref_t *t) {
    cli_jbuf_t *o = &d->o;
    dthr_t *e = &d->thr[(t->tid * UINT64_C(0x9e3779b97f4a7c15)) >> (64 - DTHR_BITS)];
    uint8_t used = (uint8_t)(t->resolved != 0) + 1;
    if (e->used != used || e->pid != t->pid || e->tid != t->tid) {
        char *p = e->lit;
        e->used = used;
        e->pid = t->pid;
        e->tid = t->tid;
        PUT(p, ",\"pid\":");
        p = u64_or_null(p, t->resolved, t->pid);
        PUT(p, ",\"tid\":");
        p = u64_or_null(p, t->resolved, t->tid);
        e->len = (uint8_t)(p - e->lit);
    }
    if (cli_jb_room(o, sizeof e->lit)) {
        memcpy(o->p + o->n, e->lit, sizeof e->lit);
        o->n += e->len;
    }
}

/* A thread ref's "pid" and "tid" in the output's spelling. */
static void pid_tid(dump_t *d, const fxt_thread_ref_t *t) {
    if (d->json) {
        json_thread(d, t);
    } else {
        kv_thread(d, K("pid"), K("tid"), t);
    }
}

/*
 * Pieces of JSON lines that depend only on a kind, an event type or an argument type, built
 * once from the library's names (pieces_init) and written as one copy of the whole slot:
 * `,"kind":"event","provider":`, `,"event":"instant","ts":`, `,"type":"uint32","value":`.
 */
typedef struct jpiece {
    char s[48]; /* the longest piece, of "legacy_context_switch", is 43 bytes */
    uint8_t len;
} jpiece_t;

#define KIND_ERROR FXT_KIND_COUNT_ /* the "error" lines' kind in kind_piece */

static jpiece_t kind_piece[FXT_KIND_COUNT_ + 1], event_piece[FXT_EVENT_TYPE_COUNT],
    type_piece[FXT_ARG_TYPE_COUNT];

static const char *kind_name(unsigned kind) {
    return kind == KIND_ERROR ? "error" : fxt_record_kind_name((fxt_record_kind)kind);
}

static void piece(jpiece_t *p, const char *fmt, const char *name) {
    p->len = (uint8_t)snprintf(p->s, sizeof p->s, fmt, name);
}

static void pieces_init(void) {
    for (unsigned k = 0; k <= KIND_ERROR; k++) {
        piece(&kind_piece[k], ",\"kind\":\"%s\",\"provider\":", kind_name(k));
    }
    for (unsigned t = 0; t < FXT_EVENT_TYPE_COUNT; t++) {
        piece(&event_piece[t], ",\"event\":\"%s\",\"ts\":", fxt_event_type_name(t));
    }
    for (unsigned t = 0; t < FXT_ARG_TYPE_COUNT; t++) {
        piece(&type_piece[t], ",\"type\":\"%s\",\"value\":", fxt_arg_type_name(t));
    }
}

/* Copies a piece at p (room for the whole slot); returns the end. */
static inline char *put_piece(char *p, const jpiece_t *pc) {
    memcpy(p, pc->s, sizeof pc->s);
    return p + pc->len;
}

/* Pointers are hex in text but JSON integers in --json (dump contract); returns the length. */
static inline size_t pointer_put(char *p, uint64_t v, int json) {
    return json ? cli_u64_put(p, v) : cli_hex_put(p, v);
}

/* An argument's value, but for a string's, at p (room for 48 bytes); returns the end. */
static char *value_put(char *p, const fxt_arg_t *a, int json) {
    switch (a->type) {
    case FXT_ARG_NULL:
        PUT(p, "null");
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
        /* Round-trip exact; NaN and infinities become strings, which JSON cannot hold as numbers. */
        p += cli_json_double_fmt(p, a->v.f64);
        break;
    case FXT_ARG_POINTER:
        p += pointer_put(p, a->v.pointer, json);
        break;
    case FXT_ARG_KOID:
        p += cli_u64_put(p, a->v.koid);
        break;
    case FXT_ARG_BOOL:
        if (a->v.boolean) {
            PUT(p, "true");
        } else {
            PUT(p, "false");
        }
        break;
    default:
        PUT(p, "unknown(");
        p += cli_u64_put(p, a->type);
        *p++ = ')';
        break;
    }
    return p;
}

/* One argument's value, then `tail` (one byte or none). */
static void arg_value(dump_t *d, const fxt_arg_t *a, const char *tail, size_t tn) {
    cli_jbuf_t *o = &d->o;
    if (a->type == FXT_ARG_STRING) {
        str_or_null(d, &a->str);
        cli_jb_mem(o, tail, tn);
    } else if (cli_jb_room(o, 48 + tn)) {
        char *p = value_put(o->p + o->n, a, d->json);
        memcpy(p, tail, tn);
        o->n = (size_t)(p + tn - o->p);
    }
}

/* The arguments as a JSON array or a text {name: type value} list. */
static void args(dump_t *d, const fxt_record_t *rec) {
    cli_jbuf_t *o = &d->o;
    if (d->json) {
        LIT(o, ",\"args\":[");
        for (unsigned i = 0; i < rec->nargs; i++) {
            const fxt_arg_t *a = &rec->args[i];
            if (i) {
                KEY_STR(d, ",{\"name\":", &a->name);
            } else {
                KEY_STR(d, "{\"name\":", &a->name);
            }
            if (a->type >= FXT_ARG_TYPE_COUNT) {
                /* The contract's shape for an argument type this revision does not define: no value. */
                LIT(o, ",\"type\":\"unknown\",\"arg_type\":");
                cli_jb_u64(o, a->type);
                cli_jb_putc(o, '}');
            } else if (cli_jb_room(o, sizeof type_piece[0].s)) {
                o->n = (size_t)(put_piece(o->p + o->n, &type_piece[a->type]) - o->p);
                arg_value(d, a, "}", 1);
            }
        }
        cli_jb_putc(o, ']');
        return;
    }
    if (rec->nargs == 0) {
        return;
    }
    LIT(o, " args={");
    for (unsigned i = 0; i < rec->nargs; i++) {
        const fxt_arg_t *a = &rec->args[i];
        if (i) {
            LIT(o, ", ");
        }
        str_or_null(d, &a->name);
        const char *tn = fxt_arg_type_name(a->type);
        LIT(o, ": ");
        /* A null argument's value already reads "null": no type word in front of it. */
        if (tn != NULL && a->type != FXT_ARG_NULL) {
            cli_jb_name(o, tn);
            cli_jb_putc(o, ' ');
        }
        arg_value(d, a, "", 0);
    }
    cli_jb_putc(o, '}');
}

/* ---- one record ------------------------------------------------------------------- */

/* Opens a line with the fields every record has: offset, kind, provider context. */
static void begin(dump_t *d, uint64_t offset, unsigned kind, int has_provider, uint32_t provider) {
    cli_jbuf_t *o = &d->o;
    if (d->json) {
        /* One check for room: the offset, the kind's piece and the provider. */
        if (cli_jb_room(o, 10 + 20 + sizeof kind_piece[0].s + 20)) {
            char *p = o->p + o->n;
            PUT(p, "{\"offset\":");
            p += cli_u64_put(p, offset);
            p = put_piece(p, &kind_piece[kind]);
            /* provider is null before any provider info/section record (dump contract). */
            p = u64_or_null(p, has_provider, provider);
            o->n = (size_t)(p - o->p);
        }
    } else {
        /* The offset right-aligned in 10 columns, as printf's %10 did. */
        char t[24];
        char *e = t + sizeof t, *q = e;
        do {
            *--q = (char)('0' + offset % 10u);
            offset /= 10u;
        } while (offset);
        for (size_t w = (size_t)(e - q); w < 10; w++) {
            cli_jb_putc(o, ' ');
        }
        cli_jb_mem(o, q, (size_t)(e - q));
        LIT(o, "  ");
        if (has_provider) {
            LIT(o, "[p");
            cli_jb_u64(o, provider);
            LIT(o, "] ");
        }
        cli_jb_name(o, kind_name(kind));
    }
}

static void end(dump_t *d) {
    if (d->json) {
        LIT(&d->o, "}\n");
    } else {
        cli_jb_putc(&d->o, '\n');
    }
}

/* An event's fields: its type and time, thread, category, name, id or end time, arguments. */
static void event_fields(dump_t *d, const fxt_record_t *rec) {
    cli_jbuf_t *o = &d->o;
    unsigned t = rec->u.event.type;
    if (!d->json) {
        cli_jb_putc(o, ' ');
        cli_jb_name(o, fxt_event_type_name(t));
        KV_U64(d, "ts", rec->u.event.ts);
    } else if (cli_jb_room(o, sizeof event_piece[0].s + 20)) {
        char *p = put_piece(o->p + o->n, &event_piece[t]);
        o->n = (size_t)(p + cli_u64_put(p, rec->u.event.ts) - o->p);
    }
    pid_tid(d, &rec->u.event.thread);
    KV_STR(d, "category", &rec->u.event.category);
    KV_STR(d, "name", &rec->u.event.name);
    /* Only counters and async/flow events carry an id word (spec: Event record). */
    if (t == FXT_EVENT_COUNTER || (t >= FXT_EVENT_ASYNC_BEGIN && t <= FXT_EVENT_FLOW_END)) {
        KV_U64(d, "id", rec->u.event.id);
    }
    if (t == FXT_EVENT_DURATION_COMPLETE) {
        /* The extra word is the end timestamp, not a duration (spec-notes). */
        KV_U64(d, "end_ts", rec->u.event.end_ts);
    }
    args(d, rec);
}

static void userspace_object_fields(dump_t *d, const fxt_record_t *rec) {
    cli_jbuf_t *o = &d->o;
    /* The process ref is a thread ref, of which only the pid is meaningful (spec-notes). */
    KV_OPT(d, "pid", rec->u.userspace_object.process.resolved, rec->u.userspace_object.process.pid);
    key(d, K("ptr"));
    if (cli_jb_room(o, 20)) {
        o->n += pointer_put(o->p + o->n, rec->u.userspace_object.ptr, d->json);
    }
    KV_STR(d, "name", &rec->u.userspace_object.name);
    args(d, rec);
}

static void legacy_context_switch_fields(dump_t *d, const fxt_record_t *rec) {
    KV_U64(d, "ts", rec->u.legacy_context_switch.ts);
    KV_U64(d, "cpu", rec->u.legacy_context_switch.cpu);
    KV_U64(d, "out_state", rec->u.legacy_context_switch.out_state);
    kv_thread(d, K("out_pid"), K("out_tid"), &rec->u.legacy_context_switch.out);
    kv_thread(d, K("in_pid"), K("in_tid"), &rec->u.legacy_context_switch.in);
    KV_U64(d, "out_prio", rec->u.legacy_context_switch.out_prio);
    KV_U64(d, "in_prio", rec->u.legacy_context_switch.in_prio);
}

static void large_blob_fields(dump_t *d, const fxt_record_t *rec) {
    KV_U64(d, "format", rec->u.large_blob.format);
    KV_STR(d, "category", &rec->u.large_blob.category);
    KV_STR(d, "name", &rec->u.large_blob.name);
    KV_U64(d, "size", rec->u.large_blob.size);
    /* Only format 0 carries a timestamp, thread and arguments (spec: Large BLOB records). */
    if (rec->u.large_blob.format == FXT_LARGE_BLOB_WITH_METADATA) {
        KV_U64(d, "ts", rec->u.large_blob.ts);
        pid_tid(d, &rec->u.large_blob.thread);
        args(d, rec);
    }
}

/* One record, its kind's fields in the contract's order. */
static void record(dump_t *d, const fxt_record_t *rec) {
    begin(d, rec->offset, rec->kind, rec->has_provider, rec->provider);
    switch (rec->kind) {
    case FXT_KIND_MAGIC:
        break;
    case FXT_KIND_PROVIDER_INFO:
        KV_U64(d, "id", rec->u.provider_info.id);
        KV_STR(d, "name", &rec->u.provider_info.name);
        break;
    case FXT_KIND_PROVIDER_SECTION:
        KV_U64(d, "id", rec->u.provider_section.id);
        break;
    case FXT_KIND_PROVIDER_EVENT:
        KV_U64(d, "id", rec->u.provider_event.id);
        KV_U64(d, "event", rec->u.provider_event.event);
        break;
    case FXT_KIND_TRACE_INFO:
        KV_U64(d, "info_type", rec->u.trace_info.info_type);
        break;
    case FXT_KIND_INIT:
        KV_U64(d, "ticks_per_second", rec->u.init.ticks_per_second);
        break;
    case FXT_KIND_STRING:
        KV_U64(d, "index", rec->u.string.index);
        KV_STR(d, "value", &rec->u.string.value);
        break;
    case FXT_KIND_THREAD:
        KV_U64(d, "index", rec->u.thread.index);
        KV_U64(d, "pid", rec->u.thread.pid);
        KV_U64(d, "tid", rec->u.thread.tid);
        break;
    case FXT_KIND_EVENT:
        event_fields(d, rec);
        break;
    case FXT_KIND_BLOB:
        KV_STR(d, "name", &rec->u.blob.name);
        KV_U64(d, "blob_type", rec->u.blob.blob_type);
        KV_U64(d, "size", rec->u.blob.size);
        break;
    case FXT_KIND_USERSPACE_OBJECT:
        userspace_object_fields(d, rec);
        break;
    case FXT_KIND_KERNEL_OBJECT:
        KV_U64(d, "koid", rec->u.kernel_object.koid);
        KV_U64(d, "obj_type", rec->u.kernel_object.obj_type);
        KV_STR(d, "name", &rec->u.kernel_object.name);
        args(d, rec);
        break;
    case FXT_KIND_CONTEXT_SWITCH:
        KV_U64(d, "ts", rec->u.context_switch.ts);
        KV_U64(d, "cpu", rec->u.context_switch.cpu);
        KV_U64(d, "out_state", rec->u.context_switch.out_state);
        KV_U64(d, "out_tid", rec->u.context_switch.out_tid);
        KV_U64(d, "in_tid", rec->u.context_switch.in_tid);
        args(d, rec);
        break;
    case FXT_KIND_THREAD_WAKEUP:
        KV_U64(d, "ts", rec->u.thread_wakeup.ts);
        KV_U64(d, "cpu", rec->u.thread_wakeup.cpu);
        KV_U64(d, "tid", rec->u.thread_wakeup.tid);
        args(d, rec);
        break;
    case FXT_KIND_LEGACY_CONTEXT_SWITCH:
        legacy_context_switch_fields(d, rec);
        break;
    case FXT_KIND_LOG:
        KV_U64(d, "ts", rec->u.log.ts);
        pid_tid(d, &rec->u.log.thread);
        KV_STR(d, "message", &rec->u.log.message);
        break;
    case FXT_KIND_LARGE_BLOB:
        large_blob_fields(d, rec);
        break;
    case FXT_KIND_UNKNOWN:
        KV_U64(d, "type", rec->u.unknown.type);
        /* null when the record type itself is unknown, rather than a subtype of a known one. */
        KV_OPT(d, "subtype", rec->u.unknown.has_subtype, rec->u.unknown.subtype);
        KV_U64(d, "size_words", rec->u.unknown.size_words);
        break;
    }
    end(d);
    d->records++;
}

/* A damaged record as an "error" line, with the library's status name as x_status. */
static void error(dump_t *d, const fxt_reader_t *r, const fxt_diag_t *dg) {
    uint32_t prov = 0;
    /* The damaged record was read in the current provider context. */
    int has = fxt_reader_provider(r, &prov);
    begin(d, dg->offset, KIND_ERROR, has, prov);
    if (d->json) {
        LIT(&d->o, ",\"message\":");
        cli_jb_str(&d->o, dg->msg, strlen(dg->msg));
        LIT(&d->o, ",\"x_status\":\"");
        cli_jb_name(&d->o, fxt_status_name(dg->status));
        cli_jb_putc(&d->o, '"');
    } else {
        cli_jb_putc(&d->o, ' ');
        cli_jb_name(&d->o, fxt_status_name(dg->status));
        LIT(&d->o, ": ");
        cli_jb_mem(&d->o, dg->msg, strlen(dg->msg));
    }
    end(d);
    d->errors++;
}

/* ---- parallel ranges ---------------------------------------------------------------- */

/*
 * Each range formats its records on its own (cli_parallel.h); the merge writes
 * them out in range order. Range 0 is always merged first, so it writes
 * straight to stdout through a 1 MiB buffer; later ranges keep their output in
 * memory until their merge. Ranges are at most DUMP_MAX_RANGE input bytes and
 * at most jobs + 2 are in flight, which bounds the buffered output.
 */
#define DUMP_MAX_RANGE (UINT64_C(512) << 10)

typedef struct dump_range {
    dump_t d;
    size_t index;
    /* The reader reports an oversized record when it starts skipping it, and again if the input
     * ends before its end: one record, one error (the dump contract), so the second is dropped. */
    int skipping;
} dump_range_t;

/* Output buffers and string tables of merged ranges, reused: fresh multi-MB buffers cost more
 * in page faults than formatting the records does, and a fresh table is 0.5 MiB to clear. At
 * most jobs + 2 are in use at once, so a few are kept. */
#define DUMP_POOL 16

typedef struct dump_ctx {
    cli_jbuf_t out; /* stdout for ranges after the first: cli_jb_write only, sticky error */
    int json;
    uint64_t records, errors;
    pthread_mutex_t mu; /* guards the pool: taken once per range, not per record */
    char *pool[DUMP_POOL];
    size_t pool_cap[DUMP_POOL], npool;
    cli_slits_t *pool_lits[DUMP_POOL];
    size_t nlits;
} dump_ctx_t;

static void *range_new(void *ctx, size_t index) {
    dump_ctx_t *c = ctx;
    dump_range_t *g = calloc(1, sizeof *g);
    if (g == NULL) {
        return NULL;
    }
    g->index = index;
    g->d.json = c->json;
    if (index == 0) {
        g->d.o.sink = fxt_sink_file(stdout);
        g->d.o.p = malloc(CLI_JB_CAP);
        if (g->d.o.p == NULL) {
            free(g);
            return NULL;
        }
    } else {
        g->d.o.grow = 1; /* memory only until the merge */
        pthread_mutex_lock(&c->mu);
        if (c->npool) {
            c->npool--;
            g->d.o.p = c->pool[c->npool];
            g->d.o.cap = c->pool_cap[c->npool];
        }
        pthread_mutex_unlock(&c->mu);
    }
    pthread_mutex_lock(&c->mu);
    g->d.lit.t = c->nlits ? c->pool_lits[--c->nlits] : NULL;
    pthread_mutex_unlock(&c->mu);
    if (g->d.lit.t == NULL) {
        g->d.lit.t = cli_slits_new();
    } else {
        cli_slit_drop_all(&g->d.lit); /* another range: another reader */
    }
    return g;
}

/* Frees a range, its output buffer back to the pool when there is room. */
static void range_release(dump_ctx_t *c, dump_range_t *g) {
    if (g->index != 0 && g->d.o.p != NULL) {
        pthread_mutex_lock(&c->mu);
        if (c->npool < DUMP_POOL) {
            c->pool[c->npool] = g->d.o.p;
            c->pool_cap[c->npool++] = g->d.o.cap;
            g->d.o.p = NULL;
        }
        pthread_mutex_unlock(&c->mu);
    }
    pthread_mutex_lock(&c->mu);
    if (c->nlits < DUMP_POOL) {
        c->pool_lits[c->nlits++] = g->d.lit.t;
        g->d.lit.t = NULL;
    }
    pthread_mutex_unlock(&c->mu);
    free(g->d.o.p);
    cli_slits_free(g->d.lit.t);
    free(g);
}

static int on_record(void *range, fxt_reader_t *r, const fxt_record_t *rec) {
    dump_range_t *g = range;
    (void)r;
    g->skipping = 0;
    slit_record(&g->d, rec);
    record(&g->d, rec);
    /* Range 0 writes to the output as it goes, the others to memory: a failure ends the read. */
    return g->d.o.err ? (g->index == 0 ? CLI_EXIT_IO : CLI_EXIT_LIMIT) : 0;
}

static void on_error(void *range, fxt_reader_t *r, const fxt_diag_t *dg) {
    dump_range_t *g = range;
    /* Only fxt_reader_finish reports FXT_E_TRUNCATED: the end inside the record being skipped. */
    if (g->skipping && dg->status == FXT_E_TRUNCATED) {
        return;
    }
    g->skipping = dg->status == FXT_E_LIMIT;
    cli_slit_drop_all(&g->d.lit); /* damage is rare: whatever it did to the strings */
    error(&g->d, r, dg);
}

/* Adds the range's counts and output to the run; CLI_EXIT_LIMIT when its buffer ran out of memory. */
static int range_out(dump_ctx_t *c, dump_range_t *g) {
    int rc = 0;
    c->records += g->d.records;
    c->errors += g->d.errors;
    if (g->index == 0) {
        cli_jb_flush(&g->d.o);
        c->out.err = c->out.err ? c->out.err : g->d.o.err; /* the first error's errno */
    } else if (g->d.o.err) {
        rc = CLI_EXIT_LIMIT;
    } else if (g->d.o.n) {
        cli_jb_write(&c->out, g->d.o.p, g->d.o.n);
    }
    range_release(c, g);
    /* A write error ends the read: no later range is decoded (dump_run reports it). */
    return rc == 0 && c->out.err ? CLI_EXIT_IO : rc;
}

static int range_merge(void *ctx, void *range) { return range_out(ctx, range); }

/* Not merged after a failure: range 0 still prints what it decoded, as a sequential read did. */
static void range_free(void *ctx, void *range) {
    dump_range_t *g = range;
    if (g->index == 0) {
        (void)range_out(ctx, g);
    } else {
        range_release(ctx, g);
    }
}

static const cli_par_ops_t dump_ops = {range_new, on_record, on_error, range_merge, range_free};

/* ---- command ------------------------------------------------------------------------ */

typedef struct dump_config {
    const char *in; /* NULL or "-": standard input */
    int json;
    unsigned jobs;
} dump_config_t;

static const cli_opt_t dump_opts[] = {
    CLI_FLAG(dump_config_t, json, "json", 0,
             "JSON Lines: one object per record with offset, kind, provider and the kind's fields "
             "(schema: docs/dump.md, the dump contract)"),
    CLI_PAR_JOBS_OPT(dump_config_t, jobs),
};

static const cli_spec_t dump_spec = {
    "dump",
    dump_opts,
    sizeof dump_opts / sizeof dump_opts[0],
    NULL,
    sizeof(dump_config_t),
    "IN",
    offsetof(dump_config_t, in),
    0,
    0,
    1,
};

/* Reads IN in parallel ranges, prints every record, and turns damaged records into exit 1. */
static int dump_run(void *config) {
    const dump_config_t *cfg = config;
    /* `fxt dump x.fxt >> x.fxt` would read what it writes, without end */
    int orc = cli_output_check("dump", NULL, &cfg->in, 1);
    if (orc != 0) {
        return orc;
    }
    dump_ctx_t c;
    memset(&c, 0, sizeof c);
    c.out.sink = fxt_sink_file(stdout);
    c.json = cfg->json;
    pthread_mutex_init(&c.mu, NULL);
    pieces_init();
    unsigned jobs = cfg->jobs ? cfg->jobs : cli_par_default_jobs();
    int rc = cli_read_parallel_max("dump", cfg->in, NULL, jobs, 0, DUMP_MAX_RANGE, &dump_ops, &c, NULL);
    while (c.npool) {
        free(c.pool[--c.npool]);
    }
    while (c.nlits) {
        cli_slits_free(c.pool_lits[--c.nlits]);
    }
    pthread_mutex_destroy(&c.mu);
    /* A write error (e.g. a closed pipe or a full disk) must not pass as success. */
    if (cli_stdout_finish("dump", c.out.err) != 0) {
        return CLI_EXIT_IO;
    }
    /* Damaged records still let everything readable print; they only change the exit status. */
    if (rc == CLI_EXIT_OK && c.errors) {
        fprintf(stderr,
                "fxt dump: %" PRIu64 " damaged record%s (see the error lines); %" PRIu64 " records decoded\n",
                c.errors, c.errors == 1 ? "" : "s", c.records);
        rc = CLI_EXIT_DATA;
    }
    return rc;
}

const cli_command_t cli_cmd_dump = {
    "dump",
    dump_run,
    NULL,
    "print every record, as text or JSON Lines (--json)",
    "fxt dump [--json] [-j N] [IN|-]",
    "Print every record of an FXT trace, one line per record, in input order.\n"
    "Reads IN, or standard input when IN is '-' or absent. A regular file is decoded\n"
    "in parallel ranges on every core (-j); the output is the same for any -j.\n",
    &dump_spec,
    "env FXT_RANGE_BYTES: smallest range decoded on its own (default 512 KiB; for tests).\n"
    "Text lines start with the record's byte offset, [pN] for the provider\n"
    "context, and the record kind. Strings are printed as JSON string literals.\n"
    "Damaged records are printed as 'error' lines and reading goes on with the\n"
    "next record; a record of size 0 or cut by the end of input ends the dump.\n"
    "\n"
    "exit status: 0 no damaged record, 1 damaged records (everything readable was\n"
    "printed), 2 usage error, 3 I/O error, 4 out of memory or an internal limit\n",
};
