/* SPDX-License-Identifier: MIT */
/*
 * libfxt reader: a streaming, zero-copy decoder of FXT archives.
 *
 * Usage (whole buffer, e.g. an mmap'ed file):
 *
 *     fxt_reader_t *r;
 *     fxt_reader_create(NULL, &r);
 *     fxt_in_buffer_t in = { data, size, 0 };
 *     fxt_record_t rec;
 *     fxt_status st;
 *     for (;;) {
 *         st = fxt_reader_next(r, &in, &rec);
 *         if (st == FXT_OK) { use(&rec); continue; }
 *         if (st == FXT_NEED_INPUT) {        // input used up: no more data
 *             st = fxt_reader_finish(r);        // FXT_E_TRUNCATED if a record was cut
 *             if (st < 0) report(fxt_reader_diag(r));
 *             break;
 *         }
 *         if (st == FXT_END) break;          // stopped after a fatal error
 *         report(fxt_reader_diag(r));        // damaged record: reported, skipped
 *     }
 *     fxt_reader_destroy(r);
 *
 * Incremental input: call fxt_reader_next() with successive chunks of any
 * size (down to 1 byte); when it returns FXT_NEED_INPUT the chunk has been
 * consumed completely (a partial record is kept inside the reader), so pass
 * the next chunk. Call fxt_reader_finish() once the input is exhausted.
 *
 * Thread safety: a reader is used by one thread at a time.
 */
#ifndef FXT_READER_H
#define FXT_READER_H

#include <fxt/common.h>
#include <fxt/format.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fxt_reader fxt_reader_t;

/* Input window: the reader consumes bytes from src[pos..size) and advances pos. */
typedef struct fxt_in_buffer {
    const void *src;
    size_t size;
    size_t pos;
} fxt_in_buffer_t;

/* What a record is. Names match the `kind` of the JSON Lines dump contract. */
typedef enum fxt_record_kind {
    FXT_KIND_MAGIC = 0,
    FXT_KIND_PROVIDER_INFO,
    FXT_KIND_PROVIDER_SECTION,
    FXT_KIND_PROVIDER_EVENT,
    FXT_KIND_TRACE_INFO,
    FXT_KIND_INIT,
    FXT_KIND_STRING,
    FXT_KIND_THREAD,
    FXT_KIND_EVENT,
    FXT_KIND_BLOB,
    FXT_KIND_USERSPACE_OBJECT,
    FXT_KIND_KERNEL_OBJECT,
    FXT_KIND_CONTEXT_SWITCH,
    FXT_KIND_THREAD_WAKEUP,
    FXT_KIND_LEGACY_CONTEXT_SWITCH,
    FXT_KIND_LOG,
    FXT_KIND_LARGE_BLOB,
    FXT_KIND_UNKNOWN /* stays last: FXT_KIND_COUNT_ counts from it */
} fxt_record_kind;
/* The number of kinds, outside the enum so that a switch over kinds lists only real kinds: the
 * project builds with -Wswitch-enum, and adding a kind warns at every switch that must handle it. */
enum { FXT_KIND_COUNT_ = FXT_KIND_UNKNOWN + 1 };

/** "magic", "provider_info", ..., "unknown" (the dump contract's names). */
FXT_API const char *fxt_record_kind_name(fxt_record_kind kind);
/** "instant", "counter", ..., "flow_end"; NULL for an unknown event type. */
FXT_API const char *fxt_event_type_name(unsigned event_type);
/** "null", "int32", ..., "bool"; NULL for an unknown argument type. */
FXT_API const char *fxt_arg_type_name(unsigned arg_type);

/* Threads (fxt_thread_ref_t) and arguments (fxt_arg_t) are in common.h. */

/*
 * A decoded record. Every pointer in it (strings, payloads, raw bytes, args)
 * is a view borrowed from the reader or from the caller's input buffer, valid
 * until the next call on the reader. Copy what you need to keep.
 *
 * Fields of the union are valid for the kind that names them.
 */
