/* SPDX-License-Identifier: MIT */
/* The merger library API: two traces with colliding provider ids and string indexes. */
#include "test.h"

#include <fxt/archive.h>

static void make(fxt_membuf_t *m, const char *cat, uint64_t tps) {
    fxt_writer_t *w;
    fxt_writer_create(NULL, fxt_sink_membuf(m), &w);
    fxt_write_magic(w);
    fxt_write_provider_info(w, 1, fxt_cstr(cat));
    fxt_write_init(w, tps);
    for (int i = 0; i < 100; i++) {
        fxt_write_instant(w, (uint64_t)i * 10, fxt_thread(1, 2), fxt_cstr(cat), fxt_cstr(cat), NULL, 0);
    }
    fxt_writer_finish(w);
    fxt_writer_destroy(w);
}

static void test_merge_api(void) {
    fxt_membuf_t a = {0}, b = {0}, out = {0};
    make(&a, "alpha", 1000000000);
    make(&b, "beta", 2000000000);
    fxt_writer_t *w;
    fxt_merger_t *m;
    CHECK(fxt_writer_create(NULL, fxt_sink_membuf(&out), &w) == FXT_OK);
    CHECK(fxt_merger_create(w, &m) == FXT_OK);
    fxt_merger_input_t in = FXT_MERGER_INPUT_INIT;
    CHECK(fxt_merger_begin_input(m, &in) == FXT_OK);
    for (size_t pos = 0; pos < a.len; pos += 7) { /* chunks of 7 bytes */
        CHECK(fxt_merger_feed(m, a.data + pos, a.len - pos < 7 ? a.len - pos : 7) == FXT_OK);
    }
    CHECK(fxt_merger_end_input(m) == FXT_OK);
    in.offset_ns = 1000; /* 2000 ticks at 2 GHz */
    CHECK(fxt_merger_begin_input(m, &in) == FXT_OK);
    CHECK(fxt_merger_feed(m, b.data, b.len) == FXT_OK);
    CHECK(fxt_merger_end_input(m) == FXT_OK);
    CHECK(fxt_merger_finish(m) == FXT_OK);
    fxt_merger_stats_t st;
    fxt_merger_get_stats(m, &st);
    CHECK(st.inputs == 2 && st.providers == 2 && st.remapped == 1 && st.damaged == 0);
    fxt_merger_destroy(m);
    fxt_writer_destroy(w);

    fxt_reader_t *r;
    fxt_reader_create(NULL, &r);
    fxt_in_buffer_t ib = {out.data, out.len, 0};
    fxt_record_t rec;
    int na = 0, nb = 0, magic = 0, bad = 0;
    while (fxt_reader_next(r, &ib, &rec) == FXT_OK) {
        magic += rec.kind == FXT_KIND_MAGIC;
        if (rec.kind != FXT_KIND_EVENT) {
            continue;
        }
        if (rec.provider == 1) {
            bad += !(rec.u.event.name.len == 5 && memcmp(rec.u.event.name.ptr, "alpha", 5) == 0 &&
                     rec.u.event.ts == (uint64_t)na * 10);
            na++;
        } else if (rec.provider == 2) {
            bad +=
                !(rec.u.event.name.len == 4 && memcmp(rec.u.event.name.ptr, "beta", 4) == 0 &&
                  rec.u.event.ts == (uint64_t)nb * 10 + 2000 && fxt_reader_ticks_per_second(r) == 2000000000);
            nb++;
        } else {
            bad++;
        }
    }
    CHECK(magic == 1 && na == 100 && nb == 100);
    CHECK_EQ_U64(bad, 0);
    fxt_reader_destroy(r);
    fxt_membuf_free(&a);
    fxt_membuf_free(&b);
    fxt_membuf_free(&out);
}

/* A record the output writer cannot re-encode (an unknown record of the other byte
 * order: its words cannot be swapped blindly) is dropped and counted; the merge goes on. */
