/* SPDX-License-Identifier: MIT */
/*
 * Writes a trace shaped like a real instrumented program's: FXT_DURATION scopes, i.e. duration
 * complete events written when the scope ends (inner first), nested 3 to 6 deep, on several
 * threads whose records reach the file in chunks (as the engine's per-thread buffers are
 * drained), each thread inside a `main` scope written at its end. No begin/end pairs. Then
 * time the tools on it with bench_tools (bench/RESULTS.md):
 *
 *   bench_scopes OUT [MB] [THREADS]   (default 200 MB, 4 threads; deterministic)
 *   bench_tools 0 OUT
 */
#include <fxt/writer.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NNAMES 24
#define CHUNK 2048 /* events a thread writes before the next thread's chunk (a drained buffer) */

typedef struct thr {
    uint64_t clock, rnd;
    fxt_thread_ref_t ref;
} thr_t;

static uint64_t next_rnd(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static fxt_str_t names[NNAMES];
static fxt_str_t cat_app, arg_n;
static uint64_t events;

/* One scope and what it encloses: children first, itself when it ends. */
static void scope(fxt_writer_t *w, thr_t *t, unsigned depth, unsigned maxdepth) {
    uint64_t start = t->clock;
    unsigned name = (unsigned)(next_rnd(&t->rnd) % NNAMES);
    t->clock += 1 + next_rnd(&t->rnd) % 200;
    if (depth < maxdepth) {
        unsigned kids = 1 + (unsigned)(next_rnd(&t->rnd) % 3);
        for (unsigned k = 0; k < kids; k++) {
            scope(w, t, depth + 1, maxdepth);
            t->clock += next_rnd(&t->rnd) % 50;
        }
    }
    t->clock += 1 + next_rnd(&t->rnd) % 200;
    fxt_arg_t a = fxt_arg_int64(arg_n, (int64_t)depth);
    fxt_write_duration_complete(w, start, t->clock, t->ref, cat_app, names[name], &a, 1);
    events++;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: bench_scopes OUT [MB] [THREADS]\n");
        return 2;
    }
    uint64_t bytes = (uint64_t)(argc > 2 ? atof(argv[2]) : 200.0) * 1000000u;
    unsigned nthr = argc > 3 ? (unsigned)atoi(argv[3]) : 4;
    if (nthr < 1 || nthr > 64) {
        fprintf(stderr, "bench_scopes: THREADS must be 1..64\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "wb");
    if (f == NULL) {
        perror(argv[1]);
        return 3;
    }
    fxt_writer_t *w;
    if (fxt_writer_create(NULL, fxt_sink_file(f), &w) != FXT_OK) {
        return 4;
    }
    static const char *const nm[NNAMES] = {"frame", "update", "render", "layout",   "paint",  "decode",
                                           "parse", "lookup", "hash",   "compress", "flush",  "write",
                                           "read",  "poll",   "wait",   "dispatch", "handle", "encode",
                                           "sort",  "merge",  "scan",   "alloc",    "resize", "commit"};
    for (unsigned i = 0; i < NNAMES; i++) {
        names[i] = fxt_cstr(nm[i]);
    }
    cat_app = fxt_cstr("app");
    arg_n = fxt_cstr("depth");
    fxt_write_magic(w);
    fxt_write_provider_info(w, 1, fxt_cstr("scopes"));
    fxt_write_init(w, 1000000000u);
    thr_t th[64];
    for (unsigned i = 0; i < nthr; i++) {
        th[i] = (thr_t){1000 + i * 7, 0x9e3779b97f4a7c15u * (i + 1), fxt_thread(100, 101 + i)};
        fxt_write_kernel_object(w, 101 + i, FXT_OBJ_THREAD, fxt_cstr(i ? "worker" : "main"), NULL, 0);
    }
    uint64_t start0 = th[0].clock;
    while (fxt_writer_bytes(w) < bytes) {
        for (unsigned i = 0; i < nthr; i++) {
            uint64_t until = events + CHUNK;
            while (events < until) {
                scope(w, &th[i], 0, 3 + (unsigned)(next_rnd(&th[i].rnd) % 4));
                th[i].clock += next_rnd(&th[i].rnd) % 500;
            }
        }
    }
    for (unsigned i = 0; i < nthr; i++) {
        fxt_write_duration_complete(w, start0, th[i].clock + 1, th[i].ref, cat_app, fxt_cstr("main"), NULL,
                                    0);
    }
    fxt_writer_finish(w);
    fxt_status st = fxt_writer_status(w);
    fxt_writer_destroy(w);
    if (fclose(f) != 0 || st != FXT_OK) {
        fprintf(stderr, "bench_scopes: write failed\n");
        return 3;
    }
    fprintf(stderr, "bench_scopes: %llu complete events on %u threads\n", (unsigned long long)events, nthr);
    return 0;
}
