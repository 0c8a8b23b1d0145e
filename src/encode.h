/* SPDX-License-Identifier: MIT */
/*
 * The encoding core: the only code of libfxt that assembles record header
 * words and encodes arguments. The writer (fxt_write_*, src/writer.c), the
 * stateless encoders (fxt_encode_*, src/writer_encode.c), the trace engine
 * (src/trace_*.c) and the merger (src/archive.c) all encode through it, so
 * the four cannot drift apart again (they did: the engine once cut long
 * strings inside a UTF-8 sequence while the writer cut at a boundary).
 *
 * What it does not do: resolve strings and threads (interning is the
 * caller's: the writer has hash tables, the engine per-thread address
 * caches, the encoders explicit refs), check room, or count records. A
 * caller resolves each string to an fxt__estr_t, sizes the record with
 * fxt__*_words(), checks its own room, then stores the words with the
 * fxt__put_*() functions, which return the advanced output pointer.
 *
 * Bit positions come from include/fxt/format.h (fxt_put_<field>()), limits
 * and predicates too (FXT_MAX_*, fxt_arg_has_value_word(), fxt_event_has_id()).
 * Everything here is static inline and forced inline where it sits on a hot
 * path: a call per argument costs as much as encoding it.
 *
 * `swap` arguments: nonzero to store words in the opposite of the host's
 * byte order (writers of the other endianness). Inline string bytes are
 * never swapped. Callers that never swap pass a constant 0 and the
 * compiler drops the test.
 */
#ifndef FXT_ENCODE_H
#define FXT_ENCODE_H

#include <fxt/common.h>
#include <fxt/format.h>

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "attrs.h"

/* ---- strings ------------------------------------------------------------------------------ */

/*
 * The length to encode of a string of `len` bytes: at most FXT_MAX_STRING_LEN
 * (32000, the spec's limit for writers), cut at a UTF-8 boundary so the cut
 * never leaves half a sequence (the byte after the cut does not continue
 * one). The one truncation rule of the library: every API cuts the same way.
 */
static inline uint32_t fxt__str_clamp(const char *p, uint32_t len) {
    if (__builtin_expect(len <= FXT_MAX_STRING_LEN, 1)) {
        return len;
    }
    uint32_t n = FXT_MAX_STRING_LEN;
    /* p[n] is the first byte dropped: back up while it continues a sequence */
    while (n > 0 && ((unsigned char)p[n] & 0xc0) == 0x80) {
        n--;
    }
    return n;
}

/* A string as a record carries it: its 16-bit ref and, when inline, its bytes. */
typedef struct fxt__estr {
    uint16_t ref;  /* FXT_STRREF_EMPTY, a table index, or inline flag | length */
    uint32_t len;  /* inline bytes; 0 for an index or the empty string */
    const char *p; /* inline bytes (len of them) */
} fxt__estr_t;

/* An inline string of `len` bytes (already clamped): the empty ref when len is 0. */
FXT__INLINE fxt__estr_t fxt__estr_inline(const char *p, uint32_t len) {
    fxt__estr_t s;
    s.ref = len ? fxt_strref_inline((uint16_t)len) : (uint16_t)FXT_STRREF_EMPTY;
    s.len = len;
    s.p = len ? p : NULL;
    return s;
}

/* A string table index (or FXT_STRREF_EMPTY): no bytes in the record. */
FXT__INLINE fxt__estr_t fxt__estr_index(uint16_t index) {
    fxt__estr_t s;
    s.ref = index;
    s.len = 0;
    s.p = NULL;
    return s;
}

/* Words a string takes in the record that refers to it. */
FXT__INLINE uint64_t fxt__estr_words(const fxt__estr_t *s) { return fxt_words(s->len); }

/* ---- storing words and byte streams --------------------------------------------------------- */

FXT__INLINE uint8_t *fxt__put_word(uint8_t *p, uint64_t v, int swap) {
    fxt_store64(p, swap ? fxt_bswap64(v) : v);
    return p + 8;
}

