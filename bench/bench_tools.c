/* SPDX-License-Identifier: MIT */
/*
 * The fxt tools' throughput against the reader's own decode rate, in one run.
 *
 * Writes a synthetic trace (fxt synth) to a temporary file, then times, best
 * of REPS (default 5; every measurement once per round, so a load change hits all alike): the reader alone
 * over the mapped file (the floor a tool cannot beat on one core), and every tool that reads a trace (stats,
 * json, check, cut, dump --json) with -j 1 and -j 2, all run in-process (output to /dev/null). Two floors:
 * the reader decoding the trace already in memory, and the reader decoding the file as the tools read it
 * (mapped, its pages mapped ahead of the reads: mapping them is part of any tool's work). Prints MB/s, each
 * tool's -j 1 ratio to both floors and the -j 2 / -j 1 scaling, beside the machine's own scaling in the same
 * rounds (two readers decoding the trace at once against one: on a shared VM the second core is not
 * always all there, and no tool can scale better than that) and the tool's share of it.
 *
 * Usage: bench_tools [MB] [FILE] [REPS] (default 200 MB; FILE: use an existing trace, "" for a
 * new one; REPS: rounds, default 5)
 */
#define _GNU_SOURCE 1 /* MADV_POPULATE_READ */
#include <fxt/reader.h>

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static volatile uint64_t sink;

/* Decodes every record of data[0, size) (a chunk: a record cut at its end waits in the reader),
 * touching a few fields so nothing is optimised away. */
static uint64_t decode_all(fxt_reader_t *r, const uint8_t *data, size_t size) {
    fxt_in_buffer_t in = {data, size, 0};
    fxt_record_t rec;
    uint64_t acc = 0;
    for (;;) {
        fxt_status st = fxt_reader_next(r, &in, &rec);
        if (st == FXT_OK) {
            acc += rec.kind + rec.size;
        } else if (st == FXT_NEED_INPUT || st == FXT_END) {
            return acc;
        }
    }
}

/* The floor: the reader over the trace already in memory. */
static double reader_pass(const uint8_t *data, size_t size) {
    fxt_reader_t *r;
    if (fxt_reader_create(NULL, &r) != FXT_OK) {
        exit(1);
    }
    double t0 = now();
    uint64_t acc = decode_all(r, data, size);
    double t = now() - t0;
    sink = acc;
    fxt_reader_destroy(r);
    return t;
}

/* The machine's own scaling, the ceiling of any -j 2 / -j 1: two threads each decoding the
 * whole trace in memory at once, against one (on a shared VM the second core is not always
 * all there). */
typedef struct pass_arg {
    const uint8_t *data;
    size_t size;
} pass_arg_t;

static void *reader_thread(void *arg) {
    const pass_arg_t *a = arg;
    (void)reader_pass(a->data, a->size);
    return NULL;
}

static double reader_pass2(const uint8_t *data, size_t size) {
    pass_arg_t a = {data, size};
    pthread_t t;
    double t0 = now();
    if (pthread_create(&t, NULL, reader_thread, &a) != 0) {
        exit(1);
    }
    (void)reader_pass(data, size);
    pthread_join(t, NULL);
    return now() - t0;
}

/* The trace's time span in ms (first to last event), for cut's window. */
static double span_ms(const uint8_t *data, size_t size) {
    fxt_reader_t *r;
    if (fxt_reader_create(NULL, &r) != FXT_OK) {
        exit(1);
    }
    fxt_in_buffer_t in = {data, size, 0};
    fxt_record_t rec;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (;;) {
        fxt_status st = fxt_reader_next(r, &in, &rec);
        if (st == FXT_OK && rec.kind == FXT_KIND_EVENT) {
            lo = rec.u.event.ts < lo ? rec.u.event.ts : lo;
            hi = rec.u.event.ts > hi ? rec.u.event.ts : hi;
        } else if (st == FXT_NEED_INPUT || st == FXT_END) {
            break;
        }
    }
    double tps = (double)fxt_reader_ticks_per_second(r);
    fxt_reader_destroy(r);
    return hi > lo ? (double)(hi - lo) / tps * 1e3 : 0;
}

/* The floor for a tool reading the file: the reader decoding it as the tools read it
 * (tools/cli/cli_parallel.c): mapped, its pages mapped 16 MiB at a time ahead of the reads and
 * unmapped again behind them, handed to the reader 1 MiB at a time. */
static double reader_file_pass(const char *path) {
    fxt_reader_t *r;
    int fd = open(path, O_RDONLY);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0 || fxt_reader_create(NULL, &r) != FXT_OK) {
        exit(1);
    }
    size_t size = (size_t)sb.st_size, step = 16u << 20;
    double t0 = now();
    uint8_t *map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) {
        exit(1);
    }
    uint64_t acc = 0;
    for (size_t off = 0; off < size; off += step) {
        size_t n = size - off < step ? size - off : step;
#ifdef MADV_POPULATE_READ
        madvise(map + off, n, MADV_POPULATE_READ);
#endif
        for (size_t o = off; o < off + n; o += 1u << 20) {
            acc += decode_all(r, map + o, off + n - o < (1u << 20) ? off + n - o : (1u << 20));
        }
        if (off >= step) {
            madvise(map + off - step, step, MADV_DONTNEED);
        }
    }
    munmap(map, size);
    double t = now() - t0;
    sink = acc;
    fxt_reader_destroy(r);
    close(fd);
    return t;
}

