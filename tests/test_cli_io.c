/* SPDX-License-Identifier: MIT */
/*
 * The fxt command's input and output (tools/cli/cli_io.c): an input file that
 * shrinks while it is read sequentially (merge, cut without a window, any
 * compressed input) is an I/O error (exit 3) that says so,
 * as cli_parallel's mapped reads already did, and the command's output is not
 * kept. The file is truncated from cli_input_read_hook after the first 1 MiB
 * chunk, so the cut is deterministic.
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
#include "cli_io.h"
#include "instants_file.h"

#define NREC 131072u /* 32-byte instants: 4 MiB, several 1 MiB chunks */

static char g_path[64];
static int g_cut_done;

static void cut_after_first_chunk(const char *name) {
    if (!g_cut_done && strcmp(name, g_path) == 0) {
        g_cut_done = 1;
        CHECK(truncate(g_path, 65536) == 0);
    }
}

static void write_trace(void) {
    write_instants_file(g_path, "/tmp/fxt-cliio-XXXXXX", NREC);
    g_cut_done = 0;
}

static void test_input_shrinks(void) {
    write_trace();
    cli_input_read_hook = cut_after_first_chunk;
    cli_input_t *in;
    char err[512];
    CHECK(cli_input_open(g_path, &in, err, sizeof err) == 0);
    const uint8_t *data;
    size_t len;
    uint64_t bytes = 0;
    int got;
    while ((got = cli_input_read(in, &data, &len, err, sizeof err)) > 0) {
        bytes += len;
    }
    CHECK_EQ_I64(got, -1);
    CHECK_EQ_U64(bytes, 1u << 20); /* the chunk read before the cut is delivered */
    CHECK(strstr(err, "shrank while it was read (4194312 bytes when opened, 65536 now)") != NULL);
    cli_input_close(in);
    cli_input_read_hook = NULL;
    unlink(g_path);
}

/* Runs `fxt CMD g_path -o OUT` in-process with stderr captured: the exit code, stderr in err. */
static int run(const char *cmd, const char *out, char *err, size_t errlen) {
    stderr_capture_t cap;
    stderr_begin(&cap);
    char *argv[] = {"fxt", (char *)cmd, g_path, "-o", (char *)out, NULL};
    int rc = cli_main(5, argv);
    stderr_end(&cap, err, errlen);
    return rc;
}

/* cut (no window: read sequentially) and merge: exit 3, the message, no output left. */
static void check_command(const char *cmd) {
    write_trace();
    cli_input_read_hook = cut_after_first_chunk;
    char out[] = "/tmp/fxt-cliio-out-XXXXXX";
    int fd = mkstemp(out);
    CHECK(fd >= 0);
    CHECK(write(fd, "kept", 4) == 4);
    close(fd);
    char err[4096];
    int rc = run(cmd, out, err, sizeof err);
    cli_input_read_hook = NULL;
    if (rc != CLI_EXIT_IO || strstr(err, "shrank while it was read") == NULL) {
        fprintf(stderr, "fxt %s: exit %d, stderr: %s\n", cmd, rc, err);
    }
    CHECK_EQ_I64(rc, CLI_EXIT_IO);
    CHECK(strstr(err, "shrank while it was read (4194312 bytes when opened, 65536 now)") != NULL);
    /* the existing output is left as it was: a trace cut short must not replace it */
    char buf[8] = {0};
    fd = open(out, O_RDONLY);
    CHECK(fd >= 0);
    CHECK_EQ_I64(read(fd, buf, sizeof buf), 4);
    CHECK(memcmp(buf, "kept", 4) == 0);
    close(fd);
    unlink(out);
    unlink(g_path);
}

static void test_cut_shrinks(void) { check_command("cut"); }
static void test_merge_shrinks(void) { check_command("merge"); }

int main(int argc, char **argv) {
    TEST_INIT(argc, argv);
    RUN(test_input_shrinks);
    RUN(test_cut_shrinks);
    RUN(test_merge_shrinks);
    return TEST_EXIT();
}
