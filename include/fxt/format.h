/* SPDX-License-Identifier: MIT */
/*
 * libfxt format layer: every record type, subtype, event type, argument type
 * and bit field of the Fuchsia Trace Format, in one place.
 *
 * This is the only file of the project that knows bit positions. Everything
 * else reads and writes fields through the accessors generated here:
 *
 *   fxt_get_<field>(word)   extracts the field (unsigned)
 *   fxt_put_<field>(value)  returns value masked and shifted into place,
 *                           ready to be OR-ed into a word
 *   FXT_MASK(field)         the field's bits within the word
 *   FXT_LO_<field>, FXT_HI_<field>  its first and last bit
 *
 * Field names follow the spec: [lo .. hi], both inclusive.
 * Words are loaded with memcpy (no unaligned pointer casts) and byte-swapped
 * when the trace's byte order differs from the host's.
 */
#ifndef FXT_FORMAT_H
#define FXT_FORMAT_H

#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- generic bit helpers ------------------------------------------------- */

#define FXT_BITS_MASK_(lo, hi) ((~UINT64_C(0) >> (63 - ((hi) - (lo)))) << (lo))

#define FXT_MASK(name) FXT_BITS_MASK_(FXT_LO_##name, FXT_HI_##name)

#define FXT_FIELD_(name, lo, hi)                                                                             \
    enum { FXT_LO_##name = (lo), FXT_HI_##name = (hi) };                                                     \
    static inline uint64_t fxt_get_##name(uint64_t w) { return (w & FXT_BITS_MASK_(lo, hi)) >> (lo); }       \
    static inline uint64_t fxt_put_##name(uint64_t v) { return (v << (lo)) & FXT_BITS_MASK_(lo, hi); }

/* ---- constants ---------------------------------------------------------- */

#define FXT_WORD_SIZE 8u
#define FXT_MAX_RECORD_WORDS 0xfffu                      /* 12-bit record size */
#define FXT_MAX_RECORD_BYTES (FXT_MAX_RECORD_WORDS * 8u) /* 32760 */
#define FXT_MAX_LARGE_RECORD_WORDS UINT64_C(0xffffffff)  /* 32-bit size */
#define FXT_MAX_ARGS 15u
#define FXT_MAX_STRING_INDEX 0x7fffu      /* string table: 1..32767 */
#define FXT_MAX_THREAD_INDEX 0xffu        /* thread table: 1..255 */
#define FXT_MAX_STRING_LEN 32000u         /* writers must not exceed */
#define FXT_MAX_INLINE_STRING_LEN 0x7fffu /* what a string ref can express */
#define FXT_MAX_PROVIDER_NAME_LEN 0xffu
#define FXT_MAGIC_NUMBER UINT64_C(0x16547846)         /* "FxT" + random byte */
#define FXT_MAGIC_RECORD UINT64_C(0x0016547846040010) /* the whole 8-byte record */
#define FXT_MAGIC_RECORD_SWAPPED UINT64_C(0x1000044678541600)

/* Record types ([0..3] of the header word). */
enum fxt_record_type {
    FXT_RECORD_METADATA = 0,
    FXT_RECORD_INITIALIZATION = 1,
    FXT_RECORD_STRING = 2,
    FXT_RECORD_THREAD = 3,
    FXT_RECORD_EVENT = 4,
    FXT_RECORD_BLOB = 5,
    FXT_RECORD_USERSPACE_OBJECT = 6,
    FXT_RECORD_KERNEL_OBJECT = 7,
    FXT_RECORD_SCHEDULING = 8,
    FXT_RECORD_LOG = 9,
    FXT_RECORD_LARGE = 15
};

/* Metadata types ([16..19] of a metadata record). */
enum fxt_metadata_type {
    FXT_META_PROVIDER_INFO = 1,
    FXT_META_PROVIDER_SECTION = 2,
    FXT_META_PROVIDER_EVENT = 3,
    FXT_META_TRACE_INFO = 4
};

/* Trace info types ([20..23] of a trace info metadata record). */
enum fxt_trace_info_type { FXT_TRACE_INFO_MAGIC = 0 };

/* Provider event ids ([52..55] of a provider event metadata record). */
enum fxt_provider_event { FXT_PROVIDER_EVENT_BUFFER_FULL = 0 };

/* Event types ([16..19] of an event record). */
enum fxt_event_type {
    FXT_EVENT_INSTANT = 0,
    FXT_EVENT_COUNTER = 1,
    FXT_EVENT_DURATION_BEGIN = 2,
    FXT_EVENT_DURATION_END = 3,
    FXT_EVENT_DURATION_COMPLETE = 4,
    FXT_EVENT_ASYNC_BEGIN = 5,
    FXT_EVENT_ASYNC_INSTANT = 6,
    FXT_EVENT_ASYNC_END = 7,
    FXT_EVENT_FLOW_BEGIN = 8,
    FXT_EVENT_FLOW_STEP = 9,
    FXT_EVENT_FLOW_END = 10
};
#define FXT_EVENT_TYPE_COUNT 11u

/* Instant event scope word (an extension appended by Fuchsia's engine). */
enum fxt_instant_scope { FXT_SCOPE_THREAD = 0, FXT_SCOPE_PROCESS = 1, FXT_SCOPE_GLOBAL = 2 };

/* Blob types ([48..55] of a blob record). */
enum fxt_blob_type { FXT_BLOB_DATA = 1, FXT_BLOB_LAST_BRANCH = 2, FXT_BLOB_PERFETTO = 3 };

/* Scheduling record types ([60..63] of a scheduling record). */
enum fxt_sched_type {
    FXT_SCHED_LEGACY_CONTEXT_SWITCH = 0,
    FXT_SCHED_CONTEXT_SWITCH = 1,
    FXT_SCHED_THREAD_WAKEUP = 2
};

/* Thread states (context switch records). */
enum fxt_thread_state {
    FXT_THREAD_NEW = 0,
    FXT_THREAD_RUNNING = 1,
    FXT_THREAD_SUSPENDED = 2,
    FXT_THREAD_BLOCKED = 3,
    FXT_THREAD_DYING = 4,
    FXT_THREAD_DEAD = 5
};

/* Large record types ([36..39] of a large record) and large blob formats. */
enum fxt_large_type { FXT_LARGE_BLOB = 0 };
enum fxt_large_blob_format { FXT_LARGE_BLOB_WITH_METADATA = 0, FXT_LARGE_BLOB_NO_METADATA = 1 };

/* Argument types ([0..3] of an argument header). */
enum fxt_arg_type {
    FXT_ARG_NULL = 0,
    FXT_ARG_INT32 = 1,
    FXT_ARG_UINT32 = 2,
    FXT_ARG_INT64 = 3,
    FXT_ARG_UINT64 = 4,
    FXT_ARG_DOUBLE = 5,
    FXT_ARG_STRING = 6,
    FXT_ARG_POINTER = 7,
    FXT_ARG_KOID = 8,
    FXT_ARG_BOOL = 9
};
#define FXT_ARG_TYPE_COUNT 10u

/* Zircon kernel object types used by tracing conventions. */
enum fxt_obj_type { FXT_OBJ_PROCESS = 1, FXT_OBJ_THREAD = 2 };

/* ---- string and thread references ---------------------------------------- */

#define FXT_STRREF_EMPTY 0u
#define FXT_STRREF_INLINE_FLAG 0x8000u
#define FXT_STRREF_VALUE_MASK 0x7fffu
#define FXT_THREADREF_INLINE 0u

static inline int fxt_strref_is_inline(uint16_t ref) { return (ref & FXT_STRREF_INLINE_FLAG) != 0; }
static inline int fxt_strref_is_empty(uint16_t ref) { return ref == FXT_STRREF_EMPTY; }
/* An indexed ref naming a table entry (1..0x7fff): neither inline nor empty, in one compare. */
static inline int fxt_strref_is_index(uint16_t ref) { return (uint16_t)(ref - 1u) < FXT_STRREF_VALUE_MASK; }
/* For an inline ref: its length in bytes. For an indexed ref: its index. */
static inline uint16_t fxt_strref_value(uint16_t ref) { return (uint16_t)(ref & FXT_STRREF_VALUE_MASK); }
static inline uint16_t fxt_strref_inline(uint16_t len) {
    return (uint16_t)(FXT_STRREF_INLINE_FLAG | (len & FXT_STRREF_VALUE_MASK));
}

/* Bytes, padded to the next multiple of 8, and the same in words. */
static inline uint64_t fxt_pad8(uint64_t n) { return (n + 7u) & ~UINT64_C(7); }
static inline uint64_t fxt_words(uint64_t n) { return (n + 7u) >> 3; }

/* ---- word loads and stores ------------------------------------------------ */

static inline uint64_t fxt_bswap64(uint64_t v) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_bswap64(v);
#else
    v = ((v & UINT64_C(0x00ff00ff00ff00ff)) << 8) | ((v >> 8) & UINT64_C(0x00ff00ff00ff00ff));
    v = ((v & UINT64_C(0x0000ffff0000ffff)) << 16) | ((v >> 16) & UINT64_C(0x0000ffff0000ffff));
    return (v << 32) | (v >> 32);
#endif
}

