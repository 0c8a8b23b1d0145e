/* SPDX-License-Identifier: MIT */
/*
 * libfxt: common definitions shared by every layer (status codes, string
 * views, export macro, version).
 */
#ifndef FXT_COMMON_H
#define FXT_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32) && defined(FXT_SHARED_BUILD)
#define FXT_API __declspec(dllexport)
#elif defined(__GNUC__) || defined(__clang__)
#define FXT_API __attribute__((visibility("default")))
#else
#define FXT_API
#endif

#define FXT_VERSION_MAJOR 0
#define FXT_VERSION_MINOR 1
#define FXT_VERSION_PATCH 0
#define FXT_VERSION_STRING "0.1.0"

/*
 * Status codes. Values >= 0 are success variants, negative values are errors.
 * Numbers are pinned: never renumber or reuse one (add new codes at the end
 * of the negative range).
 *
 * X(name, value, message)
 */
#define FXT_STATUS_MAP(X)                                                                                    \
    X(OK, 0, "success")                                                                                      \
    X(END, 1, "end of trace")                                                                                \
    X(NEED_INPUT, 2, "more input is needed")                                                                 \
    X(E_INVALID_ARG, -1, "invalid argument (API misuse)")                                                    \
    X(E_NOMEM, -2, "out of memory")                                                                          \
    X(E_IO, -3, "input/output error")                                                                        \
    X(E_TRUNCATED, -4, "input ends inside a record")                                                         \
    X(E_BAD_MAGIC, -5, "bad magic number")                                                                   \
    X(E_BAD_RECORD_SIZE, -6, "record size is zero or runs past the input")                                   \
    X(E_BAD_RECORD, -7, "record contents do not fit its size")                                               \
    X(E_BAD_STRING_REF, -8, "bad string reference")                                                          \
    X(E_BAD_THREAD_REF, -9, "bad thread reference")                                                          \
    X(E_UNSUPPORTED, -10, "unsupported feature")                                                             \
    X(E_LIMIT, -11, "a configured limit was exceeded")                                                       \
    X(E_BUFFER_FULL, -12, "output buffer is full")                                                           \
    X(E_BAD_ARG, -13, "malformed argument")                                                                  \
    X(E_TOO_MANY_ARGS, -14, "more than 15 arguments")                                                        \
    X(E_RECORD_TOO_LARGE, -15, "record exceeds the maximum record size")                                     \
    X(E_STRING_TOO_LONG, -16, "string exceeds the maximum length")                                           \
    X(E_BAD_INDEX, -17, "string or thread index out of range")                                               \
    X(E_STATE, -18, "operation not allowed in the current state")                                            \
    X(E_NOT_FOUND, -19, "not found")                                                                         \
    X(E_CORRUPT, -20, "corrupt or unrecognised input")

typedef enum fxt_status {
#define FXT_STATUS_ENUM_(name, value, msg) FXT_##name = (value),
    FXT_STATUS_MAP(FXT_STATUS_ENUM_)
#undef FXT_STATUS_ENUM_
        FXT_STATUS_LIMIT_ = -21 /* do not use: one past the last error code */
} fxt_status;

/** Human-readable message for a status ("input ends inside a record"). */
FXT_API const char *fxt_status_str(fxt_status status);
/** Symbolic name of a status ("FXT_E_TRUNCATED"). */
FXT_API const char *fxt_status_name(fxt_status status);
/** The library version string, e.g. "0.1.0". */
FXT_API const char *fxt_version(void);

/*
 * A string view, for reading and writing. Not NUL-terminated. One meaning
 * everywhere: `len` bytes at `ptr`; len 0 is the empty string whatever ptr is
 * (`{NULL, 0, 0, 0}` is the empty string), and ptr may be NULL only when len
 * is 0. `ref` is the raw 16-bit string ref: set by the reader to the ref the
 * view was decoded from; when writing it says how to write the string (see
 * writer.h: 0 = interned or inline, 0x8000 = inline, 1..0x7fff = an index for
 * the encoders). `unresolved` is set by the reader (and only by it) to 1 for
 * an indexed ref with no registration in the current provider: the view is
 * then empty (ptr NULL, len 0) and `ref` says which index was missing.
 * Writers ignore it.
 */
