/*
 * fxt json: Chrome Trace Event Format JSON (loads in Perfetto UI and
 * chrome://tracing), in one streaming pass with constant memory.
 *
 * The mapping follows Fuchsia's trace2json (docs/json.md has the table) with
 * its weaknesses fixed: exact nanosecond timestamps printed as decimal
 * microseconds from integer arithmetic, 64-bit ids as strings, per-provider
 * tick rates, process/thread names as standard "M" metadata events in file
 * order, null arguments kept, works from a pipe. Scheduling records go to
 * "systemTraceEvents" (spilled to a temporary file while streaming, so memory
 * stays constant) unless --no-system-events.
 */
#include <fxt/reader.h>

#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_json.h"
#include "cli_trace.h"

#define MAX_FILTERS 64

typedef struct jctx {
    FILE *out;
    FILE *sys; /* system events, spilled; NULL when disabled */
    uint64_t nevents, nsys, nmeta, skipped, errors, overflows;
    int first_sys;
    /* filters */
    const char *cats[MAX_FILTERS];
    unsigned ncats;
    const char *names[MAX_FILTERS];
    unsigned nnames;
    int has_from, has_to, absolute;
    uint64_t from_ns, to_ns;
    int have_base;
    uint64_t base_ns;
    char *scratch; /* NUL-terminated copies for fnmatch */
} jctx_t;

static const char *cstr(jctx_t *j, fxt_str_t s) {
    size_t n = s.ptr ? s.len : 0;
    if (n) {
        memcpy(j->scratch, s.ptr, n);
    }
    j->scratch[n] = '\0';
    return j->scratch;
}

static int match_any(jctx_t *j, const char *const *pats, unsigned n, fxt_str_t s) {
    if (n == 0) {
        return 1;
    }
    const char *c = cstr(j, s);
    for (unsigned i = 0; i < n; i++) {
        if (fnmatch(pats[i], c, 0) == 0) {
            return 1;
        }
    }
    return 0;
}

static void jstr(FILE *o, fxt_str_t s) { cli_json_str(o, s.ptr ? s.ptr : "", s.ptr ? s.len : 0); }

static void begin_event(jctx_t *j) {
    if (j->nevents + j->nmeta > 0) {
        putc(',', j->out);
    }
    putc('\n', j->out);
}

/* "args":{...} with every argument of a known type; returns the count written. */
static void write_args(FILE *o, const fxt_record_t *rec, const char *extra_key, fxt_str_t extra) {
    unsigned written = 0;
    for (unsigned i = 0; i < rec->nargs; i++) {
        const fxt_arg_t *a = &rec->args[i];
        if (a->type >= FXT_ARG_TYPE_COUNT) {
            continue; /* unknown argument types have no JSON form */
        }
        fputs(written++ ? "," : ",\"args\":{", o);
        jstr(o, a->name);
        putc(':', o);
        switch (a->type) {
        case FXT_ARG_NULL: fputs("null", o); break;
        case FXT_ARG_INT32: fprintf(o, "%" PRId32, a->v.i32); break;
        case FXT_ARG_UINT32: fprintf(o, "%" PRIu32, a->v.u32); break;
        case FXT_ARG_INT64: fprintf(o, "%" PRId64, a->v.i64); break;
        case FXT_ARG_UINT64: fprintf(o, "%" PRIu64, a->v.u64); break;
        case FXT_ARG_DOUBLE: cli_json_double(o, a->v.f64); break;
        case FXT_ARG_STRING: jstr(o, a->str); break;
        case FXT_ARG_POINTER: fprintf(o, "\"0x%" PRIx64 "\"", a->v.pointer); break;
        case FXT_ARG_KOID: fprintf(o, "\"#%" PRIu64 "\"", a->v.koid); break;
        case FXT_ARG_BOOL: fputs(a->v.boolean ? "true" : "false", o); break;
        default: break;
        }
    }
    if (extra_key != NULL) {
        fputs(written++ ? "," : ",\"args\":{", o);
        fprintf(o, "\"%s\":", extra_key);
        jstr(o, extra);
    }
    if (written) {
        putc('}', o);
    }
}

