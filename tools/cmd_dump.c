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

typedef struct dump {
    cli_jbuf_t o; /* stdout, written in large blocks: no stdio call per field */
    int json;
    uint64_t records, errors;
} dump_t;

/* ---- small writers shared by both modes --------------------------------------- */

#define LIT(o, lit) CLI_JB_LIT((o), lit)

/* An unresolved indexed string ref prints null, per the dump contract (docs/dump.md). */
static void str_or_null(cli_jbuf_t *o, const fxt_str_t *s) {
    if (s->unresolved) {
        LIT(o, "null");
    } else {
        cli_jb_str(o, s->ptr, s->len);
    }
}

/* A key in both spellings, JSON `,"key":` and text ` key=`, put together at compile time. */
#define K(k) ",\"" k "\":", " " k "="

static void key(dump_t *d, const char *jk, const char *tk) { cli_jb_name(&d->o, d->json ? jk : tk); }

/* Integers are printed exactly over the 64-bit range, never as doubles (dump contract). */
static void kv_u64(dump_t *d, const char *jk, const char *tk, uint64_t v) {
    key(d, jk, tk);
    cli_jb_u64(&d->o, v);
}

static void kv_str(dump_t *d, const char *jk, const char *tk, const fxt_str_t *s) {
    key(d, jk, tk);
    str_or_null(&d->o, s);
}

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

/* Pointers are hex in text but JSON integers in --json (dump contract). */
static void pointer(cli_jbuf_t *o, uint64_t v, int json) {
    if (json) {
        cli_jb_u64(o, v);
    } else {
        cli_jb_hex(o, v);
    }
}

/* One argument's value. */
static void arg_value(cli_jbuf_t *o, const fxt_arg_t *a, int json) {
    switch (a->type) {
    case FXT_ARG_NULL:
        LIT(o, "null");
        break;
    case FXT_ARG_INT32:
        cli_jb_i64(o, a->v.i32);
        break;
    case FXT_ARG_UINT32:
        cli_jb_u64(o, a->v.u32);
        break;
    case FXT_ARG_INT64:
        cli_jb_i64(o, a->v.i64);
        break;
    case FXT_ARG_UINT64:
        cli_jb_u64(o, a->v.u64);
        break;
    case FXT_ARG_DOUBLE: {
        /* Round-trip exact; NaN and infinities become strings, which JSON cannot hold as numbers. */
        char t[CLI_JSON_DOUBLE_MAX];
        cli_jb_mem(o, t, cli_json_double_fmt(t, a->v.f64));
        break;
    }
    case FXT_ARG_STRING:
        str_or_null(o, &a->str);
        break;
    case FXT_ARG_POINTER:
        pointer(o, a->v.pointer, json);
        break;
    case FXT_ARG_KOID:
        cli_jb_u64(o, a->v.koid);
        break;
    case FXT_ARG_BOOL:
        if (a->v.boolean) {
            LIT(o, "true");
        } else {
            LIT(o, "false");
        }
        break;
    default:
        LIT(o, "unknown(");
        cli_jb_u64(o, a->type);
        cli_jb_putc(o, ')');
        break;
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
                cli_jb_putc(o, ',');
            }
            LIT(o, "{\"name\":");
            str_or_null(o, &a->name);
            const char *tn = fxt_arg_type_name(a->type);
            if (tn == NULL) {
                /* The contract's shape for an argument type this revision does not define: no value. */
                LIT(o, ",\"type\":\"unknown\",\"arg_type\":");
                cli_jb_u64(o, a->type);
                cli_jb_putc(o, '}');
                continue;
            }
            LIT(o, ",\"type\":\"");
            cli_jb_name(o, tn);
            LIT(o, "\",\"value\":");
            arg_value(o, a, 1);
            cli_jb_putc(o, '}');
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
        str_or_null(o, &a->name);
        const char *tn = fxt_arg_type_name(a->type);
        LIT(o, ": ");
        /* A null argument's value already reads "null": no type word in front of it. */
        if (tn != NULL && a->type != FXT_ARG_NULL) {
            cli_jb_name(o, tn);
            cli_jb_putc(o, ' ');
        }
        arg_value(o, a, 0);
    }
    cli_jb_putc(o, '}');
}

/* ---- one record ------------------------------------------------------------------- */

