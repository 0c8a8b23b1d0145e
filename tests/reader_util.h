/* SPDX-License-Identifier: MIT */
/*
 * Test helpers for reader tests: a word buffer that writes hand-computed
 * words in either byte order, and a decoder that records what the reader
 * returned (kind, offset, status) so runs can be compared.
 */
#ifndef FXT_TEST_READER_UTIL_H
#define FXT_TEST_READER_UTIL_H

#include <fxt/reader.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct tbuf {
    uint8_t *p;
    size_t len, cap;
    int be; /* write words big-endian */
} tbuf_t;

static void tb_reserve(tbuf_t *b, size_t n) {
    if (b->len + n > b->cap) {
        size_t nc = b->cap ? b->cap * 2 : 4096;
        while (nc < b->len + n) {
            nc *= 2;
        }
        b->p = (uint8_t *)realloc(b->p, nc);
        if (b->p == NULL) {
            abort();
        }
        b->cap = nc;
    }
}

/* One 64-bit word in the buffer's byte order. */
static void tb_w(tbuf_t *b, uint64_t v) {
    uint8_t bytes[8];
    for (int i = 0; i < 8; i++) {
        bytes[i] = (uint8_t)(b->be ? (v >> (56 - 8 * i)) : (v >> (8 * i)));
    }
    tb_reserve(b, 8);
    memcpy(b->p + b->len, bytes, 8);
    b->len += 8;
}

/* A byte stream (string), padded with zeros to 8 bytes. */
static void tb_s(tbuf_t *b, const char *s, size_t n) {
    size_t padded = (n + 7) & ~(size_t)7;
    tb_reserve(b, padded);
    memset(b->p + b->len, 0, padded);
    memcpy(b->p + b->len, s, n);
    b->len += padded;
}
#define TB_S(b, lit) tb_s((b), (lit), sizeof(lit) - 1)

static void tb_free(tbuf_t *b) {
    free(b->p);
    memset(b, 0, sizeof *b);
}

/* What the reader returned for one call. */
typedef struct tevent {
    int status;
    int kind;
    uint64_t offset;
} tevent_t;

typedef struct tlog {
    tevent_t *v;
    size_t n, cap;
} tlog_t;

static void tl_push(tlog_t *l, int status, int kind, uint64_t offset) {
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 256;
        l->v = (tevent_t *)realloc(l->v, l->cap * sizeof *l->v);
        if (l->v == NULL) {
            abort();
        }
    }
    l->v[l->n].status = status;
    l->v[l->n].kind = kind;
    l->v[l->n].offset = offset;
    l->n++;
}

/*
 * Decode `data` fed in chunks: chunk sizes come from `next_chunk` (or the whole
 * buffer when NULL). Records every record and error, and the end status.
 */
static void decode_log(const uint8_t *data, size_t len, size_t (*next_chunk)(void *), void *ctx,
                       tlog_t *out) {
    fxt_reader_t *r = NULL;
    if (fxt_reader_create(NULL, &r) != FXT_OK) {
        abort();
    }
    size_t pos = 0;
    fxt_record_t rec;
    int stopped = 0;
    while (!stopped) {
        size_t n = next_chunk ? next_chunk(ctx) : len - pos;
        if (n > len - pos) {
            n = len - pos;
        }
        fxt_in_buffer_t in = {data + pos, n, 0};
        for (;;) {
            fxt_status st = fxt_reader_next(r, &in, &rec);
            if (st == FXT_OK) {
                tl_push(out, 0, (int)rec.kind, rec.offset);
            } else if (st == FXT_NEED_INPUT) {
                break;
            } else if (st == FXT_END) {
                stopped = 1;
                break;
            } else {
                tl_push(out, st, -1, fxt_reader_diag(r)->offset);
            }
        }
        pos += n;
        if (pos >= len) {
            break;
        }
    }
    fxt_status st = fxt_reader_finish(r);
    if (st != FXT_OK) {
        tl_push(out, st, -1, fxt_reader_diag(r)->offset);
    }
    fxt_reader_destroy(r);
}

#endif