typedef struct fxt_record {
    uint64_t offset; /* byte offset of the header word in the input */
    fxt_record_kind kind;
    uint8_t type;         /* record type, [0..3] */
    uint64_t header;      /* header word, in host order */
    const uint8_t *bytes; /* the raw record (in the trace's byte order) */
    uint64_t size;        /* record size in bytes (header included) */
    int has_provider;     /* 0 before any provider info/section record */
    uint32_t provider;    /* current provider id (the new one for info/section) */
    int swapped;          /* 1 when the trace's byte order is not the host's */

    unsigned nargs; /* decoded arguments (event, objects, scheduling, large blob 0) */
    fxt_arg_t args[FXT_MAX_ARGS];

    union {
        struct {
            uint32_t id;
            fxt_str_t name;
        } provider_info;
        struct {
            uint32_t id;
        } provider_section;
        struct {
            uint32_t id;
            uint32_t event;
        } provider_event;
        struct {
            uint32_t info_type;
        } trace_info;
        struct {
            uint64_t ticks_per_second;
        } init;
        struct {
            uint16_t index;
            fxt_str_t value;
        } string;
        struct {
            uint8_t index;
            uint64_t pid;
            uint64_t tid;
        } thread;
        struct {
            uint32_t type; /* enum fxt_event_type */
            uint64_t ts;
            fxt_thread_ref_t thread;
            fxt_str_t category;
            fxt_str_t name;
            uint64_t id;          /* counter, async and flow events */
            uint64_t end_ts;      /* duration complete */
            const uint8_t *extra; /* words after the defined content (e.g. instant scope word) */
            uint32_t extra_words;
        } event;
        struct {
            fxt_str_t name;
            uint32_t blob_type;
            const uint8_t *payload;
            uint32_t size; /* payload bytes, without padding */
        } blob;
        struct {
            uint64_t ptr;
            fxt_thread_ref_t process;
            fxt_str_t name;
        } userspace_object;
        struct {
            uint64_t koid;
            uint32_t obj_type;
            fxt_str_t name;
        } kernel_object;
        struct {
            uint64_t ts;
            uint32_t cpu;
            uint32_t out_state;
            uint64_t out_tid;
            uint64_t in_tid;
        } context_switch;
        struct {
            uint64_t ts;
            uint32_t cpu;
            uint64_t tid;
        } thread_wakeup;
        struct {
            uint64_t ts;
            uint32_t cpu;
            uint32_t out_state;
            fxt_thread_ref_t out;
            fxt_thread_ref_t in;
            uint32_t out_prio;
            uint32_t in_prio;
        } legacy_context_switch;
        struct {
            uint64_t ts;
            fxt_thread_ref_t thread;
            fxt_str_t message;
        } log;
        struct {
            uint32_t format; /* enum fxt_large_blob_format */
            fxt_str_t category;
            fxt_str_t name;
            uint64_t ts;             /* format 0 */
            fxt_thread_ref_t thread; /* format 0 */
            const uint8_t *payload;
            uint64_t size; /* payload bytes, without padding */
        } large_blob;
        struct {
            uint32_t type;    /* record type */
            int has_subtype;  /* 0 when the record type itself is unknown */
            uint32_t subtype; /* unknown metadata/scheduling/event type, large type, blob format */
            uint64_t size_words;
        } unknown;
    } u;
} fxt_record_t;

/* A diagnostic: what went wrong, where. */
typedef struct fxt_diag {
    fxt_status status;
    uint64_t offset; /* byte offset of the record's header word */
    uint64_t header; /* the record's header word (host order), 0 if not read */
    uint8_t record_type;
    char msg[160]; /* NUL-terminated, human-readable */
} fxt_diag_t;

/* Reader flags. */
#define FXT_READ_NO_OBJECT_TABLES 0x1u /* do not keep kernel/userspace object tables */
/* Validate every record's arguments as usual (the same records are rejected with the same
 * diagnostics) but do not decode them: rec->nargs stays 0 until fxt_reader_args(). For callers
 * that need the arguments of few records (docs/reader.md). */
#define FXT_READ_LAZY_ARGS 0x2u

typedef struct fxt_reader_options {
    uint32_t struct_size;      /* sizeof(fxt_reader_options_t) */
    uint32_t flags;            /* FXT_READ_* */
    uint64_t max_record_bytes; /* largest record reassembled from chunks; 0 = default (256 MiB) */
} fxt_reader_options_t;
#define FXT_READER_OPTIONS_INIT                                                                              \
    { sizeof(fxt_reader_options_t), 0, 0 }