typedef struct fxt_str {
    const char *ptr;
    uint32_t len;
    uint16_t ref;
    uint8_t unresolved;
} fxt_str_t;

/*
 * Options and config structs (fxt_writer_options_t, fxt_reader_options_t,
 * fxt_merger_input_t, fxt_session_config_t) start with `uint32_t struct_size`,
 * one rule for all: the struct's *_INIT macro sets it to sizeof(the struct);
 * 0 means defaults (as if no struct were passed); a smaller value (a caller
 * built against an older, shorter version) is accepted, and the fields past
 * it take their defaults; a larger one is FXT_E_INVALID_ARG. Every field's
 * zero value is its default.
 */

/*
 * A thread, for reading and writing. `ref` says how it is (or is to be)
 * written:
 *   0                        pid/tid. The writer interns them into the thread
 *                            table (inline under FXT_WRITE_NO_INTERN); the
 *                            encoders and the reader: an inline thread ref.
 *   1..255                   a thread table index (pid/tid ignored when writing).
 *   FXT_THREAD_INLINE_FLAG   pid/tid written inline (the writer does not intern).
 * Any other value is FXT_E_BAD_INDEX. Build with fxt_thread(),
 * fxt_thread_inline(), fxt_thread_index(). `resolved` is set by the reader: 0
 * when an indexed ref has no registration in the current provider (pid and
 * tid are then 0); writers ignore it.
 */
#define FXT_THREAD_INLINE_FLAG 0x8000u
typedef struct fxt_thread_ref {
    uint64_t pid;
    uint64_t tid;
    uint32_t ref;
    uint8_t resolved;
} fxt_thread_ref_t;

/** A thread by koids: interned by the writer, inline for the encoders. */
static inline fxt_thread_ref_t fxt_thread(uint64_t pid, uint64_t tid) {
    fxt_thread_ref_t t;
    t.pid = pid;
    t.tid = tid;
    t.ref = 0;
    t.resolved = 1;
    return t;
}
/** A thread by koids, always written inline. */
static inline fxt_thread_ref_t fxt_thread_inline(uint64_t pid, uint64_t tid) {
    fxt_thread_ref_t t = fxt_thread(pid, tid);
    t.ref = FXT_THREAD_INLINE_FLAG;
    return t;
}
/** A thread table reference (index 1..255). */
static inline fxt_thread_ref_t fxt_thread_index(uint32_t index) {
    fxt_thread_ref_t t;
    t.pid = 0;
    t.tid = 0;
    t.ref = index;
    t.resolved = 0;
    return t;
}

/*
 * A typed argument, for reading and writing (`type` is an enum fxt_arg_type;
 * the reader also reports unknown type numbers). Build one to write with the
 * fxt_arg_*() helpers (writer.h) or the FXT_*() macros (trace.h). Strings are
 * views: a decoded argument's are valid as long as its fxt_record_t's.
 */
typedef struct fxt_arg {
    uint8_t type;
    uint16_t size_words; /* reader: the argument's declared size (writers ignore it) */
    fxt_str_t name;
    union {
        int32_t i32;
        uint32_t u32;
        int64_t i64;
        uint64_t u64;
        double f64;
        uint64_t pointer;
        uint64_t koid;
        int boolean;
    } v;
    fxt_str_t str;   /* FXT_ARG_STRING: the value */
    uint64_t header; /* reader: the argument header word, host order (writers ignore it) */
} fxt_arg_t;

#ifdef __cplusplus
}
#endif

#endif /* FXT_COMMON_H */