static void test_merge_refused(void) {
    fxt_membuf_t a = {0}, out = {0};
    fxt_writer_options_t o = {sizeof o, FXT_WRITE_BIG_ENDIAN, 0, 0, 0};
    fxt_writer_t *w;
    CHECK(fxt_writer_create(&o, fxt_sink_membuf(&a), &w) == FXT_OK);
    fxt_write_magic(w);
    fxt_write_provider_info(w, 1, fxt_cstr("be"));
    fxt_write_instant(w, 1, fxt_thread(1, 2), fxt_cstr("c"), fxt_cstr("before"), NULL, 0);
    fxt_writer_flush(w);
    size_t unknown_at = a.len;
    /* record type 14 (reserved), 2 words, big-endian */
    static const uint8_t unknown[16] = {0, 0, 0, 0, 0, 0, 0, (2u << 4) | 14u, 1, 2, 3, 4, 5, 6, 7, 8};
    CHECK(fxt_write_raw(w, unknown, sizeof unknown) == FXT_OK);
    fxt_write_instant(w, 2, fxt_thread(1, 2), fxt_cstr("c"), fxt_cstr("after"), NULL, 0);
    CHECK(fxt_writer_finish(w) == FXT_OK);
    fxt_writer_destroy(w);

    fxt_merger_t *m;
    CHECK(fxt_writer_create(NULL, fxt_sink_membuf(&out), &w) == FXT_OK);
    CHECK(fxt_merger_create(w, &m) == FXT_OK);
    fxt_merger_input_t in = FXT_MERGER_INPUT_INIT;
    CHECK(fxt_merger_begin_input(m, &in) == FXT_OK);
    CHECK(fxt_merger_feed(m, a.data, a.len) == FXT_OK);
    CHECK(fxt_merger_end_input(m) == FXT_OK);
    CHECK(fxt_merger_finish(m) == FXT_OK);
    fxt_merger_stats_t st;
    fxt_merger_get_stats(m, &st);
    CHECK_EQ_U64(st.refused, 1);
    CHECK_EQ_U64(st.damaged, 0);
    CHECK_EQ_U64(fxt_merger_diag(m)->offset, unknown_at);
    CHECK(fxt_merger_diag(m)->status == FXT_E_UNSUPPORTED);
    CHECK(strstr(fxt_merger_diag(m)->msg, "re-encoded") != NULL);
    fxt_merger_destroy(m);
    fxt_writer_destroy(w);

    /* both events made it, in host order */
    fxt_reader_t *r;
    fxt_reader_create(NULL, &r);
    fxt_in_buffer_t ib = {out.data, out.len, 0};
    fxt_record_t rec;
    int events = 0, unknown_out = 0;
    while (fxt_reader_next(r, &ib, &rec) == FXT_OK) {
        events += rec.kind == FXT_KIND_EVENT;
        unknown_out += rec.kind == FXT_KIND_UNKNOWN;
    }
    CHECK_EQ_U64(events, 2);
    CHECK_EQ_U64(unknown_out, 0);
    fxt_reader_destroy(r);
    fxt_membuf_free(&a);
    fxt_membuf_free(&out);
}

/* One input's events through a merger with a clock offset; the timestamps read back. */
static void merge_shifted(uint64_t tps, int64_t offset_ns, const uint64_t *ts, uint64_t *out_ts, int n) {
    fxt_membuf_t a = {0}, out = {0};
    fxt_writer_t *w;
    fxt_writer_create(NULL, fxt_sink_membuf(&a), &w);
    fxt_write_magic(w);
    fxt_write_provider_info(w, 1, fxt_cstr("fast"));
    fxt_write_init(w, tps);
    for (int i = 0; i < n; i++) {
        fxt_write_instant(w, ts[i], fxt_thread(1, 2), fxt_cstr("c"), fxt_cstr("e"), NULL, 0);
    }
    fxt_writer_finish(w);
    fxt_writer_destroy(w);
    fxt_merger_t *m;
    CHECK(fxt_writer_create(NULL, fxt_sink_membuf(&out), &w) == FXT_OK);
    CHECK(fxt_merger_create(w, &m) == FXT_OK);
    fxt_merger_input_t in = FXT_MERGER_INPUT_INIT;
    in.offset_ns = offset_ns;
    CHECK(fxt_merger_begin_input(m, &in) == FXT_OK);
    CHECK(fxt_merger_feed(m, a.data, a.len) == FXT_OK);
    CHECK(fxt_merger_end_input(m) == FXT_OK);
    CHECK(fxt_merger_finish(m) == FXT_OK);
    fxt_merger_destroy(m);
    fxt_writer_destroy(w);
    fxt_reader_t *r;
    fxt_reader_create(NULL, &r);
    fxt_in_buffer_t ib = {out.data, out.len, 0};
    fxt_record_t rec;
    int k = 0;
    while (fxt_reader_next(r, &ib, &rec) == FXT_OK) {
        if (rec.kind == FXT_KIND_EVENT && k < n) {
            out_ts[k++] = rec.u.event.ts;
        }
    }
    CHECK_EQ_U64(k, n);
    fxt_reader_destroy(r);
    fxt_membuf_free(&a);
    fxt_membuf_free(&out);
}

