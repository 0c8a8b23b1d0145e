/* SPDX-License-Identifier: MIT */
/*
 * libfxt writer: encodes every FXT record type into a sink, interning strings
 * and threads into the trace's string and thread tables.
 *
 *     fxt_membuf_t mem = {0};
 *     fxt_writer_t *w;
 *     fxt_writer_create(NULL, fxt_sink_membuf(&mem), &w);
 *     fxt_write_magic(w);
 *     fxt_write_init(w, 1000000000);
 *     fxt_thread_ref_t t = fxt_thread(1234, 1235);
 *     fxt_arg_t args[] = { fxt_arg_int32(fxt_cstr("n"), 42) };
 *     fxt_write_instant(w, 100, t, fxt_cstr("cat"), fxt_cstr("hello"), args, 1);
 *     fxt_status st = fxt_writer_finish(w);   // flushes; the first error, if any
 *     fxt_writer_destroy(w);
 *     // mem.data[0..mem.len) is the trace; fxt_membuf_free(&mem);
 *
 * Strings are fxt_str_t views (pointer + length, no NUL needed). By default a
 * string is interned: the first use emits a string record and later uses are
 * 2-byte references. `fxt_str_inline()` (ref bit 0x8000 set) writes it inline
 * instead. A view with ptr NULL and len 0 is the empty string.
 *
 * Two kinds of failure:
 * - Output failures (the sink failed: FXT_E_IO, FXT_E_BUFFER_FULL; or
 *   FXT_E_NOMEM) are sticky: the first one is kept, later writes do nothing
 *   and return it, and fxt_writer_finish() returns it.
 * - Validation failures (FXT_E_TOO_MANY_ARGS, FXT_E_RECORD_TOO_LARGE,
 *   FXT_E_STRING_TOO_LONG, FXT_E_BAD_INDEX, FXT_E_BAD_ARG, FXT_E_INVALID_ARG)
 *   are returned by the call that caused them, nothing of that record is
 *   written (checked before interning emits anything), and the writer stays
 *   usable (its status stays FXT_OK).
 * Strings over 32000 bytes are not an error: they are truncated at a UTF-8
 * boundary and counted (fxt_writer_truncations(), fxt_writer_last_truncated()).
 *
 * Thread safety: a writer is used by one thread at a time.
 */
#ifndef FXT_WRITER_H
#define FXT_WRITER_H

#include <fxt/common.h>
#include <fxt/format.h>

#include <stdio.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- sinks ------------------------------------------------------------------ */

/*
 * Where bytes go. `write` must consume all `len` bytes or fail; the writer
 * calls it with large blocks (its internal buffer), never per record.
 */
typedef struct fxt_sink {
    fxt_status (*write)(void *ctx, const void *data, size_t len);
    void *ctx;
} fxt_sink_t;

/* A caller's fixed buffer: FXT_E_BUFFER_FULL once it cannot take a block. */
typedef struct fxt_fixedbuf {
    uint8_t *data;
    size_t cap;
    size_t len;
} fxt_fixedbuf_t;
FXT_API fxt_sink_t fxt_sink_fixed(fxt_fixedbuf_t *fb);

/* A growable memory buffer (malloc); free with fxt_membuf_free(). The trace is data[0..len). */
typedef struct fxt_membuf {
    uint8_t *data;
    size_t len;
    size_t cap;
} fxt_membuf_t;
/*
 * The same with a cap: a write that would take `mem.len` over `max` bytes
 * fails with FXT_E_BUFFER_FULL (max 0 = no cap). Free with fxt_membuf_free(&cb->mem).
 */
typedef struct fxt_capped_membuf {
    fxt_membuf_t mem;
    size_t max;
} fxt_capped_membuf_t;
FXT_API fxt_sink_t fxt_sink_membuf_capped(fxt_capped_membuf_t *cb);
FXT_API fxt_sink_t fxt_sink_membuf(fxt_membuf_t *mb);
FXT_API void fxt_membuf_free(fxt_membuf_t *mb);

/* A file descriptor (write(2), retried on EINTR and short writes) or a FILE*. */
FXT_API fxt_sink_t fxt_sink_fd(int *fd);
FXT_API fxt_sink_t fxt_sink_file(FILE *f);

