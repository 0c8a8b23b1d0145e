/* SPDX-License-Identifier: MIT */
/*
 * fxt synth: realistic synthetic traces of a given size, written with the
 * writer library. Deterministic for a given seed and options.
 */
#include <fxt/writer.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_io.h"

typedef struct synth_opt {
    uint64_t size;   /* stop once this many bytes were written (0 = use events) */
    uint64_t events; /* stop after this many events (0 = use size) */
    unsigned threads;
    unsigned providers;
    unsigned categories;
    unsigned names;
    unsigned args;     /* max args per event */
    unsigned args_mix; /* MIX_*: which argument types make_args() picks */
    uint64_t seed;
    uint64_t ticks; /* ticks per second of provider 1 (others get different rates) */
    int all_records;
    int big_endian;
    const char *out;
    const char *compress;
    int size_given; /* --size was given (else the default applies unless --events is) */
} synth_config_t;

typedef struct rng {
    uint64_t s;
} rng_t;

static uint64_t rnd(rng_t *g) {
    /* xorshift64*: fast, good enough for synthetic data */
    g->s ^= g->s >> 12;
    g->s ^= g->s << 25;
    g->s ^= g->s >> 27;
    return g->s * 0x2545f4914f6cdd1dull;
}

/* Nesting per thread; at this depth step() always ends a duration instead of beginning one. */
#define MAX_DEPTH 16

typedef struct thr {
    uint64_t pid, tid;
    unsigned depth;
    unsigned stack_cat[MAX_DEPTH], stack_name[MAX_DEPTH];
    uint64_t stack_ts[MAX_DEPTH];
} thr_t;

typedef struct prov {
    uint32_t id;
    uint64_t ticks;
    uint64_t pid;
    thr_t *threads;
    unsigned nthreads;
    uint64_t async_open[8]; /* open async ids (0 = none) */
    uint64_t flow_open[8];
    /* each chain keeps its begin's category: viewers match async and flow events by
     * category and id (DevTools, Chrome), so a chain must not change category */
    unsigned async_cat[8], flow_cat[8];
} prov_t;

typedef struct synth {
    fxt_writer_t *w;
    synth_config_t o;
    rng_t g;
    uint64_t now_ns;
    uint64_t events;
    uint64_t next_id;
    char catbuf[64][32];
    char namebuf[512][40];
} synth_t;

static const char *const kCatWords[] = {"gfx", "input", "net", "storage", "audio", "sched", "ipc", "mem"};
static const char *const kNameWords[] = {"Frame",    "Draw",   "Poll",   "Read",  "Write", "Compose",
                                         "Dispatch", "Decode", "Encode", "Flush", "Wait",  "Layout"};
static const char *const kArgNames[] = {"count", "bytes", "id", "ratio", "label",
                                        "ptr",   "koid",  "ok", "fd",    "marker"};

static fxt_str_t cat_str(synth_t *s, unsigned i) { return fxt_cstr(s->catbuf[i % s->o.categories]); }
static fxt_str_t name_str(synth_t *s, unsigned i) { return fxt_cstr(s->namebuf[i % s->o.names]); }

/* ns -> provider ticks, exactly when the rate divides, else rounded down */
static uint64_t ticks_of(const prov_t *p, uint64_t ns) {
    if (p->ticks == 1000000000u) {
        return ns;
    }
    /* split to avoid overflow: whole seconds, then the remainder */
    return (ns / 1000000000u) * p->ticks + (ns % 1000000000u) * p->ticks / 1000000000u;
}

/* --args-mix: the argument kinds (cases of make_args) each mix draws from */
enum { MIX_ALL, MIX_INT, MIX_NUMERIC, MIX_STRING, MIX_COUNT_ };
static const char *const kMixNames[MIX_COUNT_ + 1] = {"all", "int", "numeric", "string",
                                                      NULL}; /* + NULL: a CLI_CHOICE list */
static const unsigned char kMixKinds[MIX_COUNT_][10] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, /* every argument type */
    {0, 1, 2, 8, 0, 1, 2, 8, 0, 2}, /* int32, uint64, int64, uint32 */
    {0, 1, 2, 3, 8, 0, 1, 2, 3, 8}, /* the integers and doubles */
    {4, 4, 4, 4, 4, 4, 4, 0, 0, 3}, /* mostly string values */
};

