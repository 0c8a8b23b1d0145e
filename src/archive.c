/* SPDX-License-Identifier: MIT */
/*
 * Archive layer: re-encoding decoded records, and the merger that acts as
 * the spec's trace manager (each input in its own provider section, provider
 * ids remapped on collision, per-section initialization records kept).
 */
#include <fxt/archive.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "writer_internal.h" /* the encoding core, fxt__writer_swapped() */

/* ---- re-encoding ---------------------------------------------------------------------- */

__extension__ typedef __int128 i128;

/* A timestamp moved by BY ticks, exact in 128 bits and saturated at 0 and 2^64-1: a shift
 * cannot wrap a timestamp around, whatever the input's tick rate (a --offset converted to
 * the ticks of an input faster than 18.4 GHz does not fit 64 signed bits). */
static uint64_t shift(uint64_t ts, i128 by) {
    i128 t = (i128)ts + by;
    return t < 0 ? 0 : t > (i128)UINT64_MAX ? UINT64_MAX : (uint64_t)t;
}

static fxt_status write_record_shifted(fxt_writer_t *w, const fxt_record_t *rec, i128 by);

fxt_status fxt_write_record(fxt_writer_t *w, const fxt_record_t *rec, int64_t by) {
    return write_record_shifted(w, rec, by);
}

/* A decoded string as writer input: inline stays inline, unresolved becomes "". */
static fxt_str_t restr(fxt_str_t s) {
    fxt_str_t o;
    o.ptr = s.ptr;
    o.len = s.ptr ? s.len : 0;
    o.ref = fxt_strref_is_inline(s.ref) ? FXT_STRREF_INLINE_FLAG : 0;
    o.unresolved = 0;
    return o;
}

/* A decoded thread, for the interning writer: registered threads are interned again, others inline. */
static fxt_thread_ref_t rethread(const fxt_thread_ref_t *t) {
    return t->ref == FXT_THREADREF_INLINE || !t->resolved ? fxt_thread_inline(t->pid, t->tid)
                                                          : fxt_thread(t->pid, t->tid);
}

/* The record's known-type arguments as writer arguments; returns how many. */
static unsigned reargs(const fxt_record_t *rec, fxt_arg_t *out) {
    unsigned n = 0;
    for (unsigned i = 0; i < rec->nargs; i++) {
        const fxt_arg_t *a = &rec->args[i];
        if (a->type >= FXT_ARG_TYPE_COUNT) {
            continue; /* unknown argument types cannot be re-encoded */
        }
        fxt_arg_t *w = &out[n++];
        *w = *a;
        w->name = restr(a->name);
        w->str = a->type == FXT_ARG_STRING ? restr(a->str) : fxt_str_n(NULL, 0);
    }
    return n;
}

/* Re-encodes a decoded record through the writer API, so strings and threads are interned
 * again in the output and timestamps can be shifted; BY is in the record's own ticks. */