/* ---- values --------------------------------------------------------------------- */

/** A NUL-terminated string, interned. */
static inline fxt_str_t fxt_cstr(const char *s) {
    fxt_str_t v;
    v.ptr = s;
    v.len = s ? (uint32_t)strlen(s) : 0u;
    v.ref = 0;
    v.unresolved = 0;
    return v;
}
/** A string of `len` bytes, interned. */
static inline fxt_str_t fxt_str_n(const char *s, size_t len) {
    fxt_str_t v;
    v.ptr = s;
    v.len = (uint32_t)len;
    v.ref = 0;
    v.unresolved = 0;
    return v;
}
/** Opt out of interning: the string is written inline in the record. */
static inline fxt_str_t fxt_str_inline(fxt_str_t s) {
    s.ref = FXT_STRREF_INLINE_FLAG;
    return s;
}

/*
 * Threads are fxt_thread_ref_t (common.h): fxt_thread(pid, tid) is interned
 * into the thread table, fxt_thread_inline(pid, tid) written inline, and
 * fxt_thread_index(i) names a slot the caller registered
 * (fxt_write_thread_record()). Arguments are fxt_arg_t (common.h), built with
 * the helpers below.
 */

/*
 * The constructors assign each field once (no memset, no overlapping stores):
 * a memset followed by narrower stores made the struct copy stall on store
 * forwarding, which cost more than encoding the record. Bytes of the value
 * union that the type does not use are left as they are.
 */
#define FXT_ARG_INIT_(a, t, nm)                                                                              \
    (a).type = (uint8_t)(t);                                                                                 \
    (a).size_words = 0;                                                                                      \
    (a).name = (nm);                                                                                         \
    (a).str.ptr = NULL;                                                                                      \
    (a).str.len = 0;                                                                                         \
    (a).str.ref = 0;                                                                                         \
    (a).str.unresolved = 0;                                                                                  \
    (a).header = 0

static inline fxt_arg_t fxt_arg_null(fxt_str_t name) {
    fxt_arg_t a;
    FXT_ARG_INIT_(a, FXT_ARG_NULL, name);
    a.v.u64 = 0;
    return a;
}
static inline fxt_arg_t fxt_arg_int32(fxt_str_t name, int32_t v) {
    fxt_arg_t a;
    FXT_ARG_INIT_(a, FXT_ARG_INT32, name);
    a.v.i32 = v;
    return a;
}
static inline fxt_arg_t fxt_arg_uint32(fxt_str_t name, uint32_t v) {
    fxt_arg_t a;
    FXT_ARG_INIT_(a, FXT_ARG_UINT32, name);
    a.v.u32 = v;
    return a;
}
static inline fxt_arg_t fxt_arg_int64(fxt_str_t name, int64_t v) {
    fxt_arg_t a;
    FXT_ARG_INIT_(a, FXT_ARG_INT64, name);
    a.v.i64 = v;
    return a;
}
static inline fxt_arg_t fxt_arg_uint64(fxt_str_t name, uint64_t v) {
    fxt_arg_t a;
    FXT_ARG_INIT_(a, FXT_ARG_UINT64, name);
    a.v.u64 = v;
    return a;
}
static inline fxt_arg_t fxt_arg_double(fxt_str_t name, double v) {
    fxt_arg_t a;
    FXT_ARG_INIT_(a, FXT_ARG_DOUBLE, name);
    a.v.f64 = v;
    return a;
}
static inline fxt_arg_t fxt_arg_string(fxt_str_t name, fxt_str_t v) {
    fxt_arg_t a;
    FXT_ARG_INIT_(a, FXT_ARG_STRING, name);
    a.v.u64 = 0;
    a.str = v;
    return a;
}
static inline fxt_arg_t fxt_arg_pointer(fxt_str_t name, uint64_t v) {
    fxt_arg_t a;
    FXT_ARG_INIT_(a, FXT_ARG_POINTER, name);
    a.v.pointer = v;
    return a;
}
static inline fxt_arg_t fxt_arg_koid(fxt_str_t name, uint64_t v) {
    fxt_arg_t a;
    FXT_ARG_INIT_(a, FXT_ARG_KOID, name);
    a.v.koid = v;
    return a;
}
static inline fxt_arg_t fxt_arg_bool(fxt_str_t name, int v) {
    fxt_arg_t a;
    FXT_ARG_INIT_(a, FXT_ARG_BOOL, name);
    a.v.boolean = v != 0;
    return a;
}
/* Short names. */
#define fxt_arg_str fxt_arg_string
#define fxt_arg_ptr fxt_arg_pointer

