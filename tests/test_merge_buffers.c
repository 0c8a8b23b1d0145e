/* SPDX-License-Identifier: MIT */
/*
 * The trace-manager API for raw provider buffers: two providers whose string
 * and thread indexes collide, buffers interleaved (a provider's later buffer
 * uses strings its earlier buffer registered), a metadata record inside a
 * buffer (garbage, skipped), and a buffer cut inside a record.
 */
#include "test.h"

#include <fxt/archive.h>

#include <string.h>

/* A provider: a writer without magic, interning across the buffers it produces. */
typedef struct prov {
    fxt_membuf_t mb;
    fxt_writer_t *w;
    const char *name;
} prov_t;

static void prov_init(prov_t *p, const char *name) {
    memset(p, 0, sizeof *p);
    p->name = name;
    CHECK(fxt_writer_create(NULL, fxt_sink_membuf(&p->mb), &p->w) == FXT_OK);
}

/* Emit n instants named after the provider (interned: string records only in the first buffer). */
static void prov_events(prov_t *p, int first, int n) {
    for (int i = first; i < first + n; i++) {
        CHECK(fxt_write_instant(p->w, (uint64_t)i * 100, fxt_thread(7, 8), fxt_cstr("cat"), fxt_cstr(p->name),
                                NULL, 0) == FXT_OK);
    }
    CHECK(fxt_writer_flush(p->w) == FXT_OK);
}

static void test_buffers(void) {
    prov_t a, b;
    prov_init(&a, "alpha");
    prov_init(&b, "beta");
    fxt_membuf_t out = {0};
    fxt_writer_t *w;
    fxt_merger_t *m;
    uint32_t ida = 0, idb = 0;
    CHECK(fxt_writer_create(NULL, fxt_sink_membuf(&out), &w) == FXT_OK);
    CHECK(fxt_merger_create(w, &m) == FXT_OK);
    CHECK(fxt_merger_add_provider(m, "alpha-provider", &ida) == FXT_OK);
    CHECK(fxt_merger_add_provider(m, "beta-provider", &idb) == FXT_OK);
    CHECK(ida != 0 && idb != 0 && ida != idb);
    CHECK(fxt_merger_add_buffer(m, 99, "", 0) == FXT_E_STATE); /* unknown provider */

    /* buffer 1 of alpha: init + 10 events (with string/thread records), plus a stray
     * provider-info record claiming id 1 (garbage inside a provider's buffer) */
    CHECK(fxt_write_init(a.w, 1000) == FXT_OK);
    CHECK(fxt_write_provider_info(a.w, 1, fxt_cstr("liar")) == FXT_OK);
    prov_events(&a, 0, 10);
    CHECK(fxt_merger_add_buffer(m, ida, a.mb.data, a.mb.len) == FXT_OK);
    size_t amark = a.mb.len;
    /* buffer 1 of beta: same indexes, other strings */
    prov_events(&b, 0, 10);
    CHECK(fxt_merger_add_buffer(m, idb, b.mb.data, b.mb.len) == FXT_OK);
    size_t bmark = b.mb.len;
    /* buffer 2 of alpha: only references to strings registered in its buffer 1 */
    prov_events(&a, 10, 5);
    CHECK(fxt_merger_add_buffer(m, ida, a.mb.data + amark, a.mb.len - amark) == FXT_OK);
    /* buffer 2 of beta, cut inside its last record: the whole records before are kept */
    prov_events(&b, 10, 5);
    CHECK(fxt_merger_add_buffer(m, idb, b.mb.data + bmark, b.mb.len - bmark - 4) == FXT_E_TRUNCATED);
    CHECK(fxt_merger_diag(m)->status == FXT_E_TRUNCATED);
    CHECK(fxt_merger_finish(m) == FXT_OK);
    fxt_merger_stats_t st;
    fxt_merger_get_stats(m, &st);
    CHECK_EQ_U64(st.damaged, 1);
    CHECK_EQ_U64(st.providers, 2);
    fxt_merger_destroy(m);
    fxt_writer_destroy(w);

    fxt_reader_t *r;
    CHECK(fxt_reader_create(NULL, &r) == FXT_OK);
    fxt_in_buffer_t ib = {out.data, out.len, 0};
    fxt_record_t rec;
    int na = 0, nb = 0, magic = 0, infos = 0, bad = 0;
    fxt_status s;
    while ((s = fxt_reader_next(r, &ib, &rec)) == FXT_OK) {
        magic += rec.kind == FXT_KIND_MAGIC;
        if (rec.kind == FXT_KIND_PROVIDER_INFO) {
            infos++;
            bad += !(rec.u.provider_info.id == (infos == 1 ? ida : idb));
        }
        if (rec.kind != FXT_KIND_EVENT) {
            continue;
        }
        const char *want = rec.provider == ida ? "alpha" : "beta";
        int i = rec.provider == ida ? na++ : nb++;
        bad +=
            !(rec.u.event.name.len == strlen(want) && memcmp(rec.u.event.name.ptr, want, strlen(want)) == 0);
        bad += !(rec.u.event.category.len == 3 && rec.u.event.thread.pid == 7 && rec.u.event.thread.tid == 8);
        bad += rec.u.event.ts != (uint64_t)i * 100;
        bad += rec.provider == ida && fxt_reader_ticks_per_second(r) != 1000;
    }
    CHECK(s == FXT_END || (s == FXT_NEED_INPUT && fxt_reader_finish(r) == FXT_OK));
    CHECK_EQ_U64((uint64_t)magic, 1);
    CHECK_EQ_U64((uint64_t)infos, 2);
    CHECK_EQ_U64((uint64_t)na, 15);
    CHECK_EQ_U64((uint64_t)nb, 14);
    CHECK_EQ_U64((uint64_t)bad, 0);
    fxt_reader_destroy(r);
    fxt_writer_destroy(a.w);
    fxt_writer_destroy(b.w);
    fxt_membuf_free(&a.mb);
    fxt_membuf_free(&b.mb);
    fxt_membuf_free(&out);
}

int main(int argc, char **argv) {
    TEST_INIT(argc, argv);
    RUN(test_buffers);
    return TEST_EXIT();
}