static void write_b64(FILE *o, const uint8_t *p, uint64_t n) {
    static const char tbl[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    putc('"', o);
    for (uint64_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16;
        if (i + 1 < n) {
            v |= (uint32_t)p[i + 1] << 8;
        }
        if (i + 2 < n) {
            v |= p[i + 2];
        }
        putc(tbl[(v >> 18) & 63], o);
        putc(tbl[(v >> 12) & 63], o);
        putc(i + 1 < n ? tbl[(v >> 6) & 63] : '=', o);
        putc(i + 2 < n ? tbl[v & 63] : '=', o);
    }
    putc('"', o);
}

/* Common keys of an event: cat, name, ts, pid, tid. */
static void event_head(jctx_t *j, fxt_str_t cat, fxt_str_t name, uint64_t ns, const fxt_thread_ref_t *t,
                       int with_cat) {
    FILE *o = j->out;
    begin_event(j);
    putc('{', o);
    if (with_cat) {
        fputs("\"cat\":", o);
        jstr(o, cat);
        putc(',', o);
    }
    fputs("\"name\":", o);
    jstr(o, name);
    fputs(",\"ts\":", o);
    cli_print_us(o, ns);
    fprintf(o, ",\"pid\":%" PRIu64 ",\"tid\":%" PRIu64, t->resolved ? t->pid : 0, t->resolved ? t->tid : 0);
}

static int time_selected(jctx_t *j, uint64_t ns) {
    if (!j->have_base) {
        j->have_base = 1;
        j->base_ns = ns;
    }
    uint64_t rel = j->absolute ? ns : (ns >= j->base_ns ? ns - j->base_ns : 0);
    if (j->has_from && rel < j->from_ns) {
        return 0;
    }
    if (j->has_to && rel > j->to_ns) {
        return 0;
    }
    return 1;
}

static void on_event(jctx_t *j, fxt_reader_t *r, const fxt_record_t *rec) {
    FILE *o = j->out;
    uint64_t tps = fxt_reader_ticks_per_second(r);
    uint64_t ns = cli_ticks_to_ns(rec->u.event.ts, tps);
    if (!time_selected(j, ns) || !match_any(j, j->cats, j->ncats, rec->u.event.category) ||
        !match_any(j, j->names, j->nnames, rec->u.event.name)) {
        return;
    }
    const fxt_thread_ref_t *t = &rec->u.event.thread;
    event_head(j, rec->u.event.category, rec->u.event.name, ns, t, 1);
    switch (rec->u.event.type) {
    case FXT_EVENT_INSTANT: {
        const char *scope = "t";
        if (rec->u.event.extra_words > 0) {
            uint64_t s = fxt_record_word(rec, rec->u.event.extra, 0);
            scope = s == FXT_SCOPE_GLOBAL ? "g" : s == FXT_SCOPE_PROCESS ? "p" : "t";
        }
        fprintf(o, ",\"ph\":\"i\",\"s\":\"%s\"", scope);
        break;
    }
    case FXT_EVENT_COUNTER:
        fputs(",\"ph\":\"C\"", o);
        if (rec->u.event.id != 0) {
            fprintf(o, ",\"id\":\"0x%" PRIx64 "\"", rec->u.event.id);
        }
        break;
    case FXT_EVENT_DURATION_BEGIN: fputs(",\"ph\":\"B\"", o); break;
    case FXT_EVENT_DURATION_END: fputs(",\"ph\":\"E\"", o); break;
    case FXT_EVENT_DURATION_COMPLETE: {
        uint64_t end = cli_ticks_to_ns(rec->u.event.end_ts, tps);
        fputs(",\"ph\":\"X\",\"dur\":", o);
        cli_print_us_signed(o, (int64_t)(end - ns));
        break;
    }
    case FXT_EVENT_ASYNC_BEGIN:
    case FXT_EVENT_ASYNC_INSTANT:
    case FXT_EVENT_ASYNC_END: {
        static const char ph[3] = {'b', 'n', 'e'};
        fprintf(o, ",\"ph\":\"%c\",\"id\":\"0x%" PRIx64 "\"", ph[rec->u.event.type - FXT_EVENT_ASYNC_BEGIN],
                rec->u.event.id);
        break;
    }
    case FXT_EVENT_FLOW_BEGIN: fprintf(o, ",\"ph\":\"s\",\"id\":\"%" PRIu64 "\"", rec->u.event.id); break;
    case FXT_EVENT_FLOW_STEP: fprintf(o, ",\"ph\":\"t\",\"id\":\"%" PRIu64 "\"", rec->u.event.id); break;
    case FXT_EVENT_FLOW_END:
        fprintf(o, ",\"ph\":\"f\",\"bp\":\"e\",\"id\":\"%" PRIu64 "\"", rec->u.event.id);
        break;
    default: break;
    }
    write_args(o, rec, NULL, rec->u.event.name);
    putc('}', o);
    j->nevents++;
}

static void sys_begin(jctx_t *j) {
    if (!j->first_sys) {
        putc(',', j->sys);
    }
    j->first_sys = 0;
    putc('\n', j->sys);
}

/* A named argument's integer value (scheduling weights). */
static int find_int_arg(const fxt_record_t *rec, const char *name, int64_t *v) {
    size_t n = strlen(name);
    for (unsigned i = 0; i < rec->nargs; i++) {
        const fxt_arg_t *a = &rec->args[i];
        if (a->name.ptr && a->name.len == n && memcmp(a->name.ptr, name, n) == 0) {
            switch (a->type) {
            case FXT_ARG_INT32: *v = a->v.i32; return 1;
            case FXT_ARG_UINT32: *v = a->v.u32; return 1;
            case FXT_ARG_INT64: *v = a->v.i64; return 1;
            case FXT_ARG_UINT64: *v = (int64_t)a->v.u64; return 1;
            default: return 0;
            }
        }
    }
    return 0;
}

static void on_sched(jctx_t *j, fxt_reader_t *r, const fxt_record_t *rec) {
    if (j->sys == NULL) {
        return;
    }
    FILE *o = j->sys;
    uint64_t tps = fxt_reader_ticks_per_second(r);
    int64_t v;
    sys_begin(j);
    if (rec->kind == FXT_KIND_LEGACY_CONTEXT_SWITCH) {
        const fxt_thread_ref_t *out = &rec->u.legacy_context_switch.out, *in = &rec->u.legacy_context_switch.in;
        fputs("{\"ph\":\"k\",\"ts\":", o);
        cli_print_us(o, cli_ticks_to_ns(rec->u.legacy_context_switch.ts, tps));
        fprintf(o, ",\"cpu\":%" PRIu32 ",\"out\":{\"pid\":%" PRIu64 ",\"tid\":%" PRIu64 ",\"state\":%" PRIu32
                   ",\"prio\":%" PRIu32 "},\"in\":{\"pid\":%" PRIu64 ",\"tid\":%" PRIu64 ",\"prio\":%" PRIu32 "}}",
                rec->u.legacy_context_switch.cpu, out->pid, out->tid, rec->u.legacy_context_switch.out_state,
                rec->u.legacy_context_switch.out_prio, in->pid, in->tid, rec->u.legacy_context_switch.in_prio);
    } else if (rec->kind == FXT_KIND_CONTEXT_SWITCH) {
        fputs("{\"ph\":\"k\",\"ts\":", o);
        cli_print_us(o, cli_ticks_to_ns(rec->u.context_switch.ts, tps));
        fprintf(o, ",\"cpu\":%" PRIu32 ",\"out\":{\"tid\":%" PRIu64 ",\"state\":%" PRIu32,
                rec->u.context_switch.cpu, rec->u.context_switch.out_tid, rec->u.context_switch.out_state);
        if (find_int_arg(rec, "outgoing_weight", &v)) {
            fprintf(o, ",\"prio\":%" PRId64, v);
        }
        fprintf(o, "},\"in\":{\"tid\":%" PRIu64, rec->u.context_switch.in_tid);
        if (find_int_arg(rec, "incoming_weight", &v)) {
            fprintf(o, ",\"prio\":%" PRId64, v);
        }
        fputs("}}", o);
    } else {
        fputs("{\"ph\":\"w\",\"ts\":", o);
        cli_print_us(o, cli_ticks_to_ns(rec->u.thread_wakeup.ts, tps));
        fprintf(o, ",\"cpu\":%" PRIu32 ",\"tid\":%" PRIu64, rec->u.thread_wakeup.cpu, rec->u.thread_wakeup.tid);
        if (find_int_arg(rec, "weight", &v)) {
            fprintf(o, ",\"prio\":%" PRId64, v);
        }
        putc('}', o);
    }
    j->nsys++;
}

static void on_kernel_object(jctx_t *j, const fxt_record_t *rec) {
    FILE *o = j->out;
    const fxt_str_t *name = &rec->u.kernel_object.name;
    if (name->ptr == NULL || name->len == 0) {
        return;
    }
    if (rec->u.kernel_object.obj_type == FXT_OBJ_PROCESS) {
        begin_event(j);
        fprintf(o, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%" PRIu64 ",\"tid\":0,\"args\":{\"name\":",
                rec->u.kernel_object.koid);
        jstr(o, *name);
        fputs("}}", o);
        j->nmeta++;
    } else if (rec->u.kernel_object.obj_type == FXT_OBJ_THREAD) {
        for (unsigned i = 0; i < rec->nargs; i++) {
            const fxt_arg_t *a = &rec->args[i];
            if ((a->type == FXT_ARG_KOID || a->type == FXT_ARG_UINT64) && a->name.ptr && a->name.len == 7 &&
                memcmp(a->name.ptr, "process", 7) == 0) {
                begin_event(j);
                fprintf(o, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%" PRIu64 ",\"tid\":%" PRIu64
                           ",\"args\":{\"name\":",
                        a->v.koid, rec->u.kernel_object.koid);
                jstr(o, *name);
                fputs("}}", o);
                j->nmeta++;
                break;
            }
        }
    }
}

static int on_record(void *ctx, fxt_reader_t *r, const fxt_record_t *rec) {
    jctx_t *j = ctx;
    switch (rec->kind) {
    case FXT_KIND_EVENT:
        on_event(j, r, rec);
        break;
    case FXT_KIND_LOG: {
        uint64_t ns = cli_ticks_to_ns(rec->u.log.ts, fxt_reader_ticks_per_second(r));
        fxt_str_t logname = {"log", 3, 0};
        if (!time_selected(j, ns) || j->ncats > 0 || !match_any(j, j->names, j->nnames, logname)) {
            break;
        }
        event_head(j, logname, logname, ns, &rec->u.log.thread, 0);
        fputs(",\"ph\":\"i\",\"s\":\"g\"", j->out);
        write_args(j->out, rec, "message", rec->u.log.message);
        putc('}', j->out);
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
        if (rec->u.large_blob.format == FXT_LARGE_BLOB_WITH_METADATA && rec->u.large_blob.category.ptr &&
            rec->u.large_blob.category.len == 9 && memcmp(rec->u.large_blob.category.ptr, "fidl:blob", 9) == 0) {
            uint64_t ns = cli_ticks_to_ns(rec->u.large_blob.ts, fxt_reader_ticks_per_second(r));
            if (!time_selected(j, ns)) {
                break;
            }
            event_head(j, rec->u.large_blob.category, rec->u.large_blob.name, ns, &rec->u.large_blob.thread, 1);
            fputs(",\"ph\":\"O\",\"id\":\"\",\"blob\":", j->out);
            write_b64(j->out, rec->u.large_blob.payload, rec->u.large_blob.size);
            putc('}', j->out);
            j->nevents++;
        } else {
            j->skipped++;
        }
        break;
    case FXT_KIND_PROVIDER_EVENT:
        if (rec->u.provider_event.event == FXT_PROVIDER_EVENT_BUFFER_FULL) {
            j->overflows++;
            fprintf(stderr, "fxt json: provider %" PRIu32 " reported a full buffer at offset %" PRIu64
                            ": records were likely dropped\n",
                    rec->u.provider_event.id, rec->offset);
        }
        break;
    case FXT_KIND_UNKNOWN:
        j->skipped++;
        break;
    default:
        break;
    }
    return ferror(j->out) ? 1 : 0;
}

static void on_error(void *ctx, fxt_reader_t *r, const fxt_diag_t *d) {
    jctx_t *j = ctx;
    (void)r;
    j->errors++;
    if (j->errors <= 20) {
        fprintf(stderr, "fxt json: offset %" PRIu64 ": %s\n", d->offset, d->msg);
    }
}

static int parse_ns(const char *s, uint64_t *out) {
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s) {
        return -1;
    }
    uint64_t mul = 1;
    if (strcmp(end, "ns") == 0 || *end == '\0') {
        mul = 1;
    } else if (strcmp(end, "us") == 0) {
        mul = 1000;
    } else if (strcmp(end, "ms") == 0) {
        mul = 1000000;
    } else if (strcmp(end, "s") == 0) {
        mul = 1000000000;
    } else {
        return -1;
    }
    *out = (uint64_t)v * mul;
    return 0;
}

static const char json_help[] =
    "usage: fxt json [options] [IN] [-o OUT]\n"
    "\n"
    "Convert an FXT trace to Chrome Trace Event Format JSON, which loads in\n"
    "Perfetto UI (ui.perfetto.dev) and chrome://tracing. One streaming pass,\n"
    "constant memory; IN and OUT may be '-' (stdin / stdout, the defaults).\n"
    "\n"
    "  -o, --output FILE      write JSON to FILE\n"
    "  --category PATTERN     keep events whose category matches (glob; repeatable)\n"
    "  --name PATTERN         keep events whose name matches (glob; repeatable)\n"
    "  --time-range FROM:TO   keep events in [FROM, TO], nanoseconds relative to the first\n"
    "                         event (suffixes ns, us, ms, s; either side may be empty)\n"
    "  --absolute             --time-range is in absolute trace time (ns)\n"
    "  --no-system-events     drop scheduling records (systemTraceEvents)\n"
    "\n"
    "Timestamps are exact: ticks are converted to nanoseconds with integer\n"
    "arithmetic using each provider's own tick rate and printed as decimal\n"
    "microseconds. Ids are strings. Process and thread names from kernel object\n"
    "records become 'M' metadata events. See docs/json.md for the full mapping.\n"
    "\n"
    "exit status: 0 ok, 1 the trace had damaged records (the JSON is still\n"
    "complete and valid), 2 usage error, 3 I/O error, 4 out of memory\n";

static int run(int argc, char **argv) {
    static jctx_t j;
    memset(&j, 0, sizeof j);
    const char *in = NULL, *outpath = NULL;
    int no_sys = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--no-system-events") == 0) {
            no_sys = 1;
        } else if (strcmp(a, "--absolute") == 0) {
            j.absolute = 1;
        } else if ((strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) && v) {
            outpath = v;
            i++;
        } else if (strcmp(a, "--category") == 0 && v && j.ncats < MAX_FILTERS) {
            j.cats[j.ncats++] = v;
            i++;
        } else if (strcmp(a, "--name") == 0 && v && j.nnames < MAX_FILTERS) {
            j.names[j.nnames++] = v;
            i++;
        } else if (strcmp(a, "--time-range") == 0 && v) {
            const char *colon = strchr(v, ':');
            if (colon == NULL) {
                fprintf(stderr, "fxt json: --time-range wants FROM:TO\n");
                return CLI_EXIT_USAGE;
            }
            char from[64] = {0};
            snprintf(from, sizeof from, "%.*s", (int)(colon - v), v);
            if (from[0] && parse_ns(from, &j.from_ns) != 0) {
                fprintf(stderr, "fxt json: bad time '%s'\n", from);
                return CLI_EXIT_USAGE;
            }
            if (colon[1] && parse_ns(colon + 1, &j.to_ns) != 0) {
                fprintf(stderr, "fxt json: bad time '%s'\n", colon + 1);
                return CLI_EXIT_USAGE;
            }
            j.has_from = from[0] != '\0';
            j.has_to = colon[1] != '\0';
            i++;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "fxt json: unknown option or missing value: '%s'\n", a);
            return CLI_EXIT_USAGE;
        } else if (in == NULL) {
            in = a;
        } else {
            fprintf(stderr, "fxt json: more than one input\n");
            return CLI_EXIT_USAGE;
        }
    }
    j.scratch = malloc(FXT_MAX_INLINE_STRING_LEN + 2);
    if (j.scratch == NULL) {
        return CLI_EXIT_LIMIT;
    }
    j.out = stdout;
    if (outpath != NULL && strcmp(outpath, "-") != 0) {
        j.out = fopen(outpath, "w");
        if (j.out == NULL) {
            perror(outpath);
            free(j.scratch);
            return CLI_EXIT_IO;
        }
    }
    static char obuf[1 << 16];
    setvbuf(j.out, obuf, _IOFBF, sizeof obuf);
    if (!no_sys) {
        j.sys = tmpfile();
        if (j.sys == NULL) {
            fprintf(stderr, "fxt json: cannot create a temporary file for system events; use --no-system-events\n");
            free(j.scratch);
            return CLI_EXIT_IO;
        }
    }
    j.first_sys = 1;
    fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", j.out);
    uint64_t bytes = 0;
    int rc = cli_read_trace("json", in, NULL, on_record, on_error, &j, &bytes);
    fputs("\n]", j.out);
    if (j.sys != NULL) {
        fputs(",\"systemTraceEvents\":{\"type\":\"fuchsia\",\"events\":[", j.out);
        rewind(j.sys);
        char buf[1 << 15];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, j.sys)) > 0) {
            fwrite(buf, 1, n, j.out);
        }
        fputs("\n]}", j.out);
        fclose(j.sys);
    }
    fputs("}\n", j.out);
    int werr = fflush(j.out) != 0 || ferror(j.out);
    if (j.out != stdout) {
        werr |= fclose(j.out) != 0;
    }
    free(j.scratch);
    if (werr) {
        fprintf(stderr, "fxt json: error writing output\n");
        return CLI_EXIT_IO;
    }
    fprintf(stderr, "fxt json: %" PRIu64 " events, %" PRIu64 " metadata events, %" PRIu64
                    " system events from %" PRIu64 " bytes",
            j.nevents, j.nmeta, j.nsys, bytes);
    if (j.skipped) {
        fprintf(stderr, "; %" PRIu64 " records without a JSON form skipped", j.skipped);
    }
    if (j.overflows) {
        fprintf(stderr, "; %" PRIu64 " buffer-overflow reports", j.overflows);
    }
    if (j.errors) {
        fprintf(stderr, "; %" PRIu64 " damaged records", j.errors);
    }
    fputc('\n', stderr);
    if (rc != 0) {
        return rc;
    }
    return j.errors ? CLI_EXIT_DATA : CLI_EXIT_OK;
}

const cli_command_t cli_cmd_json = {"json", run, "convert to Chrome/Perfetto JSON", json_help};