/* ---- the writer ------------------------------------------------------------------ */

typedef struct fxt_writer fxt_writer_t;

#define FXT_WRITE_BIG_ENDIAN 0x1u /* write words big-endian (the magic record announces it) */
#define FXT_WRITE_NO_INTERN 0x2u  /* write every string and thread inline */

typedef struct fxt_writer_options {
    uint32_t struct_size; /* sizeof(fxt_writer_options_t) */
    uint32_t flags;       /* FXT_WRITE_* */
    size_t buffer_size;   /* internal buffer; 0 = 64 KiB (minimum 32 KiB) */
    uint32_t max_strings; /* string table slots to use, 1..32767; 0 = all */
    uint32_t max_threads; /* thread table slots to use, 1..255; 0 = all */
} fxt_writer_options_t;
#define FXT_WRITER_OPTIONS_INIT                                                                              \
    { sizeof(fxt_writer_options_t), 0, 0, 0, 0 }

/** Create a writer. `opt` may be NULL (defaults); struct_size as in common.h. */
FXT_API fxt_status fxt_writer_create(const fxt_writer_options_t *opt, fxt_sink_t sink, fxt_writer_t **out);
/** Flush buffered bytes to the sink. Returns the sticky status. */
FXT_API fxt_status fxt_writer_flush(fxt_writer_t *w);
/** Flush and return the final (sticky) status. The writer stays usable for reading stats. */
FXT_API fxt_status fxt_writer_finish(fxt_writer_t *w);
/** Destroy (does not flush); NULL is a no-op. */
FXT_API void fxt_writer_destroy(fxt_writer_t *w);
/** The sticky status: FXT_OK or the first failure. */
FXT_API fxt_status fxt_writer_status(const fxt_writer_t *w);
/** Strings truncated to 32000 bytes so far. */
FXT_API uint64_t fxt_writer_truncations(const fxt_writer_t *w);
/** Bytes written (including buffered ones). */
FXT_API uint64_t fxt_writer_bytes(const fxt_writer_t *w);
/** Records written (including string and thread records the interning emitted). */
FXT_API uint64_t fxt_writer_records(const fxt_writer_t *w);
/* Everything the writer counted (fxt_writer_get_stats()). */
typedef struct fxt_writer_stats {
    uint64_t bytes;              /* fxt_writer_bytes() */
    uint64_t records;            /* fxt_writer_records() */
    uint64_t truncations;        /* fxt_writer_truncations() */
    uint64_t strings_registered; /* string records emitted by interning */
    uint64_t string_evictions;   /* string slots recycled (clock) */
    uint64_t strings_inline;     /* interned strings written inline: every slot pinned by the record */
    uint64_t threads_registered; /* thread records emitted by interning */
    uint64_t thread_evictions;   /* thread slots recycled (clock) */
} fxt_writer_stats_t;
/** Fill *out with the writer's counters (zeroes for a NULL writer). */
FXT_API void fxt_writer_get_stats(const fxt_writer_t *w, fxt_writer_stats_t *out);
/** Forget interned strings and threads (the next uses register them again). */
FXT_API void fxt_writer_reset_tables(fxt_writer_t *w);
/**
 * Reuse a writer for a new trace: buffered bytes are dropped (not flushed),
 * the sticky status, counters and tables are cleared, and `sink` replaces the
 * old sink (a sink whose `write` is NULL keeps the old one). Options are kept.
 */
FXT_API void fxt_writer_reset(fxt_writer_t *w, fxt_sink_t sink);
/** 1 when the last record call truncated a string (over 32000 bytes), else 0. */
FXT_API int fxt_writer_last_truncated(const fxt_writer_t *w);

