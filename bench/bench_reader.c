/* SPDX-License-Identifier: MIT */
/*
 * Reader throughput against a physical floor measured in the same run.
 *
 * Builds a realistic trace in memory (interned strings and threads, duration
 * pairs, instants with integer args, counters, some inline strings), then
 * times, best of N:
 *   floor   a sequential pass summing the buffer's 64-bit words
 *   decode  fxt_reader_next over the whole buffer, touching resolved fields
 *   chunked the same, fed in 64 KiB chunks
 * and prints records/s, MB/s and decode/floor ratios.
 *
 * Usage: bench_reader [MB] (default 256)
 */
#include <fxt/format.h>
#include <fxt/reader.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct {
    uint64_t *w;
    size_t n, cap;
} buf_t;

static void put(buf_t *b, uint64_t v) { b->w[b->n++] = v; }

static void put_str(buf_t *b, const char *s, size_t len) {
    size_t words = (size_t)fxt_words(len);
    memset(&b->w[b->n], 0, words * 8);
    memcpy(&b->w[b->n], s, len);
    b->n += words;
}

static uint64_t hdr(unsigned type, uint64_t words) {
    return fxt_put_rec_type(type) | fxt_put_rec_size(words);
}

static uint64_t ev(unsigned etype, uint64_t words, unsigned nargs, unsigned thread, unsigned cat,
                   unsigned name) {
    return hdr(FXT_RECORD_EVENT, words) | fxt_put_event_type(etype) | fxt_put_event_nargs(nargs) |
           fxt_put_event_thread(thread) | fxt_put_event_category(cat) | fxt_put_event_name(name);
}

static uint64_t records_in_trace;

static void build(buf_t *b, size_t bytes) {
    b->n = 0;
    b->cap = bytes / 8 + 64;
    b->w = malloc(b->cap * 8);
    if (b->w == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    put(b, FXT_MAGIC_RECORD);
    put(b, hdr(FXT_RECORD_INITIALIZATION, 2));
    put(b, 1000000000);
    records_in_trace = 2;
    char s[32];
    for (unsigned i = 1; i <= 200; i++) {
        int len = snprintf(s, sizeof s, "string_%u", i);
        put(b, hdr(FXT_RECORD_STRING, 1 + fxt_words((uint64_t)len)) | fxt_put_string_index(i) |
                   fxt_put_string_len((uint64_t)len));
        put_str(b, s, (size_t)len);
        records_in_trace++;
    }
    for (unsigned t = 1; t <= 8; t++) {
        put(b, hdr(FXT_RECORD_THREAD, 3) | fxt_put_thread_index(t));
        put(b, 1000);
        put(b, 1000 + t);
        records_in_trace++;
    }
    uint64_t ts = 1, x = 88172645463325252ull;
    while (b->n + 16 < b->cap) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        unsigned thread = 1 + (unsigned)(x % 8), cat = 1 + (unsigned)((x >> 8) % 10),
                 name = 11 + (unsigned)((x >> 16) % 190);
        ts += 1 + (x >> 40) % 100;
        switch ((x >> 32) % 8) {
        case 0:
        case 1:
        case 2: /* duration begin + end */
            put(b, ev(FXT_EVENT_DURATION_BEGIN, 2, 0, thread, cat, name));
            put(b, ts);
            put(b, ev(FXT_EVENT_DURATION_END, 2, 0, thread, cat, name));
            put(b, ts + 50);
            records_in_trace += 2;
            break;
        case 3:
        case 4: /* instant with 2 int args: int32 (1 word) and int64 (2 words) */
            put(b, ev(FXT_EVENT_INSTANT, 5, 2, thread, cat, name));
            put(b, ts);
            put(b, fxt_put_arg_type(FXT_ARG_INT32) | fxt_put_arg_size(1) | fxt_put_arg_name(5) |
                       fxt_put_arg_i32(x & 0xffff));
            put(b, fxt_put_arg_type(FXT_ARG_INT64) | fxt_put_arg_size(2) | fxt_put_arg_name(6));
            put(b, x);
            records_in_trace++;
            break;
        case 5: /* counter with one double arg */
            put(b, ev(FXT_EVENT_COUNTER, 5, 1, thread, cat, name));
            put(b, ts);
            put(b, fxt_put_arg_type(FXT_ARG_DOUBLE) | fxt_put_arg_size(2) | fxt_put_arg_name(7));
            put(b, 0x3ff0000000000000ull);
            put(b, 1); /* counter id */
            records_in_trace++;
            break;
        case 6: /* duration complete */
            put(b, ev(FXT_EVENT_DURATION_COMPLETE, 3, 0, thread, cat, name));
            put(b, ts);
            put(b, ts + 20);
            records_in_trace++;
            break;
        default: /* instant with an inline name and an inline thread */
            put(b, ev(FXT_EVENT_INSTANT, 6, 0, 0, cat, fxt_strref_inline(12)));
            put(b, ts);
            put(b, 1000);
            put(b, 2000);
            put_str(b, "inline_name1", 12);
            records_in_trace++;
            break;
        }
    }
}

