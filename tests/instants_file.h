/* SPDX-License-Identifier: MIT */
/*
 * A trace file for the tests of inputs that change while read (test_cli_io.c,
 * test_cli_parallel.c): the magic record and n 32-byte instants (inline thread,
 * empty names), hand-encoded, written to a new temporary file.
 */
#ifndef FXT_TEST_INSTANTS_FILE_H
#define FXT_TEST_INSTANTS_FILE_H

#include "test.h"

#include <stdint.h>
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

#endif