/* ---- records ----------------------------------------------------------------------- */

/* Metadata. Provider info/section start a provider context: the interning tables
 * are reset so that the new provider's strings and threads are registered in it. */
FXT_API fxt_status fxt_write_magic(fxt_writer_t *w);
FXT_API fxt_status fxt_write_provider_info(fxt_writer_t *w, uint32_t provider_id, fxt_str_t name);
FXT_API fxt_status fxt_write_provider_section(fxt_writer_t *w, uint32_t provider_id);
FXT_API fxt_status fxt_write_provider_event(fxt_writer_t *w, uint32_t provider_id, uint32_t event);
/* Trace info of a type other than 0 (0 is the magic record); `data` fills bits [24..63]. */
FXT_API fxt_status fxt_write_trace_info(fxt_writer_t *w, uint32_t info_type, uint64_t data);

FXT_API fxt_status fxt_write_init(fxt_writer_t *w, uint64_t ticks_per_second);

/* Explicit registrations (interning does this for you). Index 1..32767 / 1..255. */
FXT_API fxt_status fxt_write_string_record(fxt_writer_t *w, uint16_t index, fxt_str_t value);
FXT_API fxt_status fxt_write_thread_record(fxt_writer_t *w, uint8_t index, uint64_t pid, uint64_t tid);

/* Events: every type through one call, plus shorthands. */
/*
 * An event, for the writer (fxt_write_event(): strings and threads are
 * interned unless marked inline) and the encoders (fxt_encode_event(),
 * fxt_write_event_refs(): explicit refs, see below).
 */
typedef struct fxt_event_desc {
    uint32_t type; /* enum fxt_event_type */
    uint64_t ts;
    fxt_thread_ref_t thread;
    fxt_str_t category;
    fxt_str_t name;
    uint64_t id;     /* counter, async, flow */
    uint64_t end_ts; /* duration complete */
    const fxt_arg_t *args;
    unsigned nargs;        /* 0..15 */
    const uint64_t *extra; /* words appended after the event's content (e.g. an instant's */
    unsigned nextra;       /* scope word: FXT_SCOPE_*); usually NULL / 0 */
} fxt_event_desc_t;

FXT_API fxt_status fxt_write_event(fxt_writer_t *w, const fxt_event_desc_t *ev);

FXT_API fxt_status fxt_write_instant(fxt_writer_t *w, uint64_t ts, fxt_thread_ref_t t, fxt_str_t cat,
                                     fxt_str_t name, const fxt_arg_t *args, unsigned nargs);
FXT_API fxt_status fxt_write_counter(fxt_writer_t *w, uint64_t ts, fxt_thread_ref_t t, fxt_str_t cat,
                                     fxt_str_t name, uint64_t counter_id, const fxt_arg_t *args,
                                     unsigned nargs);
FXT_API fxt_status fxt_write_duration_begin(fxt_writer_t *w, uint64_t ts, fxt_thread_ref_t t, fxt_str_t cat,
                                            fxt_str_t name, const fxt_arg_t *args, unsigned nargs);
FXT_API fxt_status fxt_write_duration_end(fxt_writer_t *w, uint64_t ts, fxt_thread_ref_t t, fxt_str_t cat,
                                          fxt_str_t name, const fxt_arg_t *args, unsigned nargs);
FXT_API fxt_status fxt_write_duration_complete(fxt_writer_t *w, uint64_t start_ts, uint64_t end_ts,
                                               fxt_thread_ref_t t, fxt_str_t cat, fxt_str_t name,
                                               const fxt_arg_t *args, unsigned nargs);

FXT_API fxt_status fxt_write_blob(fxt_writer_t *w, fxt_str_t name, uint32_t blob_type, const void *data,
                                  size_t size);
/* Userspace object: `process` is the owning process koid (written as a thread ref). */
FXT_API fxt_status fxt_write_userspace_object(fxt_writer_t *w, uint64_t ptr, uint64_t process, fxt_str_t name,
                                              const fxt_arg_t *args, unsigned nargs);
FXT_API fxt_status fxt_write_kernel_object(fxt_writer_t *w, uint64_t koid, uint32_t obj_type, fxt_str_t name,
                                           const fxt_arg_t *args, unsigned nargs);