/* `n` bytes, zero-padded to a whole word (readers skip the padding; it must not leak memory). */
FXT__INLINE uint8_t *fxt__put_bytes(uint8_t *p, const void *s, size_t n) {
    size_t padded = (size_t)fxt_pad8(n);
    if (n != 0) {
        memcpy(p, s, n);
    }
    if (padded != n) {
        memset(p + n, 0, padded - n);
    }
    return p + padded;
}

/* A string's inline bytes, if it has any. */
FXT__INLINE uint8_t *fxt__put_estr(uint8_t *p, const fxt__estr_t *s) {
    return s->len ? fxt__put_bytes(p, s->p, s->len) : p;
}

/* An inline thread ref's two koid words (nothing for a table index). */
FXT__INLINE uint8_t *fxt__put_thread(uint8_t *p, int swap, uint8_t ref, uint64_t pid, uint64_t tid) {
    if (ref == FXT_THREADREF_INLINE) {
        p = fxt__put_word(p, pid, swap);
        p = fxt__put_word(p, tid, swap);
    }
    return p;
}

/* Words an inline thread ref adds to a record. */
FXT__INLINE uint64_t fxt__thread_words(uint8_t ref) { return ref == FXT_THREADREF_INLINE ? 2u : 0u; }

/* ---- record header words ---------------------------------------------------------------------- */

/* `words`: the record's size in words, header included. */

FXT__INLINE uint64_t fxt__hdr(unsigned rec_type, uint64_t words) {
    return fxt_put_rec_type(rec_type) | fxt_put_rec_size(words);
}

FXT__INLINE uint64_t fxt__hdr_magic(void) { return FXT_MAGIC_RECORD; }

FXT__INLINE uint64_t fxt__hdr_provider_info(uint32_t provider_id, uint32_t name_len) {
    return fxt__hdr(FXT_RECORD_METADATA, 1 + fxt_words(name_len)) |
           fxt_put_meta_type(FXT_META_PROVIDER_INFO) | fxt_put_meta_provider_id(provider_id) |
           fxt_put_meta_name_len(name_len);
}

FXT__INLINE uint64_t fxt__hdr_provider_section(uint32_t provider_id) {
    return fxt__hdr(FXT_RECORD_METADATA, 1) | fxt_put_meta_type(FXT_META_PROVIDER_SECTION) |
           fxt_put_meta_provider_id(provider_id);
}

FXT__INLINE uint64_t fxt__hdr_provider_event(uint32_t provider_id, uint32_t event) {
    return fxt__hdr(FXT_RECORD_METADATA, 1) | fxt_put_meta_type(FXT_META_PROVIDER_EVENT) |
           fxt_put_meta_provider_id(provider_id) | fxt_put_meta_event_id(event);
}

FXT__INLINE uint64_t fxt__hdr_trace_info(uint32_t info_type, uint64_t data) {
    return fxt__hdr(FXT_RECORD_METADATA, 1) | fxt_put_meta_type(FXT_META_TRACE_INFO) |
           fxt_put_meta_trace_info_type(info_type) | fxt_put_meta_trace_info_data(data);
}

/* Followed by the ticks-per-second word. */
FXT__INLINE uint64_t fxt__hdr_init(void) { return fxt__hdr(FXT_RECORD_INITIALIZATION, 2); }

/* Followed by `len` bytes (clamped: fxt__str_clamp). */
FXT__INLINE uint64_t fxt__hdr_string(uint32_t index, uint32_t len) {
    return fxt__hdr(FXT_RECORD_STRING, 1 + fxt_words(len)) | fxt_put_string_index(index) |
           fxt_put_string_len(len);
}

/* Followed by the process and thread koids. */
FXT__INLINE uint64_t fxt__hdr_thread(uint32_t index) {
    return fxt__hdr(FXT_RECORD_THREAD, 3) | fxt_put_thread_index(index);
}

