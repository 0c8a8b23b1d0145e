/* SPDX-License-Identifier: MIT */
/*
 * The CLI's parallel reader (tools/cli/cli_parallel.c) on a file that shrinks
 * while it is read (the file is mapped: pages past the new end fault with
 * SIGBUS, which its handler turns into zeros, and each step of a range checks
 * the size first; or, where it cannot be mapped, read with pread, so the file
 * simply ends early: the _pread cases): it must stop there, say the file
 * shrank, and return CLI_EXIT_IO with every record it read delivered. The file
 * is truncated from the first record callback, so the cut is deterministic.
 */
#include "test.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_parallel.h"
#include "instants_file.h"

#define NREC 131072u /* 32-byte instants: 4 MiB, more than the 1 MiB a range reads at once */

typedef struct shrink {
    const char *path;
    off_t cut;
    int done;
    uint64_t records, errors;
} shrink_t;

static shrink_t sh;

static void *range_new(void *ctx, size_t index) {
    (void)index;
    return ctx;
}
static int on_record(void *ctx, fxt_reader_t *r, const fxt_record_t *rec) {
    (void)r;
    (void)rec;
    shrink_t *s = ctx;
    /* Workers may call this concurrently with -j 2: the counts only need to be positive there. */
    __atomic_fetch_add(&s->records, 1, __ATOMIC_RELAXED);
    if (!__atomic_exchange_n(&s->done, 1, __ATOMIC_ACQ_REL)) {
        CHECK(truncate(s->path, s->cut) == 0);
    }
    return 0;
}
static void on_error(void *ctx, fxt_reader_t *r, const fxt_diag_t *d) {
    (void)r;
    (void)d;
    __atomic_fetch_add(&((shrink_t *)ctx)->errors, 1, __ATOMIC_RELAXED);
}
static int range_merge(void *ctx, void *range) {
    (void)ctx;
    (void)range;
    return 0;
}
static void range_free(void *ctx, void *range) {
    (void)ctx;
    (void)range;
}
static const cli_par_ops_t ops = {range_new, on_record, on_error, range_merge, range_free};

/* A new file of NREC instants (instants_file.h). */
static char *write_trace(void) {
    static char path[32];
    write_instants_file(path, "/tmp/fxt-shrink-XXXXXX", NREC);
    return path;
}

/* Runs the read with stderr captured; returns the exit code and the stderr text. */
static int shrink_run(unsigned jobs, off_t cut, char *err, size_t errlen) {
    memset(&sh, 0, sizeof sh);
    sh.path = write_trace();
    sh.cut = cut;
    stderr_capture_t cap;
    stderr_begin(&cap);
    int rc = cli_read_parallel("test", sh.path, NULL, jobs, 0, &ops, &sh, NULL);
    stderr_end(&cap, err, errlen);
    unlink(sh.path);
    return rc;
}

/* The records of the first chunk (read before the cut) are delivered, then the file ends. */
static void test_shrink_page_aligned(void) {
    char err[65536];
    int rc = shrink_run(1, 65536, err, sizeof err);
    CHECK_EQ_I64(rc, CLI_EXIT_IO);
    CHECK(strstr(err, "shrank while it was read (4194312 bytes when opened, 65536 now)") != NULL);
    CHECK(sh.records >= (65536 - 8) / 32 && sh.records <= (1 << 20) / 32 + 1);
}

/* A cut inside a record: what the first chunk held is delivered; the record it cut at its end
 * is reported as damaged (at most that one). */
static void test_shrink_inside_record(void) {
    char err[65536];
    int rc = shrink_run(1, 100012, err, sizeof err);
    CHECK_EQ_I64(rc, CLI_EXIT_IO);
    CHECK(strstr(err, "100012 now") != NULL);
    CHECK(sh.records >= (100012 - 8) / 32 && sh.records <= (1 << 20) / 32 + 1);
    CHECK(sh.errors <= 1);
}

/* Ranges on two threads and a pre-scan ahead of them: whoever touches the missing pages first. */
static void test_shrink_parallel(void) {
    char err[65536];
    setenv("FXT_RANGE_BYTES", "4096", 1);
    int rc = shrink_run(2, 65536, err, sizeof err);
    unsetenv("FXT_RANGE_BYTES");
    CHECK_EQ_I64(rc, CLI_EXIT_IO);
    CHECK(strstr(err, "shrank while it was read") != NULL);
    CHECK(sh.records > 0 && sh.records < NREC);
}

/* A cut made before the read reaches it (the first callback cuts 2 MiB further on), inside a
 * record: exactly the records before it are delivered and the one it cuts is damaged, whether
 * the file is mapped (each step of the read checks the size first) or read with pread. */