FXT_API fxt_status fxt_write_context_switch(fxt_writer_t *w, uint64_t ts, uint32_t cpu, uint32_t out_state,
                                            uint64_t out_tid, uint64_t in_tid, const fxt_arg_t *args,
                                            unsigned nargs);
FXT_API fxt_status fxt_write_thread_wakeup(fxt_writer_t *w, uint64_t ts, uint32_t cpu, uint64_t tid,
                                           const fxt_arg_t *args, unsigned nargs);
FXT_API fxt_status fxt_write_legacy_context_switch(fxt_writer_t *w, uint64_t ts, uint32_t cpu,
                                                   uint32_t out_state, fxt_thread_ref_t out,
                                                   fxt_thread_ref_t in, uint32_t out_prio, uint32_t in_prio);
FXT_API fxt_status fxt_write_log(fxt_writer_t *w, uint64_t ts, fxt_thread_ref_t t, fxt_str_t message);

/* Large blob, format 0 (with metadata) or 1 (no metadata: ts, thread and args ignored).
 * For fxt_write_large_blob() and fxt_encode_large_blob(). */
typedef struct fxt_large_blob_desc {
    uint32_t format; /* enum fxt_large_blob_format */
    fxt_str_t category;
    fxt_str_t name;
    uint64_t ts;
    fxt_thread_ref_t thread;
    const fxt_arg_t *args;
    unsigned nargs;
    const void *data;
    uint64_t size;
} fxt_large_blob_desc_t;
FXT_API fxt_status fxt_write_large_blob(fxt_writer_t *w, const fxt_large_blob_desc_t *b);

/*
 * Copy an encoded record verbatim (e.g. fxt_record_t.bytes/size from the reader).
 * The bytes must already be in this writer's byte order and `size` a multiple
 * of 8 matching the record's header. String and thread refs inside it are the
 * caller's business (fxt_writer_reset_tables() makes this writer forget its own
 * registrations, e.g. after copying string or thread records).
 */
FXT_API fxt_status fxt_write_raw(fxt_writer_t *w, const void *bytes, size_t size);

/* ---- event shorthands ---------------------------------------------------------------- */

/** Instant event with the scope word Fuchsia's engine appends (FXT_SCOPE_*). */
static inline fxt_status fxt_write_instant_scoped(fxt_writer_t *w, uint64_t ts, fxt_thread_ref_t t,
                                                  fxt_str_t cat, fxt_str_t name, uint32_t scope,
                                                  const fxt_arg_t *args, unsigned nargs) {
    uint64_t extra = scope;
    fxt_event_desc_t ev;
    memset(&ev, 0, sizeof ev);
    ev.type = FXT_EVENT_INSTANT;
    ev.ts = ts;
    ev.thread = t;
    ev.category = cat;
    ev.name = name;
    ev.args = args;
    ev.nargs = nargs;
    ev.extra = &extra;
    ev.nextra = 1;
    return fxt_write_event(w, &ev);
}

/** Async (FXT_EVENT_ASYNC_*) and flow (FXT_EVENT_FLOW_*) events: `type` and correlation id. */
static inline fxt_status fxt_write_id_event(fxt_writer_t *w, uint32_t type, uint64_t ts, fxt_thread_ref_t t,
                                            fxt_str_t cat, fxt_str_t name, uint64_t id, const fxt_arg_t *args,
                                            unsigned nargs) {
    fxt_event_desc_t ev;
    memset(&ev, 0, sizeof ev);
    ev.type = type;
    ev.ts = ts;
    ev.thread = t;
    ev.category = cat;
    ev.name = name;
    ev.id = id;
    ev.args = args;
    ev.nargs = nargs;
    return fxt_write_event(w, &ev);
}
#define fxt_write_async_begin(w, ts, t, cat, name, id, args, n)                                              \
    fxt_write_id_event((w), FXT_EVENT_ASYNC_BEGIN, (ts), (t), (cat), (name), (id), (args), (n))
#define fxt_write_async_instant(w, ts, t, cat, name, id, args, n)                                            \
    fxt_write_id_event((w), FXT_EVENT_ASYNC_INSTANT, (ts), (t), (cat), (name), (id), (args), (n))
