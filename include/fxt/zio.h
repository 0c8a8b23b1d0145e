/* SPDX-License-Identifier: MIT */
/*
 * libfxt_zio: gzip and zstd compression for FXT streams (optional library,
 * linked with zlib and libzstd; the core libfxt stays dependency-free).
 *
 * Writing: wrap any fxt_sink_t in a compressing sink and hand that to the
 * writer (or the instrumentation session):
 *
 *     fxt_zsink_t *z;
 *     fxt_zsink_create(FXT_ZIO_ZSTD, 0, fxt_sink_fd(&fd), &z);
 *     fxt_writer_create(NULL, fxt_zsink_sink(z), &w);
 *     ... fxt_writer_finish(w); fxt_zsink_finish(z); fxt_zsink_destroy(z);
 *
 * Reading: fxt_zio_detect() recognises compressed data by its magic bytes;
 * fxt_zdec_t turns compressed chunks into decompressed chunks.
 */
#ifndef FXT_ZIO_H
#define FXT_ZIO_H

#include <fxt/common.h>
#include <fxt/writer.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum fxt_zio_format { FXT_ZIO_NONE = 0, FXT_ZIO_GZIP = 1, FXT_ZIO_ZSTD = 2 } fxt_zio_format;

/** Format from the first bytes (gzip 1f 8b, zstd 28 b5 2f fd); NONE otherwise. */
FXT_API fxt_zio_format fxt_zio_detect(const void *data, size_t len);
/** Format from a file name: ".gz" -> GZIP, ".zst"/".zstd" -> ZSTD, else NONE. */
FXT_API fxt_zio_format fxt_zio_format_from_path(const char *path);
/** "none", "gzip", "zstd". */
FXT_API const char *fxt_zio_format_name(fxt_zio_format f);

typedef struct fxt_zsink fxt_zsink_t;
/** A sink that compresses into `down`. level 0 = the codec's default. */
FXT_API fxt_status fxt_zsink_create(fxt_zio_format fmt, int level, fxt_sink_t down, fxt_zsink_t **out);
FXT_API fxt_sink_t fxt_zsink_sink(fxt_zsink_t *z);
/** Write the end of the compressed stream (call once, after the writer finished). */
FXT_API fxt_status fxt_zsink_finish(fxt_zsink_t *z);
FXT_API void fxt_zsink_destroy(fxt_zsink_t *z);

typedef struct fxt_zdec fxt_zdec_t;
FXT_API fxt_status fxt_zdec_create(fxt_zio_format fmt, fxt_zdec_t **out);
/**
 * Decompress from src[*pos..len) into dst[0..cap): advances *pos, sets
 * *produced. Call again with the same input until *pos == len and
 * *produced < cap. Concatenated gzip members / zstd frames are handled.
 * FXT_E_CORRUPT on invalid compressed data.
 */
FXT_API fxt_status fxt_zdec_run(fxt_zdec_t *d, const void *src, size_t len, size_t *pos, void *dst,
                                size_t cap, size_t *produced);
/** FXT_OK when the compressed stream ended cleanly, FXT_E_TRUNCATED if cut. */
FXT_API fxt_status fxt_zdec_finish(const fxt_zdec_t *d);
FXT_API void fxt_zdec_destroy(fxt_zdec_t *d);

#ifdef __cplusplus
}
#endif

#endif