/* One in-process run of `fxt ARGS... -j JOBS` with stdout on /dev/null. */
static double tool_pass(char **args, int jobs) {
    char *argv[16] = {"fxt"}, jv[8];
    int argc = 1;
    for (; args[argc - 1] != NULL; argc++) {
        argv[argc] = args[argc - 1];
    }
    snprintf(jv, sizeof jv, "%d", jobs);
    argv[argc++] = "-j";
    argv[argc++] = jv;
    argv[argc] = NULL;
    fflush(stdout);
    int saved = dup(1);
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    close(null);
    double t0 = now();
    int rc = cli_main(argc, argv);
    fflush(stdout);
    double t = now() - t0;
    dup2(saved, 1);
    close(saved);
    if (rc != 0 && rc != 1) {
        fprintf(stderr, "fxt %s failed: exit %d\n", argv[1], rc);
        exit(1);
    }
    return t;
}

int main(int argc, char **argv) {
    unsigned mb = argc > 1 ? (unsigned)atoi(argv[1]) : 200;
    char path[64];
    int reps = argc > 3 ? atoi(argv[3]) : 5;
    if (reps < 1) {
        fprintf(stderr, "bench_tools: REPS must be a count >= 1, got '%s'\n", argv[3]);
        return 2;
    }
    if (argc > 2 && argv[2][0]) {
        snprintf(path, sizeof path, "%s", argv[2]);
    } else {
        snprintf(path, sizeof path, "/tmp/bench_tools_%d.fxt", (int)getpid());
        char size[32];
        snprintf(size, sizeof size, "%uM", mb ? mb : 1);
        char *sargv[] = {"fxt", "synth", "--size", size, "-o", path, NULL};
        if (cli_main(6, sargv) != 0) {
            return 1;
        }
    }
    int fd = open(path, O_RDONLY);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0) {
        perror(path);
        return 1;
    }
    size_t size = (size_t)sb.st_size;
    const uint8_t *data = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (data == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    /* Every tool at -j 1 and -j 2 (pairs), output to /dev/null. cut twice: a 1 % window of the
     * trace's span (mostly selection) and the whole trace (mostly re-encoding). */
    char narrow_to[32];
    snprintf(narrow_to, sizeof narrow_to, "%.0fms", 0.01 * span_ms(data, size) + 1000);
    struct {
        const char *label;
        char *argv[12];
        double best;
    } tools[] = {
        {"fxt stats", {"stats", path}, 1e30},
        {"fxt json", {"json", path}, 1e30},
        {"fxt check", {"check", path}, 1e30},
        {"fxt cut (1 % window)",
         {"cut", "--from", "1000ms", "--to", narrow_to, path, "-o", "/dev/null"},
         1e30},
        {"fxt cut (all)", {"cut", path, "-o", "/dev/null"}, 1e30},
        {"fxt dump --json", {"dump", "--json", path}, 1e30},
    };
    size_t ntools = sizeof tools / sizeof tools[0];
    double best_r = 1e30, best_r2 = 1e30, best_f = 1e30, best_j[sizeof tools / sizeof tools[0]][2];
    for (size_t i = 0; i < ntools; i++) {
        best_j[i][0] = best_j[i][1] = 1e30;
    }
    /* Interleaved, so a load change on a shared machine hits every measurement alike. */
    for (int rep = 0; rep < reps; rep++) {
        double t = reader_pass(data, size);
        best_r = t < best_r ? t : best_r;
        t = reader_pass2(data, size);
        best_r2 = t < best_r2 ? t : best_r2;
        t = reader_file_pass(path);
        best_f = t < best_f ? t : best_f;
        for (size_t i = 0; i < ntools; i++) {
            for (int j = 0; j < 2; j++) {
                t = tool_pass(tools[i].argv, j + 1);
                best_j[i][j] = t < best_j[i][j] ? t : best_j[i][j];
            }
        }
    }
    double mbs = (double)size / 1e6;
    printf("trace: %.1f MB (%s), %ld online cores, best of %d rounds\n", mbs, path,
           sysconf(_SC_NPROCESSORS_ONLN), reps);
    printf("%-34s %7.0f MB/s\n", "reader, data in memory (1 core)", mbs / best_r);
    printf("%-34s %7.0f MB/s\n", "reader, reading the file (1 core)", mbs / best_f);
    double machine = 2 * best_r / best_r2;
    printf("%-34s %7.2fx (two readers at once against one)\n", "the machine's own scaling", machine);
    printf("%-22s %10s %10s %9s %9s %8s %8s\n", "tool", "-j 1 MB/s", "-j 2 MB/s", "/memory", "/file",
           "scaling", "/machine");
    for (size_t i = 0; i < ntools; i++) {
        double scaling = best_j[i][0] / best_j[i][1];
        printf("%-22s %10.0f %10.0f %9.2f %9.2f %7.2fx %8.2f\n", tools[i].label, mbs / best_j[i][0],
               mbs / best_j[i][1], best_r / best_j[i][0], best_f / best_j[i][0], scaling, scaling / machine);
    }
    munmap((void *)(uintptr_t)data, size);
    if (argc <= 2 || !argv[2][0]) {
        unlink(path);
    }
    return 0;
}
