/* SPDX-License-Identifier: MIT */
/*
 * For the tests of inputs that change while read (test_cli_io.c, test_cli_parallel.c):
 * a trace file of the magic record and n 32-byte instants (inline thread, empty names),
 * hand-encoded, written to a new temporary file; and stderr captured around a read.
 */
#ifndef FXT_TEST_INSTANTS_FILE_H
#define FXT_TEST_INSTANTS_FILE_H

#include "test.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Writes the file at a new path made from TEMPLATE (mkstemp's XXXXXX) into PATH. */
static void write_instants_file(char *path, const char *tmpl, uint32_t n) {
    strcpy(path, tmpl);
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    uint64_t *w = (uint64_t *)malloc(8 + (size_t)n * 32);
    CHECK(w != NULL);
    w[0] = 0x0016547846040010ull; /* the magic number record */
    for (uint32_t i = 0; i < n; i++) {
        w[1 + 4 * i] = 0x4u | (4u << 4); /* instant, 4 words, inline thread, category/name ref 0 */
        w[2 + 4 * i] = i;                /* timestamp */
        w[3 + 4 * i] = 1;                /* pid */
        w[4 + 4 * i] = 2;                /* tid */
    }
    CHECK(write(fd, w, 8 + (size_t)n * 32) == (ssize_t)(8 + (size_t)n * 32));
    close(fd);
    free(w);
}

/* Sends stderr to a new temporary file until stderr_end(); the capture's state. */
typedef struct stderr_capture {
    int fd, saved;
    char path[32];
} stderr_capture_t;

static void stderr_begin(stderr_capture_t *c) {
    strcpy(c->path, "/tmp/fxt-err-XXXXXX");
    c->fd = mkstemp(c->path);
    CHECK(c->fd >= 0);
    fflush(stderr);
    c->saved = dup(2);
    dup2(c->fd, 2);
}

/* Restores stderr; what was written to it goes to err (at most errlen - 1 bytes, terminated). */
static void stderr_end(stderr_capture_t *c, char *err, size_t errlen) {
    fflush(stderr);
    dup2(c->saved, 2);
    close(c->saved);
    ssize_t n = pread(c->fd, err, errlen - 1, 0);
    err[n > 0 ? n : 0] = '\0';
    close(c->fd);
    unlink(c->path);
}

#endif
