/* SPDX-License-Identifier: MIT */
/* gzip (zlib) and zstd (libzstd) streams for FXT: compressing sink and decompressor. */
#include <fxt/zio.h>

#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

/* 128 KiB of compressed output per pass: about what zstd's streaming API recommends
 * (ZSTD_CStreamOutSize), and plenty for deflate. */
#define ZBUF (1u << 17)

/* Magic bytes, not file names: works on pipes. gzip 1f 8b (RFC 1952), zstd 28 b5 2f fd (RFC 8878). */
fxt_zio_format fxt_zio_detect(const void *data, size_t len) {
    const uint8_t *p = data;
    if (len >= 2 && p[0] == 0x1f && p[1] == 0x8b) {
        return FXT_ZIO_GZIP;
    }
    if (len >= 4 && p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f && p[3] == 0xfd) {
        return FXT_ZIO_ZSTD;
    }
    return FXT_ZIO_NONE;
}

static int ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

fxt_zio_format fxt_zio_format_from_path(const char *path) {
    if (path == NULL) {
        return FXT_ZIO_NONE;
    }
    if (ends_with(path, ".gz")) {
        return FXT_ZIO_GZIP;
    }
    if (ends_with(path, ".zst") || ends_with(path, ".zstd")) {
        return FXT_ZIO_ZSTD;
    }
    return FXT_ZIO_NONE;
}

const char *fxt_zio_format_name(fxt_zio_format f) {
    return f == FXT_ZIO_GZIP ? "gzip" : f == FXT_ZIO_ZSTD ? "zstd" : "none";
}

/* ---- compressing sink ------------------------------------------------------------- */

struct fxt_zsink {
    fxt_zio_format fmt;
    fxt_sink_t down;
    z_stream gz;
    ZSTD_CStream *zs;
    uint8_t *buf;
    fxt_status status;
    int finished;
};

static fxt_status zsink_write(void *ctx, const void *data, size_t len);