#define fxt_write_async_end(w, ts, t, cat, name, id, args, n)                                                \
    fxt_write_id_event((w), FXT_EVENT_ASYNC_END, (ts), (t), (cat), (name), (id), (args), (n))
#define fxt_write_flow_begin(w, ts, t, cat, name, id, args, n)                                               \
    fxt_write_id_event((w), FXT_EVENT_FLOW_BEGIN, (ts), (t), (cat), (name), (id), (args), (n))
#define fxt_write_flow_step(w, ts, t, cat, name, id, args, n)                                                \
    fxt_write_id_event((w), FXT_EVENT_FLOW_STEP, (ts), (t), (cat), (name), (id), (args), (n))
#define fxt_write_flow_end(w, ts, t, cat, name, id, args, n)                                                 \
    fxt_write_id_event((w), FXT_EVENT_FLOW_END, (ts), (t), (cat), (name), (id), (args), (n))

/* ---- layer (a): stateless encoders ------------------------------------------------------- */

/*
 * fxt_encode_* write ONE complete record into a caller buffer, in host byte
 * order, with no state and no interning: the caller manages string and
 * thread tables itself (an instrumentation engine, a merger copying
 * records). `buf` needs no alignment; `cap` is its size in bytes; *size
 * receives the record size in bytes (a multiple of 8).
 *
 * Strings are fxt_str_t whose `ref` says how they are written ("explicit
 * refs"):
 *   ref 0x0001..0x7fff   a string table index (ptr/len ignored): fxt_sref(i)
 *   ref 0 or 0x8000      inline when len > 0 (truncated at a UTF-8 boundary to
 *                        32000 bytes), the empty ref when len == 0
 * so a reader's decoded fxt_str_t (ref = the raw ref) re-encodes as it was.
 * Threads are fxt_thread_ref_t: ref 1..255 = a thread table index
 * (fxt_thread_index()), 0 or FXT_THREAD_INLINE_FLAG = inline (pid, tid);
 * any other ref is FXT_E_BAD_INDEX. Events and large blobs use the same
 * fxt_event_desc_t / fxt_large_blob_desc_t as the writer; argument names
 * and string values follow the string rules above.
 *
 * @return FXT_OK; FXT_E_BUFFER_FULL when cap is too small (*size = the bytes
 *         needed); FXT_E_TOO_MANY_ARGS, FXT_E_RECORD_TOO_LARGE,
 *         FXT_E_STRING_TOO_LONG, FXT_E_BAD_INDEX, FXT_E_BAD_ARG,
 *         FXT_E_INVALID_ARG. On any error nothing is written to buf.
 */

/** An explicit string table reference (index 1..32767). */
static inline fxt_str_t fxt_sref(uint16_t index) {
    fxt_str_t v;
    v.ptr = NULL;
    v.len = 0;
    v.ref = (uint16_t)(index & FXT_STRREF_VALUE_MASK);
    v.unresolved = 0;
    return v;
}

/** Precomputed event header word (hot paths): `words` = record size in words. */
static inline uint64_t fxt_event_header(uint32_t type, unsigned nargs, uint8_t thread_ref,
                                        uint16_t category_ref, uint16_t name_ref, uint64_t words) {
    return fxt_put_rec_type(FXT_RECORD_EVENT) | fxt_put_rec_size(words) | fxt_put_event_type(type) |
           fxt_put_event_nargs(nargs) | fxt_put_event_thread(thread_ref) |
           fxt_put_event_category(category_ref) | fxt_put_event_name(name_ref);
}

FXT_API fxt_status fxt_encode_magic(void *buf, size_t cap, size_t *size);
FXT_API fxt_status fxt_encode_provider_info(void *buf, size_t cap, size_t *size, uint32_t provider_id,
                                            fxt_str_t name);
FXT_API fxt_status fxt_encode_provider_section(void *buf, size_t cap, size_t *size, uint32_t provider_id);
FXT_API fxt_status fxt_encode_provider_event(void *buf, size_t cap, size_t *size, uint32_t provider_id,
                                             uint32_t event);