/** Create a reader. `opt` may be NULL for defaults; struct_size as in common.h. */
FXT_API fxt_status fxt_reader_create(const fxt_reader_options_t *opt, fxt_reader_t **out);
/** Destroy a reader; NULL is a no-op. */
FXT_API void fxt_reader_destroy(fxt_reader_t *r);
/** Forget all state (providers, tables, byte order, offset), keep allocations. */
FXT_API void fxt_reader_reset(fxt_reader_t *r);

/**
 * Seed `dst` to continue decoding where `src` stands, at byte `offset` of the
 * input: dst forgets its own state and gets a copy of src's byte order,
 * providers (tick rates, string, thread and object tables) and current
 * provider. Used to decode ranges of one trace in parallel: a reader that saw
 * the metadata, initialization, string and thread records before a range
 * seeds the range's reader (fxt stats -j). Not a pending partial record.
 * @return FXT_OK, FXT_E_NOMEM (dst is then reset), FXT_E_INVALID_ARG.
 */
FXT_API fxt_status fxt_reader_seed(fxt_reader_t *dst, const fxt_reader_t *src, uint64_t offset);

/**
 * Continue decoding at byte `offset` of the input, keeping the state
 * (providers, tables, byte order): offsets of later records count from there,
 * and a pending partial record is dropped. For readers that jump ahead after
 * feeding the records that change state (fxt's parallel tools feed the string,
 * thread, provider and object records between two ranges, then rebase).
 * @return FXT_OK, FXT_E_INVALID_ARG (r NULL).
 */
FXT_API fxt_status fxt_reader_rebase(fxt_reader_t *r, uint64_t offset);

/**
 * The record types whose records change a reader's decoding state, with the options `opt` (NULL:
 * the defaults), as a set: bit t of *types is set for record type t (header bits [0..3]).
 * Metadata (the provider context), initialization (the tick rate), string and thread records
 * (the tables), and kernel and userspace object records unless FXT_READ_NO_OBJECT_TABLES; the
 * other types, and the unknown ones, change nothing. A reader that was fed the first record of a
 * trace (it fixes the byte order) and every record of these types before an offset, then rebased
 * there (fxt_reader_rebase), decodes what follows as a sequential read does: what fxt's parallel
 * pre-scan copies. Test a header word h with `(types >> fxt_get_rec_type(h)) & 1`.
 * @return FXT_OK, FXT_E_INVALID_ARG (types NULL or opt's struct_size too large).
 */
FXT_API fxt_status fxt_reader_state_types(const fxt_reader_options_t *opt, uint32_t *types);

/**
 * Decode the next record.
 * @return FXT_OK          *rec holds a record (views valid until the next call).
 *         FXT_NEED_INPUT  `in` is used up (in->pos == in->size); pass more input,
 *                         or call fxt_reader_finish() if there is none.
 *         FXT_END         the reader stopped after a fatal error (a size-0 record);
 *                         it consumes and ignores further input.
 *         < 0             a record could not be decoded; fxt_reader_diag() says
 *                         what and where. Non-fatal errors (FXT_E_BAD_RECORD,
 *                         FXT_E_BAD_ARG, FXT_E_LIMIT): the record was skipped by
 *                         its size and has no effect on state; call again.
 *                         Fatal (FXT_E_BAD_RECORD_SIZE): a record of size 0; later
 *                         calls return FXT_END.
 */
FXT_API fxt_status fxt_reader_next(fxt_reader_t *r, fxt_in_buffer_t *in, fxt_record_t *rec);

/**
 * Decode the arguments of `rec`, the record the last fxt_reader_next() call returned, into
 * rec->args and rec->nargs (views valid until the next call on the reader, as the rest of the
 * record; the input buffer must still hold the record). With FXT_READ_LAZY_ARGS this is how a
 * record's arguments are read; without it, or when they were decoded already, it leaves `rec`
 * as it is. The arguments were validated by fxt_reader_next(), so this does not fail.
 * @return FXT_OK, FXT_E_INVALID_ARG (r or rec NULL).
 */
FXT_API fxt_status fxt_reader_args(fxt_reader_t *r, fxt_record_t *rec);