static volatile uint64_t sink;

static double floor_pass(const buf_t *b) {
    double t0 = now();
    uint64_t s = 0;
    for (size_t i = 0; i < b->n; i++) {
        s += b->w[i];
    }
    sink = s;
    return now() - t0;
}

static double decode_pass(const buf_t *b, size_t chunk, uint64_t *nrec) {
    fxt_reader_t *r;
    fxt_reader_create(NULL, &r);
    fxt_record_t rec;
    uint64_t s = 0, n = 0;
    size_t total = b->n * 8;
    const uint8_t *p = (const uint8_t *)b->w;
    double t0 = now();
    for (size_t pos = 0; pos < total; pos += chunk) {
        fxt_in_buffer_t in = {p + pos, total - pos < chunk ? total - pos : chunk, 0};
        fxt_status st;
        while ((st = fxt_reader_next(r, &in, &rec)) != FXT_NEED_INPUT) {
            if (st != FXT_OK) {
                fprintf(stderr, "decode error: %s\n", fxt_reader_diag(r)->msg);
                exit(1);
            }
            n++;
            if (rec.kind == FXT_KIND_EVENT) {
                s += rec.u.event.ts + rec.u.event.thread.tid + rec.u.event.name.len +
                     (uint64_t)(uintptr_t)rec.u.event.category.ptr + rec.nargs;
            }
        }
    }
    fxt_reader_finish(r);
    double t = now() - t0;
    sink = s;
    fxt_reader_destroy(r);
    *nrec = n;
    return t;
}

int main(int argc, char **argv) {
    size_t mb = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 256;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    if (mb < 1 || reps < 1) {
        fprintf(stderr, "usage: bench_reader [MB >= 1] [repetitions >= 1]\n");
        return 2;
    }
    buf_t b;
    build(&b, mb << 20);
    double bytes = (double)b.n * 8;
    double best_floor = 1e9, best_whole = 1e9, best_chunk = 1e9;
    uint64_t n1 = 0, n2 = 0;
    for (int i = 0; i < reps; i++) {
        double t = floor_pass(&b);
        best_floor = t < best_floor ? t : best_floor;
        t = decode_pass(&b, (size_t)-1 / 2, &n1);
        best_whole = t < best_whole ? t : best_whole;
        t = decode_pass(&b, 64 << 10, &n2);
        best_chunk = t < best_chunk ? t : best_chunk;
    }
    if (n1 != records_in_trace || n2 != records_in_trace) {
        fprintf(stderr, "record count mismatch: %llu %llu vs %llu\n", (unsigned long long)n1,
                (unsigned long long)n2, (unsigned long long)records_in_trace);
        return 1;
    }
    printf("trace: %.1f MB, %llu records (%.1f bytes/record)\n", bytes / 1e6, (unsigned long long)n1,
           bytes / (double)n1);
    printf("floor  (sum of 64-bit words):   %8.0f MB/s\n", bytes / best_floor / 1e6);
    printf("decode (whole buffer):          %8.0f MB/s  %7.1f M records/s  ratio %.2f of floor\n",
           bytes / best_whole / 1e6, (double)n1 / best_whole / 1e6, best_floor / best_whole);
    printf("decode (64 KiB chunks):         %8.0f MB/s  %7.1f M records/s  ratio %.2f of floor\n",
           bytes / best_chunk / 1e6, (double)n2 / best_chunk / 1e6, best_floor / best_chunk);
    free(b.w);
    return 0;
}