/* 1 when this host is big-endian. */
static inline int fxt_host_is_big_endian(void) {
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 0;
}

/* Load a native-order word from possibly unaligned memory. */
static inline uint64_t fxt_load64(const void *p) {
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Load a word written in the given byte order (swap != 0: opposite of host). */
static inline uint64_t fxt_load64_swapped(const void *p, int swap) {
    uint64_t v = fxt_load64(p);
    return swap ? fxt_bswap64(v) : v;
}

/* Load a little-endian word, whatever the host. */
static inline uint64_t fxt_load_le64(const void *p) {
    return fxt_load64_swapped(p, fxt_host_is_big_endian());
}

static inline void fxt_store64(void *p, uint64_t v) { memcpy(p, &v, sizeof v); }

/* ---- record header (all records) ------------------------------------------ */

FXT_FIELD_(rec_type, 0, 3)
FXT_FIELD_(rec_size, 4, 15)  /* words, including the header */
FXT_FIELD_(rec_data, 16, 63) /* type-specific */

/* ---- large record header (type 15) ----------------------------------------- */

FXT_FIELD_(large_size, 4, 35) /* words, including the header */
FXT_FIELD_(large_type, 36, 39)
FXT_FIELD_(large_blob_format, 40, 43)
FXT_FIELD_(large_blob_reserved, 44, 63)

/* Large blob format header word (both formats). */
FXT_FIELD_(lblob_category, 0, 15)
FXT_FIELD_(lblob_name, 16, 31)
FXT_FIELD_(lblob_nargs, 32, 35)  /* format 0 only */
FXT_FIELD_(lblob_thread, 36, 43) /* format 0 only */
FXT_FIELD_(lblob0_reserved, 44, 63)
FXT_FIELD_(lblob1_reserved, 32, 63)

/* ---- metadata (type 0) --------------------------------------------------------- */

FXT_FIELD_(meta_type, 16, 19)
FXT_FIELD_(meta_provider_id, 20, 51) /* provider info / section / event */
FXT_FIELD_(meta_name_len, 52, 59)    /* provider info: name length in bytes */
FXT_FIELD_(meta_info_reserved, 60, 63)
FXT_FIELD_(meta_section_reserved, 52, 63)
FXT_FIELD_(meta_event_id, 52, 55) /* provider event */
FXT_FIELD_(meta_event_reserved, 56, 63)
FXT_FIELD_(meta_trace_info_type, 20, 23)
FXT_FIELD_(meta_trace_info_data, 24, 63)
FXT_FIELD_(meta_magic, 24, 55) /* magic record: 0x16547846 */
FXT_FIELD_(meta_magic_zero, 56, 63)

/* ---- initialization (type 1) --------------------------------------------------- */

FXT_FIELD_(init_reserved, 16, 63)

/* ---- string (type 2) ----------------------------------------------------------- */

FXT_FIELD_(string_index, 16, 30)
FXT_FIELD_(string_bit31, 31, 31)
FXT_FIELD_(string_len, 32, 46)
FXT_FIELD_(string_bit47, 47, 47)
FXT_FIELD_(string_reserved, 48, 63)

/* ---- thread (type 3) ----------------------------------------------------------- */

FXT_FIELD_(thread_index, 16, 23)
FXT_FIELD_(thread_reserved, 24, 63)

/* ---- event (type 4) ------------------------------------------------------------ */

FXT_FIELD_(event_type, 16, 19)
FXT_FIELD_(event_nargs, 20, 23)
FXT_FIELD_(event_thread, 24, 31)
FXT_FIELD_(event_category, 32, 47)
FXT_FIELD_(event_name, 48, 63)

/* ---- blob (type 5) ------------------------------------------------------------- */

FXT_FIELD_(blob_name, 16, 31)
FXT_FIELD_(blob_size, 32, 46)
FXT_FIELD_(blob_bit47, 47, 47)
FXT_FIELD_(blob_type, 48, 55)
FXT_FIELD_(blob_reserved, 56, 63)

/* ---- userspace object (type 6) ------------------------------------------------- */

FXT_FIELD_(uobj_process, 16, 23) /* thread ref: the process */
FXT_FIELD_(uobj_name, 24, 39)
FXT_FIELD_(uobj_nargs, 40, 43)
FXT_FIELD_(uobj_reserved, 44, 63)

/* ---- kernel object (type 7) ---------------------------------------------------- */

FXT_FIELD_(kobj_type, 16, 23)
FXT_FIELD_(kobj_name, 24, 39)
FXT_FIELD_(kobj_nargs, 40, 43)
FXT_FIELD_(kobj_reserved, 44, 63)

/* ---- scheduling (type 8) ------------------------------------------------------- */

FXT_FIELD_(sched_type, 60, 63)
/* context switch (sched type 1) */
FXT_FIELD_(cswitch_nargs, 16, 19)
FXT_FIELD_(cswitch_cpu, 20, 35)
FXT_FIELD_(cswitch_out_state, 36, 39)
FXT_FIELD_(cswitch_reserved, 40, 59)
/* thread wakeup (sched type 2) */
FXT_FIELD_(wakeup_nargs, 16, 19)
FXT_FIELD_(wakeup_cpu, 20, 35)
FXT_FIELD_(wakeup_reserved, 36, 59)
/* legacy context switch (sched type 0) */
FXT_FIELD_(lcswitch_cpu, 16, 23)
FXT_FIELD_(lcswitch_out_state, 24, 27)
FXT_FIELD_(lcswitch_out_thread, 28, 35)
FXT_FIELD_(lcswitch_in_thread, 36, 43)
FXT_FIELD_(lcswitch_out_prio, 44, 51)
FXT_FIELD_(lcswitch_in_prio, 52, 59)

/* ---- log (type 9) -------------------------------------------------------------- */

FXT_FIELD_(log_len, 16, 30)
FXT_FIELD_(log_bit31, 31, 31)
FXT_FIELD_(log_thread, 32, 39)
FXT_FIELD_(log_reserved, 40, 63)

/* ---- arguments ----------------------------------------------------------------- */

FXT_FIELD_(arg_type, 0, 3)
FXT_FIELD_(arg_size, 4, 15) /* words, including the argument header */
FXT_FIELD_(arg_name, 16, 31)
FXT_FIELD_(arg_data, 32, 63)      /* type-specific; must be zero if unused */
FXT_FIELD_(arg_i32, 32, 63)       /* int32 / uint32 value (int32: two's complement) */
FXT_FIELD_(arg_str_value, 32, 47) /* string argument: value string ref */
FXT_FIELD_(arg_str_reserved, 48, 63)
FXT_FIELD_(arg_bool, 32, 32)
FXT_FIELD_(arg_bool_reserved, 33, 63)

/* ---- limits and predicates derived from the fields above -------------------------- */

/*
 * Every writer, encoder and the trace engine take their limits from here, so
 * a field's width is stated once (in its FXT_FIELD_ line above).
 */

/* The largest value a field can hold. */
#define FXT_FIELD_MAX(name) (FXT_MASK(name) >> FXT_LO_##name)

#define FXT_MAX_CPU ((uint32_t)FXT_FIELD_MAX(cswitch_cpu))                /* 0xffff (= wakeup_cpu) */
#define FXT_MAX_LEGACY_CPU ((uint32_t)FXT_FIELD_MAX(lcswitch_cpu))        /* 0xff */
#define FXT_MAX_THREAD_STATE ((uint32_t)FXT_FIELD_MAX(cswitch_out_state)) /* 15 (= lcswitch_out_state) */
#define FXT_MAX_PRIORITY ((uint32_t)FXT_FIELD_MAX(lcswitch_out_prio))     /* 0xff (= lcswitch_in_prio) */
#define FXT_MAX_OBJ_TYPE ((uint32_t)FXT_FIELD_MAX(kobj_type))             /* 0xff */
#define FXT_MAX_BLOB_TYPE ((uint32_t)FXT_FIELD_MAX(blob_type))            /* 0xff */
#define FXT_MAX_BLOB_SIZE ((uint32_t)FXT_FIELD_MAX(blob_size))            /* 0x7fff bytes */
#define FXT_MAX_PROVIDER_EVENT ((uint32_t)FXT_FIELD_MAX(meta_event_id))   /* 15 */
#define FXT_MAX_TRACE_INFO_TYPE ((uint32_t)FXT_FIELD_MAX(meta_trace_info_type)) /* 15 */
#define FXT_MAX_TRACE_INFO_DATA FXT_FIELD_MAX(meta_trace_info_data)             /* 40 bits */

/* The limits stated as literals at the top (readable, usable in #if) agree with the fields. */
#ifdef __cplusplus
#define FXT_STATIC_ASSERT_(c, m) static_assert(c, m)
#else
#define FXT_STATIC_ASSERT_(c, m) _Static_assert(c, m)
#endif
FXT_STATIC_ASSERT_(FXT_MAX_RECORD_WORDS == FXT_FIELD_MAX(rec_size), "record size field");
FXT_STATIC_ASSERT_(FXT_MAX_LARGE_RECORD_WORDS == FXT_FIELD_MAX(large_size), "large record size field");
FXT_STATIC_ASSERT_(FXT_MAX_ARGS == FXT_FIELD_MAX(event_nargs), "argument count field");
FXT_STATIC_ASSERT_(FXT_MAX_STRING_INDEX == FXT_FIELD_MAX(string_index), "string index field");
FXT_STATIC_ASSERT_(FXT_MAX_THREAD_INDEX == FXT_FIELD_MAX(thread_index), "thread index field");
FXT_STATIC_ASSERT_(FXT_MAX_INLINE_STRING_LEN == FXT_FIELD_MAX(string_len), "string length field");
FXT_STATIC_ASSERT_(FXT_MAX_PROVIDER_NAME_LEN == FXT_FIELD_MAX(meta_name_len), "provider name field");
FXT_STATIC_ASSERT_(FXT_MAX_STRING_LEN <= FXT_MAX_INLINE_STRING_LEN, "string limit fits a ref");
FXT_STATIC_ASSERT_(FXT_MAX_CPU == FXT_FIELD_MAX(wakeup_cpu), "cpu fields agree");
FXT_STATIC_ASSERT_(FXT_MAX_THREAD_STATE == FXT_FIELD_MAX(lcswitch_out_state), "state fields agree");
FXT_STATIC_ASSERT_(FXT_MAX_PRIORITY == FXT_FIELD_MAX(lcswitch_in_prio), "priority fields agree");

/* Argument types whose value takes a word after the header (and its inline name). */
#define FXT_ARG_VALUE_WORD_TYPES_                                                                            \
    ((1u << FXT_ARG_INT64) | (1u << FXT_ARG_UINT64) | (1u << FXT_ARG_DOUBLE) | (1u << FXT_ARG_POINTER) |     \
     (1u << FXT_ARG_KOID))
static inline int fxt_arg_has_value_word(unsigned type) {
    return type < FXT_ARG_TYPE_COUNT && ((FXT_ARG_VALUE_WORD_TYPES_ >> type) & 1u) != 0;
}

/* Event types followed by an id word after their arguments (counter id, async / flow correlation id). */
#define FXT_EVENT_ID_TYPES_                                                                                  \
    ((1u << FXT_EVENT_COUNTER) | (1u << FXT_EVENT_ASYNC_BEGIN) | (1u << FXT_EVENT_ASYNC_INSTANT) |           \
     (1u << FXT_EVENT_ASYNC_END) | (1u << FXT_EVENT_FLOW_BEGIN) | (1u << FXT_EVENT_FLOW_STEP) |              \
     (1u << FXT_EVENT_FLOW_END))
static inline int fxt_event_has_id(unsigned type) {
    return type < FXT_EVENT_TYPE_COUNT && ((FXT_EVENT_ID_TYPES_ >> type) & 1u) != 0;
}

/* Event types followed by an end timestamp word (duration complete). */
static inline int fxt_event_has_end_ts(unsigned type) { return type == FXT_EVENT_DURATION_COMPLETE; }

#ifdef __cplusplus
}
#endif

#endif /* FXT_FORMAT_H */