FXT__INLINE uint64_t fxt__hdr_event(uint32_t type, unsigned nargs, uint8_t thread_ref, uint16_t category_ref,
                                    uint16_t name_ref, uint64_t words) {
    return fxt__hdr(FXT_RECORD_EVENT, words) | fxt_put_event_type(type) | fxt_put_event_nargs(nargs) |
           fxt_put_event_thread(thread_ref) | fxt_put_event_category(category_ref) |
           fxt_put_event_name(name_ref);
}

/* The word after an event's arguments: 1 for an id (counter, async, flow) or an end timestamp (complete). */
FXT__INLINE unsigned fxt__event_tail_words(uint32_t type) {
    return (unsigned)(fxt_event_has_id(type) || fxt_event_has_end_ts(type));
}

FXT__INLINE uint64_t fxt__hdr_blob(uint64_t words, uint16_t name_ref, uint64_t size, uint32_t blob_type) {
    return fxt__hdr(FXT_RECORD_BLOB, words) | fxt_put_blob_name(name_ref) | fxt_put_blob_size(size) |
           fxt_put_blob_type(blob_type);
}

FXT__INLINE uint64_t fxt__hdr_userspace_object(uint64_t words, uint8_t process_ref, uint16_t name_ref,
                                               unsigned nargs) {
    return fxt__hdr(FXT_RECORD_USERSPACE_OBJECT, words) | fxt_put_uobj_process(process_ref) |
           fxt_put_uobj_name(name_ref) | fxt_put_uobj_nargs(nargs);
}

FXT__INLINE uint64_t fxt__hdr_kernel_object(uint64_t words, uint32_t obj_type, uint16_t name_ref,
                                            unsigned nargs) {
    return fxt__hdr(FXT_RECORD_KERNEL_OBJECT, words) | fxt_put_kobj_type(obj_type) |
           fxt_put_kobj_name(name_ref) | fxt_put_kobj_nargs(nargs);
}

FXT__INLINE uint64_t fxt__hdr_context_switch(uint64_t words, unsigned nargs, uint32_t cpu,
                                             uint32_t out_state) {
    return fxt__hdr(FXT_RECORD_SCHEDULING, words) | fxt_put_cswitch_nargs(nargs) | fxt_put_cswitch_cpu(cpu) |
           fxt_put_cswitch_out_state(out_state) | fxt_put_sched_type(FXT_SCHED_CONTEXT_SWITCH);
}

FXT__INLINE uint64_t fxt__hdr_thread_wakeup(uint64_t words, unsigned nargs, uint32_t cpu) {
    return fxt__hdr(FXT_RECORD_SCHEDULING, words) | fxt_put_wakeup_nargs(nargs) | fxt_put_wakeup_cpu(cpu) |
           fxt_put_sched_type(FXT_SCHED_THREAD_WAKEUP);
}

FXT__INLINE uint64_t fxt__hdr_legacy_context_switch(uint64_t words, uint32_t cpu, uint32_t out_state,
                                                    uint8_t out_ref, uint8_t in_ref, uint32_t out_prio,
                                                    uint32_t in_prio) {
    return fxt__hdr(FXT_RECORD_SCHEDULING, words) | fxt_put_lcswitch_cpu(cpu) |
           fxt_put_lcswitch_out_state(out_state) | fxt_put_lcswitch_out_thread(out_ref) |
           fxt_put_lcswitch_in_thread(in_ref) | fxt_put_lcswitch_out_prio(out_prio) |
           fxt_put_lcswitch_in_prio(in_prio) | fxt_put_sched_type(FXT_SCHED_LEGACY_CONTEXT_SWITCH);
}

FXT__INLINE uint64_t fxt__hdr_log(uint64_t words, uint32_t len, uint8_t thread_ref) {
    return fxt__hdr(FXT_RECORD_LOG, words) | fxt_put_log_len(len) | fxt_put_log_thread(thread_ref);
}

/* Large records carry a 32-bit size ([4..35]), not the 12-bit one. */
FXT__INLINE uint64_t fxt__hdr_large_blob(uint64_t words, uint32_t format) {
    return fxt_put_rec_type(FXT_RECORD_LARGE) | fxt_put_large_size(words) |
           fxt_put_large_type(FXT_LARGE_BLOB) | fxt_put_large_blob_format(format);
}

