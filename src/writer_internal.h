/* SPDX-License-Identifier: MIT */
/* Internal declarations shared by the writer, the stateless encoders and the merger. */
#ifndef FXT_WRITER_INTERNAL_H
#define FXT_WRITER_INTERNAL_H

#include <fxt/writer.h>

#include "encode.h" /* the encoding core: headers, arguments, limits, truncation */

/* Return the status of expr from the calling function unless it is FXT_OK. */
#define TRY(expr)                                                                                            \
    do {                                                                                                     \
        fxt_status st_ = (expr);                                                                             \
        if (st_ != FXT_OK) {                                                                                 \
            return st_;                                                                                      \
        }                                                                                                    \
    } while (0)

/* fxt_encode_event() in either byte order (swap: words opposite to the host's). */
fxt_status fxt__encode_event(void *buf, size_t cap, size_t *size, const fxt_event_desc_t *ev, int swap);

/* 1 when the writer stores words in the opposite of the host's byte order. */
int fxt__writer_swapped(const fxt_writer_t *w);

#endif /* FXT_WRITER_INTERNAL_H */