static fxt_status write_record_shifted(fxt_writer_t *w, const fxt_record_t *rec, i128 by) {
    if (w == NULL || rec == NULL) {
        return FXT_E_INVALID_ARG;
    }
    fxt_arg_t args[FXT_MAX_ARGS];
    unsigned n;
    switch (rec->kind) {
    /* Framing and table records are the writer's job: it emits its own magic, provider context
     * and string/thread records as the re-encoded records need them. */
    case FXT_KIND_MAGIC:
    case FXT_KIND_PROVIDER_INFO:
    case FXT_KIND_PROVIDER_SECTION:
    case FXT_KIND_PROVIDER_EVENT:
    case FXT_KIND_STRING:
    case FXT_KIND_THREAD:
        return FXT_OK;
    case FXT_KIND_TRACE_INFO:
        return fxt_write_trace_info(w, rec->u.trace_info.info_type,
                                    fxt_get_meta_trace_info_data(rec->header));
    case FXT_KIND_INIT:
        /* The writer refuses 0 ticks per second; 1 keeps the record in place instead of failing it. */
        return fxt_write_init(w, rec->u.init.ticks_per_second ? rec->u.init.ticks_per_second : 1);
    case FXT_KIND_EVENT: {
        uint64_t extra[8];
        fxt_event_desc_t ev;
        n = reargs(rec, args);
        ev.type = rec->u.event.type;
        ev.ts = shift(rec->u.event.ts, by);
        ev.thread = rethread(&rec->u.event.thread);
        ev.category = restr(rec->u.event.category);
        ev.name = restr(rec->u.event.name);
        ev.id = rec->u.event.id;
        ev.end_ts = shift(rec->u.event.end_ts, by);
        ev.args = args;
        ev.nargs = n;
        /* Extra words (e.g. Fuchsia's scope word after an instant's arguments) are carried over;
         * 8 bounds the local copy, the known extensions use one. */
        ev.nextra = rec->u.event.extra_words < 8 ? rec->u.event.extra_words : 8;
        for (unsigned i = 0; i < ev.nextra; i++) {
            extra[i] = fxt_record_word(rec, rec->u.event.extra, i);
        }
        ev.extra = extra;
        return fxt_write_event(w, &ev);
    }
    case FXT_KIND_BLOB:
        return fxt_write_blob(w, restr(rec->u.blob.name), rec->u.blob.blob_type, rec->u.blob.payload,
                              rec->u.blob.size);
    case FXT_KIND_USERSPACE_OBJECT:
        n = reargs(rec, args);
        return fxt_write_userspace_object(w, rec->u.userspace_object.ptr, rec->u.userspace_object.process.pid,
                                          restr(rec->u.userspace_object.name), args, n);
    case FXT_KIND_KERNEL_OBJECT:
        n = reargs(rec, args);
        return fxt_write_kernel_object(w, rec->u.kernel_object.koid, rec->u.kernel_object.obj_type,
                                       restr(rec->u.kernel_object.name), args, n);
    case FXT_KIND_CONTEXT_SWITCH:
        n = reargs(rec, args);
        return fxt_write_context_switch(w, shift(rec->u.context_switch.ts, by), rec->u.context_switch.cpu,
                                        rec->u.context_switch.out_state, rec->u.context_switch.out_tid,
                                        rec->u.context_switch.in_tid, args, n);
    case FXT_KIND_THREAD_WAKEUP:
        n = reargs(rec, args);
        return fxt_write_thread_wakeup(w, shift(rec->u.thread_wakeup.ts, by), rec->u.thread_wakeup.cpu,
                                       rec->u.thread_wakeup.tid, args, n);
    case FXT_KIND_LEGACY_CONTEXT_SWITCH:
        return fxt_write_legacy_context_switch(
            w, shift(rec->u.legacy_context_switch.ts, by), rec->u.legacy_context_switch.cpu,
            rec->u.legacy_context_switch.out_state, rethread(&rec->u.legacy_context_switch.out),
            rethread(&rec->u.legacy_context_switch.in), rec->u.legacy_context_switch.out_prio,
            rec->u.legacy_context_switch.in_prio);
    case FXT_KIND_LOG:
        return fxt_write_log(w, shift(rec->u.log.ts, by), rethread(&rec->u.log.thread),
                             restr(rec->u.log.message));
    case FXT_KIND_LARGE_BLOB: {
        fxt_large_blob_desc_t b;
        n = reargs(rec, args);
        b.format = rec->u.large_blob.format;
        b.category = restr(rec->u.large_blob.category);
        b.name = restr(rec->u.large_blob.name);
        b.ts = shift(rec->u.large_blob.ts, by);
        b.thread = rethread(&rec->u.large_blob.thread);
        b.args = args;
        b.nargs = n;
        b.data = rec->u.large_blob.payload;
        b.size = rec->u.large_blob.size;
        return fxt_write_large_blob(w, &b);
    }
    case FXT_KIND_UNKNOWN:
        /* An unknown layout cannot be byte-swapped word by word safely (its strings are bytes):
         * refused, not guessed (docs/archive.md). */
        if (rec->swapped != fxt__writer_swapped(w)) {
            return FXT_E_UNSUPPORTED;
        }
        return fxt_write_raw(w, rec->bytes, (size_t)rec->size);
    }
    return FXT_E_INVALID_ARG; /* not a record kind */
}