static void test_shrink_ahead_exact(void) {
    off_t cut = (2 << 20) + 8 + 32 * 1000 + 4;
    for (int no_map = 0; no_map <= 1; no_map++) {
        char err[65536];
        cli_par_no_map = no_map;
        int rc = shrink_run(1, cut, err, sizeof err);
        cli_par_no_map = 0;
        CHECK_EQ_I64(rc, CLI_EXIT_IO);
        CHECK(strstr(err, "shrank while it was read") != NULL);
        CHECK_EQ_U64(sh.records, 1 + (uint64_t)(cut - 8) / 32);
        CHECK_EQ_U64(sh.errors, 1);
    }
}

static void test_whole_file_after_shrink(void);

/* The cases above, with the file read by pread (where it cannot be mapped). */
static void test_shrink_pread(void) {
    cli_par_no_map = 1;
    test_shrink_page_aligned();
    test_shrink_inside_record();
    test_shrink_parallel();
    test_whole_file_after_shrink();
    cli_par_no_map = 0;
}

/* The control: the same file, not cut, is read whole with no error and no message. */
static void test_whole_file_after_shrink(void) {
    char err[65536];
    int rc = shrink_run(1, 8 + NREC * 32, err, sizeof err); /* "cut" at the end: no change */
    CHECK_EQ_I64(rc, 0);
    CHECK_EQ_U64(sh.records, NREC + 1);
    CHECK_EQ_U64(sh.errors, 0);
    CHECK(err[0] == '\0');
}

/*
 * Ranges of every size (8 bytes: one record each; 100 KB; 700 KB; guided: shorter toward the
 * end) on 2 and 3 threads, across a large record the pre-scan hops, must deliver the records of
 * a sequential read, in order, with the string table state of a sequential read.
 */
typedef struct seen {
    uint64_t offset, what;
} seen_t;
typedef struct seq {
    seen_t *v;
    size_t n, cap;
    uint64_t errors;
} seq_t;

static void *seq_new(void *ctx, size_t index) {
    (void)ctx;
    (void)index;
    return calloc(1, sizeof(seq_t));
}
static int seq_record(void *ctx, fxt_reader_t *r, const fxt_record_t *rec) {
    (void)r;
    seq_t *q = ctx;
    if (q->n == q->cap) {
        q->cap = q->cap ? 2 * q->cap : 1024;
        q->v = realloc(q->v, q->cap * sizeof *q->v);
        if (q->v == NULL) {
            abort(); /* not CHECK: its counter is not for worker threads */
        }
    }
    /* An event's category as the string table had it (2 bytes): catches a wrong replay. */
    uint64_t what = rec->kind;
    if (rec->kind == FXT_KIND_EVENT && rec->u.event.category.len >= 2) {
        what |= (uint64_t)(uint8_t)rec->u.event.category.ptr[1] << 8;
    }
    q->v[q->n++] = (seen_t){rec->offset, what};
    return 0;
}
static void seq_error(void *ctx, fxt_reader_t *r, const fxt_diag_t *d) {
    (void)r;
    seq_t *q = ctx;
    q->errors++;
    seq_record(q, r, &(fxt_record_t){.offset = d->offset, .kind = (fxt_record_kind)99});
}
static int seq_merge(void *ctx, void *range) {
    seq_t *all = ctx, *g = range;
    for (size_t i = 0; i < g->n; i++) {
        seq_record(all, NULL, &(fxt_record_t){.offset = g->v[i].offset, .kind = FXT_KIND_EVENT});
        all->v[all->n - 1].what = g->v[i].what;
    }
    all->errors += g->errors;
    free(g->v);
    free(g);
    return 0;
}
static void seq_free(void *ctx, void *range) {
    (void)ctx;
    free(((seq_t *)range)->v);
    free(range);
}
static const cli_par_ops_t seq_ops = {seq_new, seq_record, seq_error, seq_merge, seq_free};

/* 3 MiB of instants whose category (string 1) is re-registered every 1000 events, with a 320 KiB
 * large record in the middle (hopped by the pre-scan: read by its range from the file). */