/* Opens a line with the fields every record has: offset, kind, provider context. */
static void begin(dump_t *d, uint64_t offset, const char *kind, int has_provider, uint32_t provider) {
    cli_jbuf_t *o = &d->o;
    if (d->json) {
        /* provider is null before any provider info/section record (dump contract). */
        LIT(o, "{\"offset\":");
        cli_jb_u64(o, offset);
        LIT(o, ",\"kind\":\"");
        cli_jb_name(o, kind);
        LIT(o, "\",\"provider\":");
        if (has_provider) {
            cli_jb_u64(o, provider);
        } else {
            LIT(o, "null");
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
        cli_jb_name(o, kind);
    }
}

static void end(dump_t *d) {
    if (d->json) {
        LIT(&d->o, "}\n");
    } else {
        cli_jb_putc(&d->o, '\n');
    }
}

/* One record, its kind's fields in the contract's order. */
static void record(dump_t *d, const fxt_record_t *rec) {
    cli_jbuf_t *o = &d->o;
    begin(d, rec->offset, fxt_record_kind_name(rec->kind), rec->has_provider, rec->provider);
    switch (rec->kind) {
    case FXT_KIND_MAGIC:
        break;
    case FXT_KIND_PROVIDER_INFO:
        kv_u64(d, K("id"), rec->u.provider_info.id);
        kv_str(d, K("name"), &rec->u.provider_info.name);
        break;
    case FXT_KIND_PROVIDER_SECTION:
        kv_u64(d, K("id"), rec->u.provider_section.id);
        break;
    case FXT_KIND_PROVIDER_EVENT:
        kv_u64(d, K("id"), rec->u.provider_event.id);
        kv_u64(d, K("event"), rec->u.provider_event.event);
        break;
    case FXT_KIND_TRACE_INFO:
        kv_u64(d, K("info_type"), rec->u.trace_info.info_type);
        break;
    case FXT_KIND_INIT:
        kv_u64(d, K("ticks_per_second"), rec->u.init.ticks_per_second);
        break;
    case FXT_KIND_STRING:
        kv_u64(d, K("index"), rec->u.string.index);
        kv_str(d, K("value"), &rec->u.string.value);
        break;
    case FXT_KIND_THREAD:
        kv_u64(d, K("index"), rec->u.thread.index);
        kv_u64(d, K("pid"), rec->u.thread.pid);
        kv_u64(d, K("tid"), rec->u.thread.tid);
        break;
    case FXT_KIND_EVENT: {
        unsigned t = rec->u.event.type;
        if (d->json) {
            LIT(o, ",\"event\":\"");
            cli_jb_name(o, fxt_event_type_name(t));
            cli_jb_putc(o, '"');
        } else {
            cli_jb_putc(o, ' ');
            cli_jb_name(o, fxt_event_type_name(t));
        }
        kv_u64(d, K("ts"), rec->u.event.ts);
        kv_thread(d, K("pid"), K("tid"), &rec->u.event.thread);
        kv_str(d, K("category"), &rec->u.event.category);
        kv_str(d, K("name"), &rec->u.event.name);
        /* Only counters and async/flow events carry an id word (spec: Event record). */
        if (t == FXT_EVENT_COUNTER || (t >= FXT_EVENT_ASYNC_BEGIN && t <= FXT_EVENT_FLOW_END)) {
            kv_u64(d, K("id"), rec->u.event.id);
        }
        if (t == FXT_EVENT_DURATION_COMPLETE) {
            /* The extra word is the end timestamp, not a duration (spec-notes). */
            kv_u64(d, K("end_ts"), rec->u.event.end_ts);
        }
        args(d, rec);
        break;
    }
    case FXT_KIND_BLOB:
        kv_str(d, K("name"), &rec->u.blob.name);
        kv_u64(d, K("blob_type"), rec->u.blob.blob_type);
        kv_u64(d, K("size"), rec->u.blob.size);
        break;
    case FXT_KIND_USERSPACE_OBJECT:
        key(d, K("pid"));
        /* The process ref is a thread ref, of which only the pid is meaningful (spec-notes). */
        if (rec->u.userspace_object.process.resolved) {
            cli_jb_u64(o, rec->u.userspace_object.process.pid);
        } else {
            LIT(o, "null");
        }
        key(d, K("ptr"));
        pointer(o, rec->u.userspace_object.ptr, d->json);
        kv_str(d, K("name"), &rec->u.userspace_object.name);
        args(d, rec);
        break;
    case FXT_KIND_KERNEL_OBJECT:
        kv_u64(d, K("koid"), rec->u.kernel_object.koid);
        kv_u64(d, K("obj_type"), rec->u.kernel_object.obj_type);
        kv_str(d, K("name"), &rec->u.kernel_object.name);
        args(d, rec);
        break;
    case FXT_KIND_CONTEXT_SWITCH:
        kv_u64(d, K("ts"), rec->u.context_switch.ts);
        kv_u64(d, K("cpu"), rec->u.context_switch.cpu);
        kv_u64(d, K("out_state"), rec->u.context_switch.out_state);
        kv_u64(d, K("out_tid"), rec->u.context_switch.out_tid);
        kv_u64(d, K("in_tid"), rec->u.context_switch.in_tid);
        args(d, rec);
        break;
    case FXT_KIND_THREAD_WAKEUP:
        kv_u64(d, K("ts"), rec->u.thread_wakeup.ts);
        kv_u64(d, K("cpu"), rec->u.thread_wakeup.cpu);
        kv_u64(d, K("tid"), rec->u.thread_wakeup.tid);
        args(d, rec);
        break;
    case FXT_KIND_LEGACY_CONTEXT_SWITCH:
        kv_u64(d, K("ts"), rec->u.legacy_context_switch.ts);
        kv_u64(d, K("cpu"), rec->u.legacy_context_switch.cpu);
        kv_u64(d, K("out_state"), rec->u.legacy_context_switch.out_state);
        kv_thread(d, K("out_pid"), K("out_tid"), &rec->u.legacy_context_switch.out);
        kv_thread(d, K("in_pid"), K("in_tid"), &rec->u.legacy_context_switch.in);
        kv_u64(d, K("out_prio"), rec->u.legacy_context_switch.out_prio);
        kv_u64(d, K("in_prio"), rec->u.legacy_context_switch.in_prio);
        break;
    case FXT_KIND_LOG:
        kv_u64(d, K("ts"), rec->u.log.ts);
        kv_thread(d, K("pid"), K("tid"), &rec->u.log.thread);
        kv_str(d, K("message"), &rec->u.log.message);
        break;
    case FXT_KIND_LARGE_BLOB:
        kv_u64(d, K("format"), rec->u.large_blob.format);
        kv_str(d, K("category"), &rec->u.large_blob.category);
        kv_str(d, K("name"), &rec->u.large_blob.name);
        kv_u64(d, K("size"), rec->u.large_blob.size);
        /* Only format 0 carries a timestamp, thread and arguments (spec: Large BLOB records). */
        if (rec->u.large_blob.format == FXT_LARGE_BLOB_WITH_METADATA) {
            kv_u64(d, K("ts"), rec->u.large_blob.ts);
            kv_thread(d, K("pid"), K("tid"), &rec->u.large_blob.thread);
            args(d, rec);
        }
        break;
    case FXT_KIND_UNKNOWN:
    default:
        kv_u64(d, K("type"), rec->u.unknown.type);
        key(d, K("subtype"));
        /* null when the record type itself is unknown, rather than a subtype of a known one. */
        if (rec->u.unknown.has_subtype) {
            cli_jb_u64(o, rec->u.unknown.subtype);
        } else {
            LIT(o, "null");
        }
        kv_u64(d, K("size_words"), rec->u.unknown.size_words);
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
    begin(d, dg->offset, "error", has, prov);
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

/* Output buffers of merged ranges, reused: fresh multi-MB buffers cost more in page faults than
 * formatting the records does. At most jobs + 2 are in use at once, so a few are kept. */
#define DUMP_POOL 16

typedef struct dump_ctx {
    cli_jbuf_t out; /* stdout for ranges after the first: cli_jb_write only, sticky error */
    int json;
    uint64_t records, errors;
    pthread_mutex_t mu; /* guards the pool: taken once per range, not per record */
    char *pool[DUMP_POOL];
    size_t pool_cap[DUMP_POOL], npool;
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
    free(g->d.o.p);
    free(g);
}

static int on_record(void *range, fxt_reader_t *r, const fxt_record_t *rec) {
    dump_range_t *g = range;
    (void)r;
    g->skipping = 0;
    record(&g->d, rec);
    return 0;
}

static void on_error(void *range, fxt_reader_t *r, const fxt_diag_t *dg) {
    dump_range_t *g = range;
    /* Only fxt_reader_finish reports FXT_E_TRUNCATED: the end inside the record being skipped. */
    if (g->skipping && dg->status == FXT_E_TRUNCATED) {
        return;
    }
    g->skipping = dg->status == FXT_E_LIMIT;
    error(&g->d, r, dg);
}

/* Adds the range's counts and output to the run; CLI_EXIT_LIMIT when its buffer ran out of memory. */
static int range_out(dump_ctx_t *c, dump_range_t *g) {
    int rc = 0;
    c->records += g->d.records;
    c->errors += g->d.errors;
    if (g->index == 0) {
        cli_jb_flush(&g->d.o);
        c->out.err |= g->d.o.err;
    } else if (g->d.o.err) {
        rc = CLI_EXIT_LIMIT;
    } else if (g->d.o.n) {
        cli_jb_write(&c->out, g->d.o.p, g->d.o.n);
    }
    range_release(c, g);
    return rc;
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
static int dump_run(const dump_config_t *cfg) {
    dump_ctx_t c;
    memset(&c, 0, sizeof c);
    c.out.sink = fxt_sink_file(stdout);
    c.json = cfg->json;
    pthread_mutex_init(&c.mu, NULL);
    unsigned jobs = cfg->jobs ? cfg->jobs : cli_par_default_jobs();
    int rc = cli_read_parallel_max("dump", cfg->in, NULL, jobs, 0, DUMP_MAX_RANGE, &dump_ops, &c, NULL);
    while (c.npool) {
        free(c.pool[--c.npool]);
    }
    pthread_mutex_destroy(&c.mu);
    /* A write error (e.g. a closed pipe or a full disk) must not pass as success. */
    if (c.out.err || fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "fxt dump: error writing output\n");
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

static int dump_main(int argc, char **argv) {
    dump_config_t cfg;
    int rc = cli_parse(&dump_spec, argc, argv, &cfg);
    return rc != 0 ? rc : dump_run(&cfg);
}

const cli_command_t cli_cmd_dump = {
    "dump",
    dump_main,
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
    "printed), 2 usage error, 3 I/O error, 4 out of memory\n",
};