/* The large blob's format header word; nargs and thread only with metadata (format 0). */
FXT__INLINE uint64_t fxt__large_blob_format_word(uint16_t category_ref, uint16_t name_ref, int meta,
                                                 unsigned nargs, uint8_t thread_ref) {
    uint64_t w = fxt_put_lblob_category(category_ref) | fxt_put_lblob_name(name_ref);
    if (meta) {
        w |= fxt_put_lblob_nargs(nargs) | fxt_put_lblob_thread(thread_ref);
    }
    return w;
}

/* ---- field limits shared by the writer and the encoders ------------------------------------------ */

FXT__INLINE fxt_status fxt__check_context_switch(uint32_t cpu, uint32_t out_state) {
    return cpu > FXT_MAX_CPU || out_state > FXT_MAX_THREAD_STATE ? FXT_E_INVALID_ARG : FXT_OK;
}

FXT__INLINE fxt_status fxt__check_thread_wakeup(uint32_t cpu) {
    return cpu > FXT_MAX_CPU ? FXT_E_INVALID_ARG : FXT_OK;
}

FXT__INLINE fxt_status fxt__check_legacy_context_switch(uint32_t cpu, uint32_t out_state, uint32_t out_prio,
                                                        uint32_t in_prio) {
    return cpu > FXT_MAX_LEGACY_CPU || out_state > FXT_MAX_THREAD_STATE || out_prio > FXT_MAX_PRIORITY ||
                   in_prio > FXT_MAX_PRIORITY
               ? FXT_E_INVALID_ARG
               : FXT_OK;
}

FXT__INLINE fxt_status fxt__check_provider_event(uint32_t event) {
    return event > FXT_MAX_PROVIDER_EVENT ? FXT_E_INVALID_ARG : FXT_OK;
}

/* Type 0 is the magic record, written by fxt_write_magic()/fxt_encode_magic() only. */
FXT__INLINE fxt_status fxt__check_trace_info(uint32_t info_type, uint64_t data) {
    return info_type == FXT_TRACE_INFO_MAGIC || info_type > FXT_MAX_TRACE_INFO_TYPE ||
                   data > FXT_MAX_TRACE_INFO_DATA
               ? FXT_E_INVALID_ARG
               : FXT_OK;
}

FXT__INLINE fxt_status fxt__check_provider_name(fxt_str_t name) {
    if (name.ptr == NULL && name.len != 0) {
        return FXT_E_INVALID_ARG;
    }
    return name.len > FXT_MAX_PROVIDER_NAME_LEN ? FXT_E_STRING_TOO_LONG : FXT_OK;
}

FXT__INLINE fxt_status fxt__check_object_type(uint32_t obj_type) {
    return obj_type > FXT_MAX_OBJ_TYPE ? FXT_E_INVALID_ARG : FXT_OK;
}

/* A blob record: its type fits 8 bits and its size the 15-bit field. */
FXT__INLINE fxt_status fxt__check_blob(uint32_t blob_type, const void *data, size_t size) {
    if (blob_type > FXT_MAX_BLOB_TYPE || (data == NULL && size != 0)) {
        return FXT_E_INVALID_ARG;
    }
    return size > FXT_MAX_BLOB_SIZE ? FXT_E_RECORD_TOO_LARGE : FXT_OK;
}

/* ---- arguments ------------------------------------------------------------------------------------ */

/* Words of one argument: header, inline name, then a value word or an inline string value. */
FXT__INLINE uint64_t fxt__arg_words(unsigned type, const fxt__estr_t *name, const fxt__estr_t *sval) {
    uint64_t w = 1 + fxt__estr_words(name) + (uint64_t)fxt_arg_has_value_word(type);
    if (type == FXT_ARG_STRING) {
        w += fxt__estr_words(sval);
    }
    return w;
}

/*
 * One argument: `name` resolved; `sval` the string value's (read only for
 * FXT_ARG_STRING; may be NULL otherwise). One switch decides the header's
 * value bits, the size and the value word together: the encoders' hot loops
 * lost ~5 % when these were separate helpers with a branch each.
 */