/* Up to o.args random arguments drawn from the --args-mix kinds; lbl holds string values,
 * which must outlive the write call. */
static unsigned make_args(synth_t *s, fxt_arg_t *a, char (*lbl)[24]) {
    unsigned n = s->o.args ? (unsigned)(rnd(&s->g) % (s->o.args + 1)) : 0;
    for (unsigned i = 0; i < n; i++) {
        uint64_t v = rnd(&s->g);
        unsigned k = kMixKinds[s->o.args_mix][v % 10];
        fxt_str_t nm = fxt_cstr(kArgNames[k]);
        switch (k) {
        case 0:
            a[i] = fxt_arg_int32(nm, (int32_t)(v >> 40) - 1000);
            break;
        case 1:
            a[i] = fxt_arg_uint64(nm, v >> 20);
            break;
        case 2:
            a[i] = fxt_arg_int64(nm, (int64_t)(v >> 1) * ((v & 1) ? -1 : 1));
            break;
        case 3:
            /* 53 random bits over 2^53: a uniform double in [0, 1) with every bit significant. */
            a[i] = fxt_arg_double(nm, (double)(v >> 11) / 9007199254740992.0);
            break;
        case 4:
            snprintf(lbl[i], sizeof lbl[i], "item-%u", (unsigned)(v >> 50));
            /* most labels are interned; a few are written inline */
            a[i] = fxt_arg_string(nm, (v >> 8) % 8 ? fxt_cstr(lbl[i]) : fxt_str_inline(fxt_cstr(lbl[i])));
            break;
        case 5:
            /* Looks like a user-space address on x86-64 Linux, 8-byte aligned. */
            a[i] = fxt_arg_pointer(nm, 0x7f0000000000ull + ((v >> 30) & ~7ull));
            break;
        case 6:
            a[i] = fxt_arg_koid(nm, 1000 + (v >> 56));
            break;
        case 7:
            a[i] = fxt_arg_bool(nm, (int)(v >> 63));
            break;
        case 8:
            a[i] = fxt_arg_uint32(nm, (uint32_t)(v >> 32));
            break;
        default:
            a[i] = fxt_arg_null(nm);
            break;
        }
    }
    return n;
}

/* A provider's first section announces it (info, tick rate, named process and threads);
 * later ones only switch back to it with a provider section record. */
static void preamble(synth_t *s, prov_t *p, int first) {
    fxt_writer_t *w = s->w;
    char pname[64];
    snprintf(pname, sizeof pname, "synth-provider-%u", (unsigned)p->id);
    if (first) {
        fxt_write_provider_info(w, p->id, fxt_cstr(pname));
        fxt_write_init(w, p->ticks);
        char proc[64];
        snprintf(proc, sizeof proc, "synth-process-%u", (unsigned)p->id);
        fxt_write_kernel_object(w, p->pid, FXT_OBJ_PROCESS, fxt_cstr(proc), NULL, 0);
        for (unsigned t = 0; t < p->nthreads; t++) {
            char tn[64];
            snprintf(tn, sizeof tn, "worker-%u", t);
            /* The koid "process" argument lets viewers place the thread (fxt check: thread-no-process). */
            fxt_arg_t a = fxt_arg_koid(fxt_cstr("process"), p->pid);
            fxt_write_kernel_object(w, p->threads[t].tid, FXT_OBJ_THREAD, fxt_cstr(tn), &a, 1);
        }
    } else {
        fxt_write_provider_section(w, p->id);
    }
}