/* ---- merger ------------------------------------------------------------------------------ */

typedef struct idmap {
    uint32_t in, out;
} idmap_t;

struct fxt_merger {
    fxt_writer_t *w;
    fxt_reader_t *r;
    fxt_status status;
    /* output provider ids in use (a sorted-free dynamic array: provider counts are small) */
    uint32_t *used;
    size_t nused, capused;
    uint32_t next_free;
    /* current input */
    int active;
    char name[256];
    int64_t offset_ns;
    int raw;         /* copy records verbatim (same byte order, no clock shift) */
    int in_provider; /* a provider context is open in the output for this input */
    uint32_t cur_out;
    idmap_t *map;
    size_t nmap, capmap;
    fxt_merger_stats_t stats;
    fxt_diag_t diag;
};

/* Linear search: provider counts are small (see the used field). */
static int id_used(const fxt_merger_t *m, uint32_t id) {
    for (size_t i = 0; i < m->nused; i++) {
        if (m->used[i] == id) {
            return 1;
        }
    }
    return 0;
}

/* Marks an output provider id as taken for the rest of the archive. */
static fxt_status use_id(fxt_merger_t *m, uint32_t id) {
    if (m->nused == m->capused) {
        size_t nc = m->capused ? m->capused * 2 : 16;
        uint32_t *nu = realloc(m->used, nc * sizeof *nu);
        if (nu == NULL) {
            return FXT_E_NOMEM;
        }
        m->used = nu;
        m->capused = nc;
    }
    m->used[m->nused++] = id;
    m->stats.providers++;
    return FXT_OK;
}

/* Output id for an input provider id (0 with `implicit` = the input's own context).
 * Input ids are kept when free, else remapped to the next free id (docs/archive.md); the map
 * is per input (reset by begin), while used ids span the whole output. */
static fxt_status map_id(fxt_merger_t *m, uint32_t in, int implicit, uint32_t *out, int *fresh) {
    if (!implicit) {
        for (size_t i = 0; i < m->nmap; i++) {
            if (m->map[i].in == in) {
                *out = m->map[i].out;
                *fresh = 0;
                return FXT_OK;
            }
        }
    }
    uint32_t id = implicit ? m->next_free : in;
    if (id == 0 || id_used(m, id)) {
        if (!implicit) {
            m->stats.remapped++;
        }
        while (m->next_free == 0 || id_used(m, m->next_free)) {
            m->next_free++;
        }
        id = m->next_free;
    }
    fxt_status st = use_id(m, id);
    if (st != FXT_OK) {
        return st;
    }
    if (!implicit) {
        if (m->nmap == m->capmap) {
            size_t nc = m->capmap ? m->capmap * 2 : 8;
            idmap_t *nm = realloc(m->map, nc * sizeof *nm);
            if (nm == NULL) {
                return FXT_E_NOMEM;
            }
            m->map = nm;
            m->capmap = nc;
        }
        m->map[m->nmap].in = in;
        m->map[m->nmap].out = id;
        m->nmap++;
    }
    *out = id;
    *fresh = 1;
    return FXT_OK;
}

fxt_status fxt_merger_create(fxt_writer_t *w, fxt_merger_t **out) {
    if (w == NULL || out == NULL) {
        return FXT_E_INVALID_ARG;
    }
    fxt_merger_t *m = calloc(1, sizeof *m);
    if (m == NULL) {
        return FXT_E_NOMEM;
    }
    fxt_status st = fxt_reader_create(NULL, &m->r);
    if (st != FXT_OK) {
        free(m);
        return st;
    }
    m->w = w;
    m->next_free = 1;
    /* One magic record for the whole archive: inputs' own magic records are dropped. */
    st = fxt_write_magic(w);
    if (st != FXT_OK) {
        fxt_reader_destroy(m->r);
        free(m);
        return st;
    }
    *out = m;
    return FXT_OK;
}