FXT__INLINE uint8_t *fxt__put_arg(uint8_t *p, int swap, const fxt_arg_t *a, const fxt__estr_t *name,
                                  const fxt__estr_t *sval) {
    uint64_t words = 1 + fxt__estr_words(name);
    uint64_t data = 0, value = 0;
    int has_value = 0; /* the switch decides it too: a separate fxt_arg_has_value_word() test
                          per argument was 2-3 % of the interned writer's instructions */
    switch (a->type) {
    case FXT_ARG_INT32:
        data = fxt_put_arg_i32((uint32_t)a->v.i32);
        break;
    case FXT_ARG_UINT32:
        data = fxt_put_arg_i32(a->v.u32);
        break;
    case FXT_ARG_BOOL:
        data = fxt_put_arg_bool(a->v.boolean ? 1u : 0u);
        break;
    case FXT_ARG_STRING:
        data = fxt_put_arg_str_value(sval->ref);
        words += fxt__estr_words(sval);
        break;
    case FXT_ARG_DOUBLE:
        memcpy(&value, &a->v.f64, sizeof value);
        has_value = 1;
        break;
    case FXT_ARG_INT64:
    case FXT_ARG_UINT64:
    case FXT_ARG_POINTER:
    case FXT_ARG_KOID:
        value = a->v.u64; /* the union's 64 bits */
        has_value = 1;
        break;
    default: /* null */
        break;
    }
    words += (uint64_t)has_value;
    p = fxt__put_word(
        p, fxt_put_arg_type(a->type) | fxt_put_arg_size(words) | fxt_put_arg_name(name->ref) | data, swap);
    p = fxt__put_estr(p, name);
    if (has_value) {
        p = fxt__put_word(p, value, swap);
    } else if (a->type == FXT_ARG_STRING) {
        p = fxt__put_estr(p, sval);
    }
    return p;
}

/*
 * The same argument in two steps, for callers that encode one call site's
 * arguments many times (the trace engine): the header word but for its value
 * bits depends only on the type and an indexed name, so it is computed once
 * (fxt__arg_hdr_fixed) and each event adds the value (fxt__put_arg_fixed).
 * Not for FXT_ARG_STRING. The words match fxt__put_arg's (a unit test checks).
 */
FXT__INLINE uint64_t fxt__arg_hdr_fixed(unsigned type, uint16_t name_ref) {
    return fxt_put_arg_type(type) | fxt_put_arg_size(1u + (unsigned)fxt_arg_has_value_word(type)) |
           fxt_put_arg_name(name_ref);
}

/* `n` arguments whose names and string values are resolved in names[i] and svals[i]. */
FXT__INLINE uint8_t *fxt__put_args(uint8_t *p, int swap, const fxt_arg_t *args, unsigned n,
                                   const fxt__estr_t *names, const fxt__estr_t *svals) {
    for (unsigned i = 0; i < n; i++) {
        p = fxt__put_arg(p, swap, &args[i], &names[i], &svals[i]);
    }
    return p;
}

/* `bits`: the value as fxt__targ_t carries it ((u)int32 zero-extended, a double's bits, bool 0/1). */
FXT__INLINE uint8_t *fxt__put_arg_fixed(uint8_t *p, int swap, uint64_t hdr, unsigned type, uint64_t bits) {
    switch (type) {
    case FXT_ARG_INT32:
    case FXT_ARG_UINT32:
        return fxt__put_word(p, hdr | fxt_put_arg_i32((uint32_t)bits), swap);
    case FXT_ARG_BOOL:
        return fxt__put_word(p, hdr | fxt_put_arg_bool(bits != 0), swap);
    case FXT_ARG_NULL:
        return fxt__put_word(p, hdr, swap);
    default: /* int64, uint64, double, pointer, koid: a value word */
        p = fxt__put_word(p, hdr, swap);
        return fxt__put_word(p, bits, swap);
    }
}

#endif /* FXT_ENCODE_H */
