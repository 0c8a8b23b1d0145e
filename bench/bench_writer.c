/* SPDX-License-Identifier: MIT */
/*
 * Writer cost per record against a floor measured in the same run.
 *
 * For each typical event (duration begin+end with interned category/name,
 * instant with 2 integer args, counter) the writer encodes N records into a
 * sink that discards its 64 KiB blocks (so we time encoding, not memory
 * growth). The floor stores the same number of bytes with plain 64-bit stores
 * into a 64 KiB buffer, wrapping like the writer's buffer. Best of 5.
 * Two more cases show the explicit-ref paths on the instant: through the
 * writer (fxt_write_event_refs) and the bare stateless encoder (fxt_encode_event).
 *
 * Usage: bench_writer [N] (default 5,000,000 records per case)
 */
#include <fxt/writer.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static fxt_status discard(void *ctx, const void *data, size_t len) {
    (void)data;
    *(uint64_t *)ctx += len;
    return FXT_OK;
}

static volatile uint64_t sink_word;

/* Plain stores of `bytes` bytes, 8 at a time, into a wrapping 64 KiB buffer. */
static double floor_pass(uint64_t bytes) {
    static uint64_t buf[8192];
    double t0 = now();
    uint64_t words = bytes / 8, pos = 0;
    for (uint64_t i = 0; i < words; i++) {
        buf[pos] = i;
        pos = (pos + 1) & 8191;
    }
    sink_word = buf[words & 8191];
    return now() - t0;
}

enum { CASE_DURATION, CASE_INSTANT2, CASE_COUNTER, CASE_REFS_INSTANT2, CASE_ENC_INSTANT2, NCASES };
static const char *const case_names[NCASES] = {"duration begin+end", "instant, 2 int args", "counter",
                                               "instant2 refs->writer", "instant2 fxt_encode"};

static double encode_pass(int c, uint64_t n, uint64_t *bytes, uint64_t *records) {
    uint64_t total = 0;
    fxt_sink_t s = {discard, &total};
    fxt_writer_t *w;
    fxt_writer_create(NULL, s, &w);
    fxt_thread_ref_t t = fxt_thread(1000, 1001);
    fxt_str_t cat = fxt_cstr("category"), name = fxt_cstr("event_name");
    fxt_str_t a1 = fxt_cstr("count"), a2 = fxt_cstr("bytes");
    fxt_write_magic(w);
    /* explicit refs (the caller's own tables): strings 1..4, thread 1 */
    fxt_str_t rcat = fxt_sref(1), rname = fxt_sref(2), ra1 = fxt_sref(3), ra2 = fxt_sref(4);
    fxt_thread_ref_t rt = fxt_thread_index(1);
    static uint8_t ebuf[1 << 16];
    size_t epos = 0;
    double t0 = now();
    for (uint64_t i = 0; i < n; i++) {
        switch (c) {
        case CASE_DURATION:
            fxt_write_duration_begin(w, i * 10, t, cat, name, NULL, 0);
            fxt_write_duration_end(w, i * 10 + 5, t, cat, name, NULL, 0);
            break;
        case CASE_INSTANT2: {
            fxt_arg_t a[2] = {fxt_arg_int32(a1, (int32_t)i), fxt_arg_int64(a2, (int64_t)i * 3)};
            fxt_write_instant(w, i * 10, t, cat, name, a, 2);
            break;
        }
        case CASE_COUNTER: {
            fxt_arg_t a[1] = {fxt_arg_int64(a1, (int64_t)i)};
            fxt_write_counter(w, i * 10, t, cat, name, 1, a, 1);
            break;
        }
        case CASE_REFS_INSTANT2: {
            fxt_arg_t a[2] = {fxt_arg_int32(ra1, (int32_t)i), fxt_arg_int64(ra2, (int64_t)i * 3)};
            fxt_event_desc_t ev = {FXT_EVENT_INSTANT, i * 10, rt, rcat, rname, 0, 0, a, 2, NULL, 0};
            fxt_write_event_refs(w, &ev);
            break;
        }
        default: {
            /* the pure encoder into a wrapping 64 KiB buffer (no writer) */
            fxt_arg_t a[2] = {fxt_arg_int32(ra1, (int32_t)i), fxt_arg_int64(ra2, (int64_t)i * 3)};
            fxt_event_desc_t ev = {FXT_EVENT_INSTANT, i * 10, rt, rcat, rname, 0, 0, a, 2, NULL, 0};
            size_t sz;
            if (fxt_encode_event(ebuf + epos, sizeof ebuf - epos, &sz, &ev) != FXT_OK) {
                total += epos;
                epos = 0;
                fxt_encode_event(ebuf, sizeof ebuf, &sz, &ev);
            }
            epos += sz;
            break;
        }
        }
    }
    fxt_writer_flush(w);
    double el = now() - t0;
    total += epos;
    if (c == CASE_ENC_INSTANT2) {
        total -= 8; /* the magic record the writer flushed */
    }
    *bytes = total;
    *records = c == CASE_ENC_INSTANT2 ? n : fxt_writer_records(w);
    fxt_writer_destroy(w);
    return el;
}

int main(int argc, char **argv) {
    uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 5000000;
    printf("%-22s %10s %10s %12s %12s %8s\n", "case", "ns/event", "bytes/ev", "floor ns/ev", "MB/s", "ratio");
    for (int c = 0; c < NCASES; c++) {
        double best = 1e9, best_floor = 1e9;
        uint64_t bytes = 0, records = 0;
        for (int rep = 0; rep < 5; rep++) {
            double t = encode_pass(c, n, &bytes, &records);
            best = t < best ? t : best;
            t = floor_pass(bytes);
            best_floor = t < best_floor ? t : best_floor;
        }
        double events = (double)n * (c == CASE_DURATION ? 2 : 1);
        printf("%-22s %10.2f %10.1f %12.2f %12.0f %8.2f\n", case_names[c], best * 1e9 / events,
               (double)bytes / events, best_floor * 1e9 / events, (double)bytes / best / 1e6,
               best_floor / best);
    }
    printf(
        "(ratio = floor time / encode time: 1.0 would mean encoding costs no more than storing the bytes)\n");
    return 0;
}
