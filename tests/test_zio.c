/* SPDX-License-Identifier: MIT */
/* libfxt_zio: compressing sink and decompressor round trips (gzip, zstd), any
 * chunking, concatenated streams, corrupt and cut input; an instrumentation
 * session writing through a compressing sink. */
#include "test.h"

#include <fxt/reader.h>
#include <fxt/trace.h>
#include <fxt/zio.h>

#include <stdlib.h>

static void make_trace(fxt_membuf_t *m) {
    fxt_writer_t *w;
    fxt_writer_create(NULL, fxt_sink_membuf(m), &w);
    fxt_write_magic(w);
    for (int i = 0; i < 20000; i++) {
        fxt_arg_t a = fxt_arg_int32(fxt_cstr("i"), i);
        fxt_write_instant(w, (uint64_t)i, fxt_thread(1, 2), fxt_cstr("c"), fxt_cstr("n"), &a, 1);
    }
    fxt_writer_finish(w);
    fxt_writer_destroy(w);
}

static int decompress(fxt_zio_format fmt, const fxt_membuf_t *z, size_t in_chunk, size_t out_chunk,
                      fxt_membuf_t *out) {
    fxt_zdec_t *d;
    if (fxt_zdec_create(fmt, &d) != FXT_OK) {
        return -1;
    }
    uint8_t *buf = malloc(out_chunk);
    fxt_sink_t s = fxt_sink_membuf(out);
    int rc = 0;
    for (size_t off = 0; off < z->len && rc == 0; off += in_chunk) {
        size_t len = z->len - off < in_chunk ? z->len - off : in_chunk, pos = 0, got;
        do {
            if (fxt_zdec_run(d, z->data + off, len, &pos, buf, out_chunk, &got) != FXT_OK) {
                rc = -1;
                break;
            }
            s.write(s.ctx, buf, got);
        } while (pos < len || got == out_chunk);
    }
    if (rc == 0 && fxt_zdec_finish(d) != FXT_OK) {
        rc = -2;
    }
    free(buf);
    fxt_zdec_destroy(d);
    return rc;
}

static void roundtrip(fxt_zio_format fmt) {
    fxt_membuf_t plain = {0}, z = {0};
    make_trace(&plain);
    fxt_zsink_t *zs;
    CHECK(fxt_zsink_create(fmt, 0, fxt_sink_membuf(&z), &zs) == FXT_OK);
    fxt_sink_t s = fxt_zsink_sink(zs);
    for (size_t off = 0; off < plain.len; off += 1000) {
        CHECK(s.write(s.ctx, plain.data + off, plain.len - off < 1000 ? plain.len - off : 1000) == FXT_OK);
    }
    CHECK(fxt_zsink_finish(zs) == FXT_OK);
    fxt_zsink_destroy(zs);
    CHECK(fxt_zio_detect(z.data, z.len) == fmt);
    CHECK(z.len < plain.len / 2);
    static const size_t chunks[][2] = {{1, 7}, {13, 4096}, {65536, 8}, {1 << 20, 1 << 20}};
    for (unsigned k = 0; k < 4; k++) {
        fxt_membuf_t out = {0};
        int drc = decompress(fmt, &z, chunks[k][0], chunks[k][1], &out);
        if (drc != 0) {
            fprintf(stderr, "chunks %zu/%zu: rc %d\n", chunks[k][0], chunks[k][1], drc);
        }
        CHECK(drc == 0);
        CHECK(out.len == plain.len && memcmp(out.data, plain.data, plain.len) == 0);
        fxt_membuf_free(&out);
    }
    /* two streams back to back decode as their concatenation */
    fxt_membuf_t twice = {0}, out = {0};
    fxt_sink_t tw = fxt_sink_membuf(&twice);
    tw.write(tw.ctx, z.data, z.len);
    tw.write(tw.ctx, z.data, z.len);
    CHECK(decompress(fmt, &twice, 4096, 4096, &out) == 0);
    CHECK(out.len == 2 * plain.len && memcmp(out.data + plain.len, plain.data, plain.len) == 0);
    fxt_membuf_free(&out);
    /* cut short: reported */
    fxt_membuf_t cut = {z.data, z.len / 2, z.len / 2};
    CHECK(decompress(fmt, &cut, 4096, 4096, &out) == -2);
    fxt_membuf_free(&out);
    /* corrupt: reported, never a crash */
    z.data[z.len / 2] ^= 0xff;
    z.data[z.len / 2 + 1] ^= 0x55;
    CHECK(decompress(fmt, &z, 4096, 4096, &out) != 0 || out.len != plain.len ||
          memcmp(out.data, plain.data, plain.len) != 0);
    fxt_membuf_free(&out);
    fxt_membuf_free(&twice);
    fxt_membuf_free(&plain);
    fxt_membuf_free(&z);
}

static void test_gzip(void) { roundtrip(FXT_ZIO_GZIP); }
static void test_zstd(void) { roundtrip(FXT_ZIO_ZSTD); }

static void test_names(void) {
    CHECK(fxt_zio_format_from_path("a.fxt.gz") == FXT_ZIO_GZIP);
    CHECK(fxt_zio_format_from_path("a.fxt.zst") == FXT_ZIO_ZSTD);
    CHECK(fxt_zio_format_from_path("a.fxt") == FXT_ZIO_NONE);
    CHECK(fxt_zio_detect("\x10\x00", 2) == FXT_ZIO_NONE);
}

/* The instrumentation engine writing a compressed trace. */
static void test_session_compressed(void) {
    fxt_membuf_t z = {0}, out = {0};
    fxt_zsink_t *zs;
    CHECK(fxt_zsink_create(FXT_ZIO_ZSTD, 0, fxt_sink_membuf(&z), &zs) == FXT_OK);
    fxt_session_config_t cfg = FXT_SESSION_CONFIG_INIT;
    cfg.sink = fxt_zsink_sink(zs);
    cfg.mode = FXT_MODE_STREAMING;
    CHECK(fxt_session_start(&cfg) == FXT_OK);
    for (int i = 0; i < 5000; i++) {
        FXT_INSTANT("z", "event", FXT_I32("i", i));
    }
    CHECK(fxt_session_stop() == FXT_OK);
    CHECK(fxt_zsink_finish(zs) == FXT_OK);
    fxt_zsink_destroy(zs);
    CHECK(decompress(FXT_ZIO_ZSTD, &z, 4096, 65536, &out) == 0);
    fxt_reader_t *r;
    fxt_reader_create(NULL, &r);
    fxt_in_buffer_t in = {out.data, out.len, 0};
    fxt_record_t rec;
    int events = 0, errors = 0;
    fxt_status st;
    while ((st = fxt_reader_next(r, &in, &rec)) != FXT_NEED_INPUT) {
        if (st != FXT_OK) {
            errors++;
        } else if (rec.kind == FXT_KIND_EVENT && rec.nargs == 1 && rec.args[0].v.i32 == events) {
            events++;
        }
    }
    CHECK(events == 5000 && errors == 0);
    fxt_reader_destroy(r);
    fxt_membuf_free(&z);
    fxt_membuf_free(&out);
}

int main(int argc, char **argv) {
    TEST_INIT(argc, argv);
    RUN(test_gzip);
    RUN(test_zstd);
    RUN(test_names);
    RUN(test_session_compressed);
    return TEST_EXIT();
}