/* One record of each kind not made by step(), for --all-records (reader and tool coverage). */
static void all_records_once(synth_t *s, prov_t *p) {
    fxt_writer_t *w = s->w;
    thr_t *t = &p->threads[0];
    fxt_thread_ref_t th = fxt_thread(t->pid, t->tid);
    uint64_t ts = ticks_of(p, s->now_ns);
    fxt_write_provider_event(w, p->id, FXT_PROVIDER_EVENT_BUFFER_FULL);
    fxt_write_provider_section(w, p->id); /* the provider is already current: the record changes nothing */
    fxt_write_trace_info(w, 1, 0);
    fxt_write_string_record(w, 1, fxt_cstr("explicit string"));
    fxt_write_thread_record(w, 1, t->pid, t->tid);
    fxt_write_blob(w, fxt_cstr("blob"), FXT_BLOB_DATA, "synthetic blob payload", 22);
    fxt_arg_t a[2] = {fxt_arg_string(fxt_cstr("kind"), fxt_cstr("widget")), fxt_arg_int32(fxt_cstr("n"), 3)};
    fxt_write_userspace_object(w, 0x7f0000001000ull, t->pid, fxt_cstr("widget#1"), a, 2);
    /* A CPU per provider, and the legacy switch gives the CPU back: each CPU's switches agree on
     * who runs there (Perfetto counts mismatched_sched_switch_tids otherwise). */
    uint32_t cpu = (p->id - 1) % (FXT_MAX_CPU + 1);
    uint64_t last = p->threads[p->nthreads - 1].tid;
    fxt_write_context_switch(w, ts, cpu, FXT_THREAD_BLOCKED, t->tid, last, NULL, 0);
    fxt_write_thread_wakeup(w, ts, cpu, t->tid, NULL, 0);
    fxt_write_legacy_context_switch(w, ts, cpu, FXT_THREAD_SUSPENDED, fxt_thread(p->pid, last), th, 20, 20);
    fxt_write_log(w, ts, th, fxt_cstr("synthetic log message"));
    static const char payload[100] = "large blob payload";
    /* Both large blob formats: 0 with metadata (ts, thread, args), 1 without. */
    fxt_large_blob_desc_t lb0 = {0, fxt_cstr("blob"), fxt_cstr("large0"), ts, th, a,
                                 2, payload,          sizeof payload};
    fxt_write_large_blob(w, &lb0);
    fxt_large_blob_desc_t lb1 = {1, fxt_cstr("blob"), fxt_cstr("large1"), 0, th, NULL, 0, payload, 50};
    fxt_write_large_blob(w, &lb1);
    fxt_write_instant(w, ts, th, fxt_cstr("synth"), fxt_cstr("explicit string"), NULL, 0);
    s->events++;
}

/* A flow event inside a slice, as real ones are (a flow marks work a slice does): a complete
 * event around it on its thread, of the chain's category (DevTools binds a flow event only to a
 * slice of its category), written after it like an FXT_DURATION scope. The clock moves past the
 * slice's end, so it is a leaf inside whatever pair is open. Fixed gaps, not random ones: the
 * rest of the trace is drawn as before. */
#define FLOW_GAP_NS 500

static void flow_in_slice(synth_t *s, const prov_t *p, fxt_event_desc_t *ev, unsigned name) {
    uint64_t start = s->now_ns;
    s->now_ns += FLOW_GAP_NS;
    ev->ts = ticks_of(p, s->now_ns);
    fxt_write_event(s->w, ev);
    s->now_ns += FLOW_GAP_NS;
    fxt_write_duration_complete(s->w, ticks_of(p, start), ticks_of(p, s->now_ns), ev->thread, ev->category,
                                name_str(s, name), NULL, 0);
    s->events++;
}