/* Starts an input: a fresh reader state and id map, as inputs share no strings or threads. */
fxt_status fxt_merger_begin_input(fxt_merger_t *m, const fxt_merger_input_t *in) {
    if (m == NULL || m->active) {
        return FXT_E_STATE;
    }
    fxt_merger_input_t opt = FXT_MERGER_INPUT_INIT;
    if (fxt__options_read(&opt, sizeof opt, in) != FXT_OK) {
        return FXT_E_INVALID_ARG;
    }
    fxt_reader_reset(m->r);
    m->active = 1;
    m->in_provider = 0;
    m->nmap = 0;
    m->offset_ns = opt.offset_ns;
    snprintf(m->name, sizeof m->name, "%s", opt.name ? opt.name : "trace");
    m->raw = -1; /* decided on the first record, once the input's byte order is known */
    m->stats.inputs++;
    return FXT_OK;
}

/*
 * A provider section record for verbatim copies, without the writer's table
 * reset (fxt_write_provider_section clears its interning tables, which costs
 * more than copying a whole section of a busy trace). Safe: verbatim copies
 * never use those tables, and a re-encoded input always starts with a provider
 * record written through the writer API, which resets them.
 */
static fxt_status raw_section(fxt_merger_t *m, uint32_t id) {
    /* raw mode: the section header as the output's bytes (the writer's byte order) */
    unsigned char b[8];
    fxt__put_word(b, fxt__hdr_provider_section(id), fxt__writer_swapped(m->w));
    return fxt_write_raw(m->w, b, sizeof b);
}

/* Records outside any provider section get a provider of their own, named after the input. */
static fxt_status open_implicit(fxt_merger_t *m) {
    uint32_t id;
    int fresh;
    fxt_status st = map_id(m, 0, 1, &id, &fresh);
    if (st != FXT_OK) {
        return st;
    }
    size_t len = strlen(m->name);
    st = fxt_write_provider_info(
        m->w, id, fxt_str_n(m->name, len > FXT_MAX_PROVIDER_NAME_LEN ? FXT_MAX_PROVIDER_NAME_LEN : len));
    m->in_provider = 1;
    m->cur_out = id;
    return st;
}

/* One record of the current input into the output: provider records are remapped, the rest
 * copied verbatim (raw) or re-encoded (other byte order, clock shift). */
