/* Internal helpers shared by the writer and the stateless encoders. */
#ifndef FXT_WRITER_INTERNAL_H
#define FXT_WRITER_INTERNAL_H

#include <fxt/format.h>

#include <stdint.h>

/*
 * Length of a string clamped to FXT_MAX_STRING_LEN (32000) bytes, cut at a
 * UTF-8 boundary: the byte after the cut never continues a sequence.
 */
static inline uint32_t fxt__utf8_clamp(const char *p, uint32_t len) {
    if (len <= FXT_MAX_STRING_LEN) {
        return len;
    }
    uint32_t n = FXT_MAX_STRING_LEN;
    /* p[n] is the first byte dropped: back up while it continues a sequence */
    while (n > 0 && ((unsigned char)p[n] & 0xc0) == 0x80) {
        n--;
    }
    return n;
}

/* Words taken by the value part of an argument of a known type (besides header and name). */
static inline uint64_t fxt__arg_value_words(unsigned type) {
    switch (type) {
    case FXT_ARG_INT64:
    case FXT_ARG_UINT64:
    case FXT_ARG_DOUBLE:
    case FXT_ARG_POINTER:
    case FXT_ARG_KOID:
        return 1;
    default:
        return 0;
    }
}

#include <fxt/writer.h>

/* fxt_encode_event() in either byte order (swap: words opposite to the host's). */
fxt_status fxt__encode_event(void *buf, size_t cap, size_t *size, const fxt_enc_event_t *ev, int swap);

#endif /* FXT_WRITER_INTERNAL_H */