/* One step on one thread of one provider: an event or a begin/end pair. */
static void step(synth_t *s, prov_t *p) {
    fxt_writer_t *w = s->w;
    thr_t *t = &p->threads[rnd(&s->g) % p->nthreads];
    fxt_thread_ref_t th = fxt_thread(t->pid, t->tid);
    /* A single clock for all threads that only moves forward: per-thread timestamps stay ordered. */
    s->now_ns += 1 + rnd(&s->g) % 2000;
    uint64_t ts = ticks_of(p, s->now_ns);
    fxt_arg_t a[FXT_MAX_ARGS];
    char lbl[FXT_MAX_ARGS][24];
    uint64_t r = rnd(&s->g) % 100;
    unsigned c = (unsigned)(rnd(&s->g) % s->o.categories), n = (unsigned)(rnd(&s->g) % s->o.names);
    if (r < 45) {
        /* durations: open or close, keeping per-thread nesting balanced */
        if (t->depth > 0 && (t->depth == MAX_DEPTH || rnd(&s->g) % 2)) {
            t->depth--;
            fxt_write_duration_end(w, ts, th, cat_str(s, t->stack_cat[t->depth]),
                                   name_str(s, t->stack_name[t->depth]), NULL, 0);
        } else {
            unsigned na = make_args(s, a, lbl);
            t->stack_cat[t->depth] = c;
            t->stack_name[t->depth] = n;
            t->stack_ts[t->depth] = ts;
            t->depth++;
            fxt_write_duration_begin(w, ts, th, cat_str(s, c), name_str(s, n), a, na);
        }
    } else if (r < 60) {
        unsigned na = make_args(s, a, lbl);
        fxt_write_instant(w, ts, th, cat_str(s, c), name_str(s, n), a, na);
    } else if (r < 70) {
        uint64_t dur = 1 + rnd(&s->g) % 2000;
        unsigned na = make_args(s, a, lbl);
        /* The clock moves past the end, so the complete event is a leaf: no later begin or end on
         * its thread falls inside it, and its enclosing begin ends after it (proper nesting). */
        s->now_ns += dur;
        /* The second timestamp is the end, not the duration (spec-notes). */
        fxt_write_duration_complete(w, ts, ticks_of(p, s->now_ns), th, cat_str(s, c), name_str(s, n), a, na);
    } else if (r < 80) {
        fxt_arg_t cv[2] = {fxt_arg_int64(fxt_cstr("value"), (int64_t)(rnd(&s->g) % 1000)),
                           fxt_arg_double(fxt_cstr("rate"), (double)(rnd(&s->g) % 1000) / 10.0)};
        fxt_write_counter(w, ts, th, cat_str(s, c), fxt_cstr("counter"), 1 + (unsigned)(r % 3), cv, 2);
    } else if (r < 88) {
        /* async: begin a new id, or instant/end an open one */
        /* 8 slots per provider bound the open async ids; ids are never reused, slots are. */
        unsigned slot = (unsigned)(rnd(&s->g) % 8);
        fxt_event_desc_t ev = {0, ts, th, cat_str(s, c), fxt_cstr("async-op"), 0, 0, NULL, 0, NULL, 0};
        if (p->async_open[slot] == 0) {
            p->async_open[slot] = ++s->next_id;
            p->async_cat[slot] = c;
            ev.type = FXT_EVENT_ASYNC_BEGIN;
        } else {
            ev.category = cat_str(s, p->async_cat[slot]);
            ev.type = rnd(&s->g) % 3 ? FXT_EVENT_ASYNC_END : FXT_EVENT_ASYNC_INSTANT;
        }
        ev.id = p->async_open[slot];
        if (ev.type == FXT_EVENT_ASYNC_END) {
            p->async_open[slot] = 0;
        }
        fxt_write_event(w, &ev);
    } else if (r < 94) {
        unsigned slot = (unsigned)(rnd(&s->g) % 8);
        fxt_event_desc_t ev = {0, ts, th, cat_str(s, c), fxt_cstr("flow"), 0, 0, NULL, 0, NULL, 0};
        if (p->flow_open[slot] == 0) {
            p->flow_open[slot] = ++s->next_id;
            p->flow_cat[slot] = c;
            ev.type = FXT_EVENT_FLOW_BEGIN;
        } else {
            ev.category = cat_str(s, p->flow_cat[slot]);
            ev.type = rnd(&s->g) % 2 ? FXT_EVENT_FLOW_END : FXT_EVENT_FLOW_STEP;
        }
        ev.id = p->flow_open[slot];
        if (ev.type == FXT_EVENT_FLOW_END) {
            p->flow_open[slot] = 0;
        }
        flow_in_slice(s, p, &ev, n);
    } else if (r < 97) {
        char msg[64];
        snprintf(msg, sizeof msg, "log line %" PRIu64, s->events);
        fxt_write_log(w, ts, th, fxt_cstr(msg));
    } else {
        /* an event with an inline thread and inline strings */
        /* Exercises the inline forms of thread and string references that readers must also handle. */
        fxt_write_instant(w, ts, fxt_thread_inline(t->pid, t->tid), fxt_str_inline(cat_str(s, c)),
                          fxt_str_inline(name_str(s, n)), NULL, 0);
    }
    s->events++;
}