/**
 * The value of a numeric argument (int32, uint32, int64, uint64, double) as a double, as a
 * counter's series has it; 64-bit integers beyond 2^53 are rounded. Inline: counters call it
 * per argument.
 * @return FXT_OK with *value set, FXT_E_NOT_FOUND for an argument of another type (no value).
 */
static inline fxt_status fxt_arg_number(const fxt_arg_t *a, double *value) {
    switch (a->type) {
    case FXT_ARG_INT32:
        *value = a->v.i32;
        return FXT_OK;
    case FXT_ARG_UINT32:
        *value = a->v.u32;
        return FXT_OK;
    case FXT_ARG_INT64:
        *value = (double)a->v.i64;
        return FXT_OK;
    case FXT_ARG_UINT64:
        *value = (double)a->v.u64;
        return FXT_OK;
    case FXT_ARG_DOUBLE:
        *value = a->v.f64;
        return FXT_OK;
    case FXT_ARG_NULL:
    case FXT_ARG_STRING:
    case FXT_ARG_POINTER:
    case FXT_ARG_KOID:
    case FXT_ARG_BOOL:
        break;
    }
    return FXT_E_NOT_FOUND;
}

/**
 * Finish: declare the end of input and return the final status.
 * @return FXT_OK if no partial record is pending; FXT_E_TRUNCATED (with a
 *         diagnostic at the partial record's offset) if the input ended inside
 *         a record.
 */
FXT_API fxt_status fxt_reader_finish(fxt_reader_t *r);

/** The last diagnostic (valid until the next call on the reader). */
FXT_API const fxt_diag_t *fxt_reader_diag(const fxt_reader_t *r);

/** Bytes consumed so far (the offset of the next record once none is pending). */
FXT_API uint64_t fxt_reader_offset(const fxt_reader_t *r);
/** 1 when the trace was announced big-endian (byte-swapped magic) on a LE host, etc. */
FXT_API int fxt_reader_swapped(const fxt_reader_t *r);

/* ---- per-provider state (of the current provider) ------------------------ */

/**
 * The current provider context: returns 1 and sets *id once a provider info or
 * section record was read, 0 before (the implicit context). Useful to place
 * errors, which carry no fxt_record_t.
 */
FXT_API int fxt_reader_provider(const fxt_reader_t *r, uint32_t *id);

/** Ticks per second of the current provider (1e9 until an init record). */
FXT_API uint64_t fxt_reader_ticks_per_second(const fxt_reader_t *r);
/** String table entry of the current provider. FXT_E_NOT_FOUND if unregistered. */
FXT_API fxt_status fxt_reader_string(const fxt_reader_t *r, uint16_t index, fxt_str_t *out);
/** Thread table entry of the current provider. FXT_E_NOT_FOUND if unregistered. */
FXT_API fxt_status fxt_reader_thread(const fxt_reader_t *r, uint8_t index, fxt_thread_ref_t *out);

typedef struct fxt_kernel_object_info {
    uint64_t koid;
    uint32_t obj_type;
    fxt_str_t name;  /* copy owned by the reader, valid until reset/destroy or re-registration */
    int has_process; /* thread objects: a koid "process" argument was present */
    uint64_t process_koid;
} fxt_kernel_object_info_t;

typedef struct fxt_userspace_object_info {
    uint64_t pid;
    uint64_t ptr;
    fxt_str_t name; /* copy owned by the reader */
} fxt_userspace_object_info_t;

/** Kernel object table lookup (current provider). FXT_E_NOT_FOUND if unknown. */
FXT_API fxt_status fxt_reader_kernel_object(const fxt_reader_t *r, uint64_t koid,
                                            fxt_kernel_object_info_t *out);
/** Userspace object table lookup (current provider, per process). */
FXT_API fxt_status fxt_reader_userspace_object(const fxt_reader_t *r, uint64_t pid, uint64_t ptr,
                                               fxt_userspace_object_info_t *out);

/** Load the i-th word of a record view (host order), e.g. an event's extra words. */
static inline uint64_t fxt_record_word(const fxt_record_t *rec, const uint8_t *p, size_t i) {
    return fxt_load64_swapped(p + 8u * i, rec->swapped);
}

#ifdef __cplusplus
}
#endif

#endif /* FXT_READER_H */
