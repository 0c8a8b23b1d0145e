/* SPDX-License-Identifier: MIT */
/* An installed-libfxt consumer: writes a trace with the writer, reads it back
 * with the reader (and, when built with fxt::zio, through a zstd round trip). */
#include <fxt/reader.h>
#include <fxt/writer.h>
#ifdef WITH_ZIO
#include <fxt/zio.h>
#endif

#include <stdio.h>

int main(void) {
    fxt_membuf_t mem = {0};
    fxt_writer_t *w;
#ifdef WITH_ZIO
    /* write zstd-compressed, then decompress before reading */
    fxt_membuf_t z = {0};
    fxt_zsink_t *zs;
    if (fxt_zsink_create(FXT_ZIO_ZSTD, 0, fxt_sink_membuf(&z), &zs) != FXT_OK ||
        fxt_writer_create(NULL, fxt_zsink_sink(zs), &w) != FXT_OK) {
        return 1;
    }
#else
    if (fxt_writer_create(NULL, fxt_sink_membuf(&mem), &w) != FXT_OK) {
        return 1;
    }
#endif
    fxt_write_magic(w);
    fxt_write_instant(w, 42, fxt_thread(1, 2), fxt_cstr("cat"), fxt_cstr("installed"), NULL, 0);
    if (fxt_writer_finish(w) != FXT_OK) {
        return 1;
    }
    fxt_writer_destroy(w);
#ifdef WITH_ZIO
    if (fxt_zsink_finish(zs) != FXT_OK || fxt_zio_detect(z.data, z.len) != FXT_ZIO_ZSTD) {
        return 1;
    }
    fxt_zsink_destroy(zs);
    fxt_zdec_t *d;
    uint8_t out[4096];
    size_t pos = 0, produced = 0;
    if (fxt_zdec_create(FXT_ZIO_ZSTD, &d) != FXT_OK) {
        return 1;
    }
    do {
        if (fxt_zdec_run(d, z.data, z.len, &pos, out, sizeof out, &produced) != FXT_OK) {
            return 1;
        }
        fxt_sink_membuf(&mem).write(&mem, out, produced);
    } while (pos < z.len || produced == sizeof out);
    if (fxt_zdec_finish(d) != FXT_OK) {
        return 1;
    }
    fxt_zdec_destroy(d);
    fxt_membuf_free(&z);
#endif
    fxt_reader_t *r;
    fxt_reader_create(NULL, &r);
    fxt_in_buffer_t in = {mem.data, mem.len, 0};
    fxt_record_t rec;
    int events = 0;
    while (fxt_reader_next(r, &in, &rec) == FXT_OK) {
        events += rec.kind == FXT_KIND_EVENT && rec.u.event.ts == 42;
    }
    fxt_reader_destroy(r);
    fxt_membuf_free(&mem);
    printf("events %d\n", events);
    return events == 1 ? 0 : 1;
}