/* The end of an async or flow chain still open (id) on thread t, now. */
static void end_chain(synth_t *s, prov_t *p, const thr_t *t, uint32_t type, unsigned cat, const char *name,
                      uint64_t id) {
    fxt_event_desc_t ev = {.type = type,
                           .ts = ticks_of(p, s->now_ns),
                           .thread = fxt_thread(t->pid, t->tid),
                           .category = cat_str(s, cat),
                           .name = fxt_cstr(name),
                           .id = id};
    fxt_write_event(s->w, &ev);
}

/* Close what is open so the trace ends balanced. */
static void close_all(synth_t *s, prov_t *p) {
    for (unsigned i = 0; i < p->nthreads; i++) {
        thr_t *t = &p->threads[i];
        while (t->depth > 0) {
            /* Ends get later timestamps than anything written, so durations stay non-negative. */
            s->now_ns += 10;
            t->depth--;
            fxt_write_duration_end(s->w, ticks_of(p, s->now_ns), fxt_thread(t->pid, t->tid),
                                   cat_str(s, t->stack_cat[t->depth]), name_str(s, t->stack_name[t->depth]),
                                   NULL, 0);
            s->events++;
        }
    }
    thr_t *t = &p->threads[0];
    for (unsigned k = 0; k < 8; k++) {
        s->now_ns += 10;
        if (p->async_open[k]) {
            end_chain(s, p, t, FXT_EVENT_ASYNC_END, p->async_cat[k], "async-op", p->async_open[k]);
            p->async_open[k] = 0;
        }
        if (p->flow_open[k]) {
            fxt_event_desc_t ev = {.type = FXT_EVENT_FLOW_END,
                                   .thread = fxt_thread(t->pid, t->tid),
                                   .category = cat_str(s, p->flow_cat[k]),
                                   .name = fxt_cstr("flow"),
                                   .id = p->flow_open[k]};
            flow_in_slice(s, p, &ev, k);
            p->flow_open[k] = 0;
        }
    }
}

/* ---- command ------------------------------------------------------------------------ */

/* size 0 here: synth_options applies the 1 MiB default only when neither --size nor --events is given. */
static const synth_config_t synth_defaults = {0, 0,           4, 1, 8,    64,   4, MIX_ALL,
                                              1, 1000000000u, 0, 0, NULL, NULL, 0};

static const cli_opt_t synth_opts[] = {
    CLI_OUTPUT_OPTS(synth_config_t, out, compress,
                    "output file (default: standard output); a name ending in .gz or .zst is compressed "
                    "with gzip or zstd"),
    {.name = "size",
     .kind = CLI_OPT_SIZE,
     CLI_FIELD(synth_config_t, size, uint64_t),
     .seen = CLI_SEEN(synth_config_t, size_given),
     .value_name = "N",
     .help = "stop after about N bytes (suffixes k, M, G; default 1M)"},
    CLI_SIZE(synth_config_t, events, uint64_t, "events", 0, 0, "N",
             "stop after N events (instead of --size)"),
    /* 255: the thread table's size (spec: at most 255 threads), so every thread can be indexed. */
    CLI_SIZE(synth_config_t, threads, unsigned, "threads", 1, 255, "N",
             "threads per provider (1..255, default 4)"),
    CLI_SIZE(synth_config_t, providers, unsigned, "providers", 1, 1000, "N",
             "providers; sections alternate between them (1..1000, default 1)"),
    /* The bounds of categories and names are the sizes of the catbuf and namebuf pools. */
    CLI_SIZE(synth_config_t, categories, unsigned, "categories", 1, 64, "N",
             "distinct categories (1..64, default 8)"),
    CLI_SIZE(synth_config_t, names, unsigned, "names", 1, 512, "N",
             "distinct event names (1..512, default 64)"),
    CLI_SIZE(synth_config_t, args, unsigned, "args", 0, 15, "N",
             "at most N arguments per event (0..15, default 4)"),
    CLI_CHOICE(synth_config_t, args_mix, "args-mix", kMixNames, "MIX",
               "argument types: all (default: every type), int, numeric (integers and doubles) or string"),
    CLI_SIZE(synth_config_t, seed, uint64_t, "seed", 0, 0, "N", "random seed (default 1)"),
    CLI_SIZE(synth_config_t, ticks, uint64_t, "ticks-per-second", 1, 0, "N",
             "provider 1's tick rate (default 1000000000); provider k uses N*k, so merged traces mix rates"),
    CLI_FLAG(synth_config_t, all_records, "all-records", 0,
             "also write one record of every other type (blob, objects, scheduling, log, large blobs, "
             "provider event and section, trace info)"),
    CLI_FLAG(synth_config_t, big_endian, "big-endian", 0, "write a big-endian trace"),
};