static char *write_ranges_trace(void) {
    static char path[] = "/tmp/fxt-ranges-XXXXXX";
    strcpy(path, "/tmp/fxt-ranges-XXXXXX");
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    size_t cap = (4u << 20) / 8, n = 0;
    uint64_t *w = calloc(cap, 8);
    w[n++] = 0x0016547846040010ull;
    for (uint32_t i = 0; n + 40960 + 8 < cap - 8 && n < (3u << 20) / 8; i++) {
        if (i % 1000 == 0) {
            /* string record: index 1, 8 bytes "c<digit>......" */
            w[n++] = 0x2u | (2u << 4) | (1ull << 16) | (8ull << 32);
            uint64_t v = 0x2e2e2e2e2e2e3063ull + ((uint64_t)(i / 1000 % 10) << 8);
            memcpy(&w[n++], &v, 8);
        }
        if (i == 50000) {
            w[n++] = 0xfu | (40960ull << 4) | (1ull << 40); /* large, 40960 words, no-metadata blob */
            n += 40959;
        }
        w[n++] = 0x4u | (4u << 4) | (1ull << 32); /* instant, inline thread, category 1, name 0 */
        w[n++] = i;
        w[n++] = 1;
        w[n++] = 2;
    }
    CHECK(write(fd, w, n * 8) == (ssize_t)(n * 8));
    close(fd);
    free(w);
    return path;
}

static void ranges_sequential(void) {
    char *path = write_ranges_trace();
    seq_t one = {0};
    CHECK_EQ_I64(cli_read_parallel("test", path, NULL, 1, 0, &seq_ops, &one, NULL), 0);
    CHECK(one.n > 80000 && one.errors == 0);
    const char *ranges[] = {"100000", "700000", "8"};
    for (size_t rb = 0; rb < 3; rb++) {
        for (unsigned jobs = 2; jobs <= 3; jobs++) {
            setenv("FXT_RANGE_BYTES", ranges[rb], 1);
            seq_t many = {0};
            CHECK_EQ_I64(cli_read_parallel("test", path, NULL, jobs, 0, &seq_ops, &many, NULL), 0);
            unsetenv("FXT_RANGE_BYTES");
            CHECK_EQ_U64(many.n, one.n);
            CHECK_EQ_U64(many.errors, one.errors);
            CHECK(many.n == one.n && memcmp(many.v, one.v, one.n * sizeof *one.v) == 0);
            free(many.v);
        }
    }
    free(one.v);
    unlink(path);
}

static void test_ranges_sequential(void) { ranges_sequential(); }

/* The same with the file read by pread. */
static void test_ranges_sequential_pread(void) {
    cli_par_no_map = 1;
    ranges_sequential();
    cli_par_no_map = 0;
}

/* A record callback that answers an exit code ends the read (a failed output, say): at -j 1
 * right there, at -j N within the ranges in flight; the code is the read's answer. */
static uint64_t stop_at; /* the offset whose record answers CLI_EXIT_IO */
static uint64_t stop_seen;
static int stop_record(void *ctx, fxt_reader_t *r, const fxt_record_t *rec) {
    (void)ctx;
    (void)r;
    __atomic_add_fetch(&stop_seen, 1, __ATOMIC_RELAXED);
    return rec->offset == stop_at ? CLI_EXIT_IO : 0;
}
static const cli_par_ops_t stop_ops = {range_new, stop_record, on_error, range_merge, range_free};

static void test_record_answer_stops(void) {
    char *path = write_ranges_trace();
    seq_t one = {0};
    CHECK_EQ_I64(cli_read_parallel("test", path, NULL, 1, 0, &seq_ops, &one, NULL), 0);
    stop_at = one.v[one.n / 4].offset; /* a quarter in */
    for (unsigned jobs = 1; jobs <= 3; jobs++) {
        setenv("FXT_RANGE_BYTES", "65536", 1);
        memset(&sh, 0, sizeof sh); /* on_error counts into it: no error expected */
        stop_seen = 0;
        CHECK_EQ_I64(cli_read_parallel("test", path, NULL, jobs, 0, &stop_ops, &sh, NULL), CLI_EXIT_IO);
        CHECK_EQ_U64(sh.errors, 0);
        unsetenv("FXT_RANGE_BYTES");
        if (jobs == 1) {
            CHECK_EQ_U64(stop_seen, one.n / 4 + 1); /* up to the failing record, not one more */
        } else {
            /* at most the ranges in flight beyond it (jobs + 2 of 64 KiB): far from the whole file */
            CHECK(stop_seen < one.n / 2);
        }
    }
    free(one.v);
    unlink(path);
}

int main(int argc, char **argv) {
    TEST_INIT(argc, argv);
    RUN(test_shrink_page_aligned);
    RUN(test_shrink_inside_record);
    RUN(test_shrink_parallel);
    RUN(test_whole_file_after_shrink);
    RUN(test_shrink_ahead_exact);
    RUN(test_shrink_pread);
    RUN(test_ranges_sequential);
    RUN(test_ranges_sequential_pread);
    RUN(test_record_answer_stops);
    return TEST_EXIT();
}