/* A sink that compresses into DOWN; LEVEL 0 picks the format's usual default (gzip 6, zstd 3). */
fxt_status fxt_zsink_create(fxt_zio_format fmt, int level, fxt_sink_t down, fxt_zsink_t **out) {
    if (out == NULL || down.write == NULL || (fmt != FXT_ZIO_GZIP && fmt != FXT_ZIO_ZSTD)) {
        return FXT_E_INVALID_ARG;
    }
    fxt_zsink_t *z = calloc(1, sizeof *z);
    if (z == NULL) {
        return FXT_E_NOMEM;
    }
    z->fmt = fmt;
    z->down = down;
    z->buf = malloc(ZBUF);
    if (z->buf == NULL) {
        free(z);
        return FXT_E_NOMEM;
    }
    if (fmt == FXT_ZIO_GZIP) {
        /* windowBits 15 + 16: a gzip header and trailer */
        if (deflateInit2(&z->gz, level ? level : 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
            free(z->buf);
            free(z);
            return FXT_E_NOMEM;
        }
    } else {
        z->zs = ZSTD_createCStream();
        if (z->zs == NULL || ZSTD_isError(ZSTD_initCStream(z->zs, level ? level : 3))) {
            ZSTD_freeCStream(z->zs);
            free(z->buf);
            free(z);
            return FXT_E_NOMEM;
        }
    }
    *out = z;
    return FXT_OK;
}

fxt_sink_t fxt_zsink_sink(fxt_zsink_t *z) {
    fxt_sink_t s = {zsink_write, z};
    return s;
}

/* Runs deflate until it has consumed its input (or, with Z_FINISH, written the trailer),
 * passing every full output buffer down. */
static fxt_status gz_pump(fxt_zsink_t *z, int flush) {
    int r;
    do {
        z->gz.next_out = z->buf;
        z->gz.avail_out = ZBUF;
        r = deflate(&z->gz, flush);
        if (r == Z_STREAM_ERROR) {
            return FXT_E_CORRUPT;
        }
        size_t have = ZBUF - z->gz.avail_out;
        if (have) {
            fxt_status st = z->down.write(z->down.ctx, z->buf, have);
            if (st != FXT_OK) {
                return st;
            }
        }
        /* A full output buffer means deflate may have more pending; Z_FINISH must reach STREAM_END. */
    } while (z->gz.avail_out == 0 || (flush == Z_FINISH && r != Z_STREAM_END));
    return FXT_OK;
}

/* The sink's write: compresses DATA, passing output down as the buffer fills. */
static fxt_status zsink_write(void *ctx, const void *data, size_t len) {
    fxt_zsink_t *z = ctx;
    /* Errors are sticky: after a failed write the stream is broken, so nothing more goes down. */
    if (z->status != FXT_OK) {
        return z->status;
    }
    if (z->fmt == FXT_ZIO_GZIP) {
        const uint8_t *p = data;
        while (len > 0) {
            /* zlib counts in uInt (32 bits): feed size_t lengths in 1 GiB pieces. */
            uInt n = len > 0x40000000u ? 0x40000000u : (uInt)len;
            z->gz.next_in = (Bytef *)(uintptr_t)p;
            z->gz.avail_in = n;
            fxt_status st = gz_pump(z, Z_NO_FLUSH);
            if (st != FXT_OK) {
                return z->status = st;
            }
            p += n;
            len -= n;
        }
        return FXT_OK;
    }
    ZSTD_inBuffer in = {data, len, 0};
    /* ZSTD_compressStream may not take all input at once when the output buffer fills: loop. */
    while (in.pos < in.size) {
        ZSTD_outBuffer ob = {z->buf, ZBUF, 0};
        size_t r = ZSTD_compressStream(z->zs, &ob, &in);
        if (ZSTD_isError(r)) {
            return z->status = FXT_E_CORRUPT;
        }
        if (ob.pos) {
            fxt_status st = z->down.write(z->down.ctx, z->buf, ob.pos);
            if (st != FXT_OK) {
                return z->status = st;
            }
        }
    }
    return FXT_OK;
}

/* Writes the stream's trailer; once only, so a second call cannot append another. */
fxt_status fxt_zsink_finish(fxt_zsink_t *z) {
    if (z == NULL) {
        return FXT_E_INVALID_ARG;
    }
    if (z->status != FXT_OK || z->finished) {
        return z->status;
    }
    z->finished = 1;
    if (z->fmt == FXT_ZIO_GZIP) {
        z->gz.next_in = NULL;
        z->gz.avail_in = 0;
        return z->status = gz_pump(z, Z_FINISH);
    }
    size_t left;
    do {
        ZSTD_outBuffer ob = {z->buf, ZBUF, 0};
        /* Returns the bytes still to flush: call until 0. */
        left = ZSTD_endStream(z->zs, &ob);
        if (ZSTD_isError(left)) {
            return z->status = FXT_E_CORRUPT;
        }
        if (ob.pos) {
            fxt_status st = z->down.write(z->down.ctx, z->buf, ob.pos);
            if (st != FXT_OK) {
                return z->status = st;
            }
        }
    } while (left != 0);
    return FXT_OK;
}

void fxt_zsink_destroy(fxt_zsink_t *z) {
    if (z == NULL) {
        return;
    }
    if (z->fmt == FXT_ZIO_GZIP) {
        deflateEnd(&z->gz);
    } else {
        ZSTD_freeCStream(z->zs);
    }
    free(z->buf);
    free(z);
}

/* ---- decompressor ------------------------------------------------------------------ */

struct fxt_zdec {
    fxt_zio_format fmt;
    z_stream gz;
    ZSTD_DStream *zs;
    int in_frame; /* inside a gzip member / zstd frame */
};

/* A streaming decompressor for FMT; the caller supplies input and output buffers per call. */
fxt_status fxt_zdec_create(fxt_zio_format fmt, fxt_zdec_t **out) {
    if (out == NULL || (fmt != FXT_ZIO_GZIP && fmt != FXT_ZIO_ZSTD)) {
        return FXT_E_INVALID_ARG;
    }
    fxt_zdec_t *d = calloc(1, sizeof *d);
    if (d == NULL) {
        return FXT_E_NOMEM;
    }
    d->fmt = fmt;
    if (fmt == FXT_ZIO_GZIP) {
        /* 15 + 16: gzip wrapper only (not raw deflate or zlib), 32 KiB window. */
        if (inflateInit2(&d->gz, 15 + 16) != Z_OK) {
            free(d);
            return FXT_E_NOMEM;
        }
    } else {
        d->zs = ZSTD_createDStream();
        if (d->zs == NULL || ZSTD_isError(ZSTD_initDStream(d->zs))) {
            ZSTD_freeDStream(d->zs);
            free(d);
            return FXT_E_NOMEM;
        }
    }
    *out = d;
    return FXT_OK;
}

/* Decompresses from src[*pos..len) into dst[0..cap); stops when output is full or no progress
 * is possible, so the caller decides when to read more input. Concatenated gzip members and
 * zstd frames are read as one stream (as gzip -d and zstd -d do). */
fxt_status fxt_zdec_run(fxt_zdec_t *d, const void *src, size_t len, size_t *pos, void *dst, size_t cap,
                        size_t *produced) {
    const uint8_t *s = src;
    *produced = 0;
    if (d->fmt == FXT_ZIO_GZIP) {
        for (;;) {
            size_t avail = len - *pos;
            d->gz.next_in = (Bytef *)(uintptr_t)(s + *pos);
            d->gz.avail_in = (uInt)(avail > 0x40000000u ? 0x40000000u : avail);
            d->gz.next_out = (Bytef *)dst + *produced;
            /* Both sides clamped to 1 GiB: zlib's counters are uInt. */
            d->gz.avail_out = (uInt)(cap - *produced > 0x40000000u ? 0x40000000u : cap - *produced);
            uInt before_in = d->gz.avail_in, before_out = d->gz.avail_out;
            int r = inflate(&d->gz, Z_NO_FLUSH);
            *pos += before_in - d->gz.avail_in;
            *produced += before_out - d->gz.avail_out;
            if (r == Z_STREAM_END) {
                d->in_frame = 0;
                inflateReset(&d->gz); /* a concatenated member may follow */
                if (*pos == len || *produced == cap) {
                    break;
                }
                continue;
            }
            if (r == Z_BUF_ERROR) {
                break; /* no progress possible: needs input or output space */
            }
            if (r != Z_OK) {
                return FXT_E_CORRUPT;
            }
            d->in_frame = 1;
            if (*produced == cap) {
                break;
            }
        }
        return FXT_OK;
    }
    ZSTD_inBuffer in = {s, len, *pos};
    ZSTD_outBuffer ob = {dst, cap, 0};
    for (;;) {
        size_t in_before = in.pos, out_before = ob.pos;
        size_t r = ZSTD_decompressStream(d->zs, &ob, &in);
        if (ZSTD_isError(r)) {
            return FXT_E_CORRUPT;
        }
        if (in.pos == in_before && ob.pos == out_before) {
            break; /* no progress: needs more input (r is then a hint for the next frame) */
        }
        d->in_frame = r != 0; /* 0: a frame ended and everything was flushed */
        if (ob.pos == ob.size) {
            break; /* output full: the caller calls again */
        }
    }
    *pos = in.pos;
    *produced = ob.pos;
    return FXT_OK;
}

/* Input ended inside a gzip member or zstd frame: the stream was cut short. */
fxt_status fxt_zdec_finish(const fxt_zdec_t *d) { return d->in_frame ? FXT_E_TRUNCATED : FXT_OK; }

void fxt_zdec_destroy(fxt_zdec_t *d) {
    if (d == NULL) {
        return;
    }
    if (d->fmt == FXT_ZIO_GZIP) {
        inflateEnd(&d->gz);
    } else {
        ZSTD_freeDStream(d->zs);
    }
    free(d);
}