static fxt_status merge_record(fxt_merger_t *m, const fxt_record_t *rec) {
    fxt_status st;
    uint32_t id;
    int fresh;
    if (m->raw < 0) {
        /* Verbatim copy is only possible with the output's byte order and no clock shift. */
        m->raw = rec->swapped == fxt__writer_swapped(m->w) && m->offset_ns == 0;
    }
    switch (rec->kind) {
    case FXT_KIND_MAGIC:
        return FXT_OK;
    case FXT_KIND_PROVIDER_INFO: {
        st = map_id(m, rec->u.provider_info.id, 0, &id, &fresh);
        if (st != FXT_OK) {
            return st;
        }
        const fxt_str_t *n = &rec->u.provider_info.name;
        m->in_provider = 1;
        m->cur_out = id;
        return fxt_write_provider_info(m->w, id, fxt_str_n(n->ptr, n->len));
    }
    case FXT_KIND_PROVIDER_SECTION:
        st = map_id(m, rec->u.provider_section.id, 0, &id, &fresh);
        if (st != FXT_OK) {
            return st;
        }
        m->in_provider = 1;
        m->cur_out = id;
        if (fresh) {
            /* a section of a provider this input never described: name it after the input */
            size_t len = strlen(m->name);
            return fxt_write_provider_info(
                m->w, id,
                fxt_str_n(m->name, len > FXT_MAX_PROVIDER_NAME_LEN ? FXT_MAX_PROVIDER_NAME_LEN : len));
        }
        return m->raw ? raw_section(m, id) : fxt_write_provider_section(m->w, id);
    case FXT_KIND_PROVIDER_EVENT:
        /* A provider event must sit inside a provider context of this input, like any record. */
        if (!m->in_provider && (st = open_implicit(m)) != FXT_OK) {
            return st;
        }
        st = map_id(m, rec->u.provider_event.id, 0, &id, &fresh);
        if (st != FXT_OK) {
            return st;
        }
        return fxt_write_provider_event(m->w, id, rec->u.provider_event.event);
    case FXT_KIND_TRACE_INFO:
    case FXT_KIND_INIT:
    case FXT_KIND_STRING:
    case FXT_KIND_THREAD:
    case FXT_KIND_EVENT:
    case FXT_KIND_BLOB:
    case FXT_KIND_USERSPACE_OBJECT:
    case FXT_KIND_KERNEL_OBJECT:
    case FXT_KIND_CONTEXT_SWITCH:
    case FXT_KIND_THREAD_WAKEUP:
    case FXT_KIND_LEGACY_CONTEXT_SWITCH:
    case FXT_KIND_LOG:
    case FXT_KIND_LARGE_BLOB:
    case FXT_KIND_UNKNOWN:
        break;
    }
    if (!m->in_provider && (st = open_implicit(m)) != FXT_OK) {
        return st;
    }
    m->stats.records++;
    /* Verbatim: string and thread records are copied too, so indexed refs stay valid. */
    if (m->raw) {
        return fxt_write_raw(m->w, rec->bytes, (size_t)rec->size);
    }
    i128 by = 0;
    if (m->offset_ns != 0) {
        uint64_t tps = fxt_reader_ticks_per_second(m->r);
        /* The offset in ns converted to this provider's ticks (per-provider rate), in 128 bits
         * (|offset| < 2^63, tps < 2^64: the product fits); not cut to 64 bits. */
        by = (i128)m->offset_ns * (i128)tps / 1000000000;
    }
    return write_record_shifted(m->w, rec, by);
}

/* A chunk of the current input; damaged and refused records are counted and skipped, only
 * writer failures stop the merge. */
fxt_status fxt_merger_feed(fxt_merger_t *m, const void *data, size_t len) {
    if (m == NULL || !m->active) {
        return FXT_E_STATE;
    }
    if (m->status != FXT_OK) {
        return m->status;
    }
    fxt_in_buffer_t in = {data, len, 0};
    fxt_record_t rec;
    for (;;) {
        fxt_status st = fxt_reader_next(m->r, &in, &rec);
        if (st == FXT_NEED_INPUT || st == FXT_END) {
            return FXT_OK;
        }
        /* Damaged records are skipped and counted: the rest of the input is still merged. */
        if (st < 0) {
            m->stats.damaged++;
            m->diag = *fxt_reader_diag(m->r);
            continue;
        }
        st = merge_record(m, &rec);
        if (st != FXT_OK && st != FXT_E_NOMEM && fxt_writer_status(m->w) == FXT_OK) {
            /* The writer refused this one record (e.g. an unknown record of the other byte
             * order, which cannot be swapped blindly); its refusals are not sticky, so drop
             * the record, say so, and go on with the rest of the input. */
            m->stats.refused++;
            m->diag.status = st;
            m->diag.offset = rec.offset;
            m->diag.header = rec.header;
            m->diag.record_type = rec.type;
            snprintf(m->diag.msg, sizeof m->diag.msg, "record cannot be re-encoded: %s", fxt_status_str(st));
            continue;
        }
        /* Writer failures (sink, memory) are sticky: the merger stops and reports them from now on. */
        if (st != FXT_OK) {
            return m->status = st;
        }
    }
}

/* Ends an input; FXT_E_TRUNCATED when it stopped inside a record (what came before is kept). */
fxt_status fxt_merger_end_input(fxt_merger_t *m) {
    if (m == NULL || !m->active) {
        return FXT_E_STATE;
    }
    m->active = 0;
    fxt_status st = fxt_reader_finish(m->r);
    if (st != FXT_OK) {
        m->stats.damaged++;
        m->diag = *fxt_reader_diag(m->r);
    }
    return m->status != FXT_OK ? m->status : st;
}

/* ---- raw provider buffers (the trace manager's view) ----------------------------------- */