static const cli_spec_t synth_spec = {
    "synth",
    synth_opts,
    sizeof synth_opts / sizeof synth_opts[0],
    &synth_defaults,
    sizeof(synth_config_t),
    "argument",
    0,
    0,
    0,
    0,
};

/* The highest provider tick rate: UINT64_MAX / 1e9 (18.4 GHz, far above any real clock). */
#define SYNTH_MAX_RATE (UINT64_MAX / 1000000000u)

/* After parsing: checks the options that bound each other, applies the size default that depends
 * on two options. */
static int synth_options(synth_config_t *cfg) {
    /* Provider k ticks at N*k, and a timestamp is ns * rate / 1e9 (split into seconds and the
     * rest, whose product must fit 64 bits): the highest rate stays below 2^64 / 1e9, so
     * neither wraps. */
    if (cfg->ticks > SYNTH_MAX_RATE / cfg->providers) {
        fprintf(stderr,
                "fxt synth: --ticks-per-second %" PRIu64 " times %u providers is over %" PRIu64
                " ticks per second\n",
                cfg->ticks, cfg->providers, (uint64_t)SYNTH_MAX_RATE);
        return CLI_EXIT_USAGE;
    }
    if (!cfg->size_given && cfg->events == 0) {
        cfg->size = 1u << 20; /* neither limit given: 1 MiB */
    }
    return 0;
}

/* The category and event name pools: readable words, numbered once they run out. */
static void synth_names(synth_t *s) {
    for (unsigned i = 0; i < s->o.categories; i++) {
        if (i < 8) {
            snprintf(s->catbuf[i], sizeof s->catbuf[i], "%s", kCatWords[i]);
        } else {
            snprintf(s->catbuf[i], sizeof s->catbuf[i], "%s.%u", kCatWords[i % 8], i / 8);
        }
    }
    for (unsigned i = 0; i < s->o.names; i++) {
        snprintf(s->namebuf[i], sizeof s->namebuf[i], "%s%s", kNameWords[i % 12], kNameWords[(i / 12) % 12]);
        if (i >= 144) {
            size_t l = strlen(s->namebuf[i]);
            snprintf(s->namebuf[i] + l, sizeof s->namebuf[i] - l, "%u", i / 144);
        }
    }
}

static void synth_free_providers(prov_t *provs, unsigned n) {
    for (unsigned i = 0; provs != NULL && i < n; i++) {
        free(provs[i].threads);
    }
    free(provs);
}

/* Providers k = 1..n with their process, threads and tick rate; NULL when out of memory. */
static prov_t *synth_providers(const synth_config_t *o) {
    prov_t *provs = calloc(o->providers, sizeof *provs);
    for (unsigned i = 0; provs != NULL && i < o->providers; i++) {
        prov_t *p = &provs[i];
        p->id = i + 1;
        /* Each provider its own rate, so merged or multi-provider traces test per-provider tick rates. */
        p->ticks = o->ticks * (i + 1);
        p->pid = 1000 + 1000 * (uint64_t)i;
        p->nthreads = o->threads;
        p->threads = calloc(o->threads, sizeof *p->threads);
        if (p->threads == NULL) {
            synth_free_providers(provs, o->providers);
            return NULL;
        }
        for (unsigned t = 0; t < o->threads; t++) {
            p->threads[t].pid = p->pid;
            p->threads[t].tid = p->pid + 1 + t;
        }
    }
    return provs;
}