/* Time shifts that do not fit 64 signed bits: exact where the result fits, saturated at 0
 * and at 2^64-1 otherwise, never wrapped (nor a negated INT64_MIN). */
static void test_shift_extremes(void) {
    uint64_t got[3];
    /* 20 GHz, +5e17 ns: 1e19 ticks, more than INT64_MAX, still fits the timestamp */
    const uint64_t small[3] = {0, 10, UINT64_MAX - 5};
    merge_shifted(UINT64_C(20000000000), INT64_C(500000000000000000), small, got, 3);
    CHECK_EQ_U64(got[0], UINT64_C(10000000000000000000));
    CHECK_EQ_U64(got[1], UINT64_C(10000000000000000010));
    CHECK_EQ_U64(got[2], UINT64_MAX);
    /* 20 GHz, -5e17 ns: clamped at 0, and exact above it */
    const uint64_t big[3] = {5, UINT64_C(10000000000000000007), UINT64_MAX};
    merge_shifted(UINT64_C(20000000000), -INT64_C(500000000000000000), big, got, 3);
    CHECK_EQ_U64(got[0], 0);
    CHECK_EQ_U64(got[1], 7);
    CHECK_EQ_U64(got[2], UINT64_MAX - UINT64_C(10000000000000000000));
    /* the most negative shift, through the merger (1 GHz: INT64_MIN ticks) and directly */
    merge_shifted(1000000000, INT64_MIN, big, got, 3);
    CHECK_EQ_U64(got[0], 0);
    CHECK_EQ_U64(got[2], UINT64_MAX - UINT64_C(9223372036854775808));

    fxt_membuf_t a = {0}, out = {0};
    fxt_writer_t *w;
    fxt_writer_create(NULL, fxt_sink_membuf(&a), &w);
    fxt_write_instant(w, 3, fxt_thread(1, 2), fxt_cstr("c"), fxt_cstr("e"), NULL, 0);
    fxt_write_instant(w, UINT64_MAX - 1, fxt_thread(1, 2), fxt_cstr("c"), fxt_cstr("e"), NULL, 0);
    fxt_writer_finish(w);
    fxt_writer_destroy(w);
    fxt_reader_t *r;
    fxt_reader_create(NULL, &r);
    fxt_in_buffer_t ib = {a.data, a.len, 0};
    fxt_record_t rec;
    CHECK(fxt_writer_create(NULL, fxt_sink_membuf(&out), &w) == FXT_OK);
    while (fxt_reader_next(r, &ib, &rec) == FXT_OK) {
        if (rec.kind == FXT_KIND_EVENT) {
            CHECK(fxt_write_record(w, &rec, rec.u.event.ts == 3 ? INT64_MIN : INT64_MAX) == FXT_OK);
        }
    }
    /* a kind that is none is refused, not copied as bytes */
    fxt_record_t bad = rec;
    bad.kind = (fxt_record_kind)FXT_KIND_COUNT_;
    CHECK(fxt_write_record(w, &bad, 0) == FXT_E_INVALID_ARG);
    CHECK(fxt_writer_finish(w) == FXT_OK);
    fxt_writer_destroy(w);
    fxt_reader_destroy(r);
    fxt_reader_create(NULL, &r);
    fxt_in_buffer_t ob = {out.data, out.len, 0};
    int k = 0;
    while (fxt_reader_next(r, &ob, &rec) == FXT_OK) {
        if (rec.kind == FXT_KIND_EVENT) {
            CHECK_EQ_U64(rec.u.event.ts, k++ == 0 ? 0 : UINT64_MAX);
        }
    }
    CHECK_EQ_U64(k, 2);
    fxt_reader_destroy(r);
    fxt_membuf_free(&a);
    fxt_membuf_free(&out);
}

int main(int argc, char **argv) {
    TEST_INIT(argc, argv);
    RUN(test_merge_api);
    RUN(test_merge_refused);
    RUN(test_shift_extremes);
    return TEST_EXIT();
}