/* A provider for raw buffers: a fresh output id, never one of the inputs' ids. */
fxt_status fxt_merger_add_provider(fxt_merger_t *m, const char *name, uint32_t *id) {
    if (m == NULL || id == NULL) {
        return FXT_E_INVALID_ARG;
    }
    if (m->active) {
        return FXT_E_STATE;
    }
    if (m->status != FXT_OK) {
        return m->status;
    }
    uint32_t out;
    int fresh;
    fxt_status st = map_id(m, 0, 1, &out, &fresh);
    if (st != FXT_OK) {
        return m->status = st;
    }
    const char *n = name ? name : "provider";
    size_t len = strlen(n);
    st = fxt_write_provider_info(
        m->w, out, fxt_str_n(n, len > FXT_MAX_PROVIDER_NAME_LEN ? FXT_MAX_PROVIDER_NAME_LEN : len));
    if (st != FXT_OK) {
        return m->status = st;
    }
    m->cur_out = out;
    *id = out;
    return FXT_OK;
}

/* Appends a raw provider buffer (records only, no metadata of its own) to provider ID. */
fxt_status fxt_merger_add_buffer(fxt_merger_t *m, uint32_t id, const void *data, size_t len) {
    if (m == NULL || (data == NULL && len != 0) || id == 0) {
        return FXT_E_INVALID_ARG;
    }
    if (m->active || !id_used(m, id)) {
        return FXT_E_STATE;
    }
    if (m->status != FXT_OK) {
        return m->status;
    }
    /* Buffers are in host byte order and copied verbatim: a swapped output would need re-encoding. */
    if (fxt__writer_swapped(m->w)) {
        return FXT_E_UNSUPPORTED;
    }
    const unsigned char *p = data;
    size_t pos = 0;
    fxt_status st;
    while (len - pos >= 8) {
        uint64_t h = fxt_load64(p + pos);
        uint64_t type = fxt_get_rec_type(h);
        uint64_t words = type == FXT_RECORD_LARGE ? fxt_get_large_size(h) : fxt_get_rec_size(h);
        /* A size-0 record or one cut by the buffer's end: keep what came before (trace manager). */
        if (words == 0 || words > (len - pos) / 8) {
            break;
        }
        size_t size = (size_t)words * 8;
        /* Metadata inside a provider's buffer is garbage per the spec: skipped (docs/archive.md). */
        if (type != FXT_RECORD_METADATA) {
            /* A provider section record only when switching providers: consecutive buffers share one. */
            if (m->cur_out != id) {
                if ((st = raw_section(m, id)) != FXT_OK) {
                    return m->status = st;
                }
                m->cur_out = id;
            }
            if ((st = fxt_write_raw(m->w, p + pos, size)) != FXT_OK) {
                return m->status = st;
            }
            m->stats.records++;
        }
        pos += size;
    }
    if (pos != len) {
        m->stats.damaged++;
        memset(&m->diag, 0, sizeof m->diag);
        m->diag.status = FXT_E_TRUNCATED;
        m->diag.offset = pos;
        snprintf(m->diag.msg, sizeof m->diag.msg, "provider %u buffer ends inside a record at byte %zu",
                 (unsigned)id, pos);
        return FXT_E_TRUNCATED;
    }
    return FXT_OK;
}

fxt_status fxt_merger_finish(fxt_merger_t *m) {
    if (m == NULL) {
        return FXT_E_INVALID_ARG;
    }
    fxt_status st = fxt_writer_flush(m->w);
    return m->status != FXT_OK ? m->status : st;
}

void fxt_merger_destroy(fxt_merger_t *m) {
    if (m == NULL) {
        return;
    }
    fxt_reader_destroy(m->r);
    free(m->used);
    free(m->map);
    free(m);
}

void fxt_merger_get_stats(const fxt_merger_t *m, fxt_merger_stats_t *out) {
    if (m && out) {
        *out = m->stats;
    }
}

const fxt_diag_t *fxt_merger_diag(const fxt_merger_t *m) { return m ? &m->diag : NULL; }