FXT_API fxt_status fxt_encode_trace_info(void *buf, size_t cap, size_t *size, uint32_t info_type,
                                         uint64_t data);
FXT_API fxt_status fxt_encode_init(void *buf, size_t cap, size_t *size, uint64_t ticks_per_second);
/** String record: index 1..32767 (else FXT_E_BAD_INDEX); the value is always written inline. */
FXT_API fxt_status fxt_encode_string(void *buf, size_t cap, size_t *size, uint32_t index, fxt_str_t value);
/** Thread record: index 1..255 (else FXT_E_BAD_INDEX). */
FXT_API fxt_status fxt_encode_thread(void *buf, size_t cap, size_t *size, uint32_t index, uint64_t pid,
                                     uint64_t tid);
FXT_API fxt_status fxt_encode_event(void *buf, size_t cap, size_t *size, const fxt_event_desc_t *ev);
FXT_API fxt_status fxt_encode_blob(void *buf, size_t cap, size_t *size, fxt_str_t name, uint32_t blob_type,
                                   const void *data, size_t data_size);
/** Userspace object; `process`: index, or inline (its pid is the one koid word written). */
FXT_API fxt_status fxt_encode_userspace_object(void *buf, size_t cap, size_t *size, uint64_t ptr,
                                               fxt_thread_ref_t process, fxt_str_t name,
                                               const fxt_arg_t *args, unsigned nargs);
FXT_API fxt_status fxt_encode_kernel_object(void *buf, size_t cap, size_t *size, uint64_t koid,
                                            uint32_t obj_type, fxt_str_t name, const fxt_arg_t *args,
                                            unsigned nargs);
FXT_API fxt_status fxt_encode_context_switch(void *buf, size_t cap, size_t *size, uint64_t ts, uint32_t cpu,
                                             uint32_t out_state, uint64_t out_tid, uint64_t in_tid,
                                             const fxt_arg_t *args, unsigned nargs);
FXT_API fxt_status fxt_encode_thread_wakeup(void *buf, size_t cap, size_t *size, uint64_t ts, uint32_t cpu,
                                            uint64_t tid, const fxt_arg_t *args, unsigned nargs);
FXT_API fxt_status fxt_encode_legacy_context_switch(void *buf, size_t cap, size_t *size, uint64_t ts,
                                                    uint32_t cpu, uint32_t out_state, fxt_thread_ref_t out,
                                                    fxt_thread_ref_t in, uint32_t out_prio, uint32_t in_prio);
FXT_API fxt_status fxt_encode_log(void *buf, size_t cap, size_t *size, uint64_t ts, fxt_thread_ref_t thread,
                                  fxt_str_t message);
/** Large blob (32-bit record size: not limited to 32760 bytes). */
FXT_API fxt_status fxt_encode_large_blob(void *buf, size_t cap, size_t *size, const fxt_large_blob_desc_t *b);

/*
 * Explicit-ref writing through a writer (no interning): reserve room in the
 * writer's buffer, encode into it with an fxt_encode_* function, commit.
 * fxt_writer_reserve: `bytes` <= 32760 (FXT_E_RECORD_TOO_LARGE otherwise);
 * *out points to at least `bytes` writable bytes, valid until the next call
 * on the writer. fxt_writer_commit: `bytes` (a multiple of 8, <= the
 * reservation) hold one or more complete records in host order; a writer
 * with the opposite byte order refuses it (FXT_E_UNSUPPORTED: inline string
 * streams cannot be told from words). fxt_write_event_refs() works in both. To mix with interning, keep the
 * index ranges apart (fxt_writer_options_t.max_strings / max_threads limit what interning uses; indexes above
 * them are the caller's).
 */
FXT_API fxt_status fxt_writer_reserve(fxt_writer_t *w, size_t bytes, void **out);
FXT_API fxt_status fxt_writer_commit(fxt_writer_t *w, size_t bytes);
/** Convenience: an event with explicit refs (reserve + fxt_encode_event + commit). */
FXT_API fxt_status fxt_write_event_refs(fxt_writer_t *w, const fxt_event_desc_t *ev);

#ifdef __cplusplus
}
#endif

#endif /* FXT_WRITER_H */