/* The whole trace: preambles, steps until the size or event limit, then everything closed. */
static void synth_generate(synth_t *s, prov_t *provs) {
    const synth_config_t *o = &s->o;
    fxt_write_magic(s->w);
    for (unsigned i = 0; i < o->providers; i++) {
        preamble(s, &provs[i], 1);
        if (o->all_records) {
            all_records_once(s, &provs[i]);
        }
    }
    unsigned cur = o->providers - 1;
    while (fxt_writer_status(s->w) == FXT_OK) {
        if (o->events ? s->events >= o->events : fxt_writer_bytes(s->w) >= o->size) {
            break;
        }
        /* Sections alternate every 1000 events, as buffers of several providers interleave in an archive. */
        if (o->providers > 1 && s->events % 1000 == 0) {
            cur = (cur + 1) % o->providers;
            preamble(s, &provs[cur], 0);
        }
        step(s, &provs[cur]);
    }
    for (unsigned i = 0; i < o->providers; i++) {
        if (o->providers > 1) {
            /* The closing events must be written in their own provider's section. */
            preamble(s, &provs[i], 0);
        }
        close_all(s, &provs[i]);
    }
}

/* Generates the trace into OUT; only I/O and memory can fail (the input is synthetic). */
static int synth_run(void *config) {
    synth_config_t *cfg = config;
    int prc = synth_options(cfg);
    if (prc != 0) {
        return prc;
    }
    static synth_t s; /* the name pools are large: static, reset for in-process reruns */
    memset(&s, 0, sizeof s);
    s.o = *cfg;
    /* The odd multiplier spreads seeds; +1 makes seed 0 usable: an all-zero xorshift state stays 0. */
    s.g.s = cfg->seed * 0x9e3779b97f4a7c15ull + 1;
    s.now_ns = 1000000;
    synth_names(&s);
    prov_t *provs = synth_providers(cfg);
    if (provs == NULL) {
        fprintf(stderr, "fxt synth: out of memory\n");
        return CLI_EXIT_LIMIT;
    }
    char err[512];
    cli_output_t *out;
    int orc = cli_output_open(cfg->out, cfg->compress, &out, err, sizeof err);
    if (orc != 0) {
        fprintf(stderr, "fxt synth: %s\n", err);
        synth_free_providers(provs, cfg->providers);
        return orc;
    }
    fxt_writer_options_t wo = {sizeof wo, cfg->big_endian ? FXT_WRITE_BIG_ENDIAN : 0, 1u << 20, 0, 0};
    if (fxt_writer_create(&wo, cli_output_sink(out), &s.w) != FXT_OK) {
        fprintf(stderr, "fxt synth: out of memory\n");
        cli_output_close(out, 1);
        synth_free_providers(provs, cfg->providers);
        return CLI_EXIT_LIMIT;
    }
    synth_generate(&s, provs);
    fxt_status st = fxt_writer_finish(s.w);
    fxt_writer_destroy(s.w);
    synth_free_providers(provs, cfg->providers);
    if (cli_output_close(out, st != FXT_OK) != 0 && st == FXT_OK) {
        st = FXT_E_IO;
    }
    if (st == FXT_E_IO) {
        cli_output_error("synth", errno); /* "No space left on device", not "input/output error" */
        return CLI_EXIT_IO;
    }
    if (st != FXT_OK) {
        fprintf(stderr, "fxt synth: %s\n", fxt_status_str(st));
        return CLI_EXIT_LIMIT;
    }
    return CLI_EXIT_OK;
}

const cli_command_t cli_cmd_synth = {
    "synth",
    synth_run,
    NULL,
    "generate a realistic synthetic trace",
    "fxt synth [options] [-o FILE]",
    "Write a realistic synthetic FXT trace (deterministic for a seed): per provider a\n"
    "provider info record, an initialization record, kernel objects naming the\n"
    "process and its threads, then nested duration begin/end pairs, instants,\n"
    "duration complete, counter, async and flow events and logs, with interned and\n"
    "inline strings and arguments of every type.\n",
    &synth_spec,
    "exit status: 0 ok, 2 usage error, 3 I/O error,\n"
    "4 out of memory or an internal limit\n",
};
