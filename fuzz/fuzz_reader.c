/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for the reader: decodes the input as one buffer and again in
 * chunks split at points derived from the data, and once more whole with
 * FXT_READ_LAZY_ARGS (arguments decoded by fxt_reader_args after each
 * record); every run must report the same sequence of (status, kind, offset,
 * argument count). Any crash, out-of-bounds read (under ASan) or divergence
 * is a bug.
 */
#include <fxt/reader.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LOG 4096

typedef struct {
    int status, kind;
    uint64_t offset;
    unsigned nargs;
} item_t;

static size_t run(const uint8_t *data, size_t size, int chunked, int lazy, item_t *log) {
    fxt_reader_t *r = NULL;
    fxt_reader_options_t opt = FXT_READER_OPTIONS_INIT;
    opt.flags = lazy ? FXT_READ_LAZY_ARGS : 0u;
    if (fxt_reader_create(&opt, &r) != FXT_OK) {
        abort();
    }
    size_t n = 0, pos = 0;
    uint32_t seed = 0x9e3779b9u;
    for (size_t i = 0; i < size && i < 16; i++) {
        seed = seed * 31u + data[i];
    }
    fxt_record_t rec;
    int stopped = 0;
    while (!stopped) {
        size_t len = size - pos;
        if (chunked) {
            seed = seed * 1103515245u + 12345u;
            len = 1 + (seed >> 16) % 97u;
            if (len > size - pos) {
                len = size - pos;
            }
        }
        fxt_in_buffer_t in = {data + pos, len, 0};
        for (;;) {
            fxt_status st = fxt_reader_next(r, &in, &rec);
            if (st == FXT_NEED_INPUT) {
                break;
            }
            if (st == FXT_END) {
                stopped = 1;
                break;
            }
            if (st == FXT_OK && lazy && fxt_reader_args(r, &rec) != FXT_OK) {
                abort(); /* the arguments were checked when the record was read */
            }
            if (n < MAX_LOG) {
                log[n].nargs = st == FXT_OK ? rec.nargs : 0;
                log[n].status = st;
                log[n].kind = st == FXT_OK ? (int)rec.kind : -1;
                log[n].offset = st == FXT_OK ? rec.offset : fxt_reader_diag(r)->offset;
                n++;
            }
            if (st == FXT_OK && rec.kind == FXT_KIND_EVENT) {
                /* touch every view so ASan checks its bounds */
                volatile uint8_t sink = 0;
                for (uint32_t i = 0; i < rec.u.event.name.len && rec.u.event.name.ptr; i++) {
                    sink ^= (uint8_t)rec.u.event.name.ptr[i];
                }
                for (unsigned a = 0; a < rec.nargs; a++) {
                    for (uint32_t i = 0; i < rec.args[a].name.len && rec.args[a].name.ptr; i++) {
                        sink ^= (uint8_t)rec.args[a].name.ptr[i];
                    }
                }
                (void)sink;
            }
        }
        pos += len;
        if (pos >= size) {
            break;
        }
    }
    fxt_status st = fxt_reader_finish(r);
    if (st != FXT_OK && n < MAX_LOG) {
        log[n].nargs = 0;
        log[n].status = st;
        log[n].kind = -1;
        log[n].offset = fxt_reader_diag(r)->offset;
        n++;
    }
    fxt_reader_destroy(r);
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static item_t a[MAX_LOG], b[MAX_LOG], c[MAX_LOG];
    memset(a, 0, sizeof a); /* padding compared by memcmp */
    memset(b, 0, sizeof b);
    memset(c, 0, sizeof c);
    size_t na = run(data, size, 0, 0, a);
    size_t nb = run(data, size, 1, 0, b);
    size_t nc = run(data, size, 0, 1, c);
    if (na != nb || memcmp(a, b, na * sizeof a[0]) != 0 || na != nc || memcmp(a, c, na * sizeof a[0]) != 0) {
        abort();
    }
    return 0;
}
