/* SPDX-License-Identifier: MIT */
/*
 * The trace engine and processes: a fork child keeps its parent's whole
 * configuration (issue 24.3), process names (fxt_set_process_name,
 * FXT_PROCESS_NAME; issue 24.5), archive-unique ids (fxt_unique_id; issue 25.3).
 * Each case runs in a forked child, whose exit writes the trace the parent reads.
 */
#include "test.h"
#include "trace_read.h"

#include <fxt/trace.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void trace_path(char *path, size_t cap, const char *what) {
    snprintf(path, cap, "%s/trace-proc-%s-%d.fxt", FXT_BINARY_DIR, what, (int)getpid());
    unlink(path);
}

/* ---- a fork child keeps every category (24.3) ------------------------------------------ */

static void long_cats_child(const char *path) {
    /* 1,100+ bytes of categories; the enabled one the events use is the last */
    static char cats[2048];
    size_t n = 0;
    for (int i = 0; n < 1100; i++) {
        n += (size_t)snprintf(cats + n, sizeof cats - n, "unused_category_%03d,", i);
    }
    snprintf(cats + n, sizeof cats - n, "last");
    fxt_session_config_t cfg = FXT_SESSION_CONFIG_INIT;
    cfg.output_path = path;
    cfg.categories = cats;
    cfg.buffer_size = 1 << 20;
    if (fxt_session_start(&cfg) != FXT_OK) {
        _Exit(5);
    }
    FXT_INSTANT("last", "ev", FXT_I64("seq", 0), FXT_I64("thread", 0));
    pid_t p = fork();
    if (p == 0) {
        /* the child's own session, from its copy of the parent's configuration */
        FXT_INSTANT("last", "ev", FXT_I64("seq", 1), FXT_I64("thread", 0));
        exit(0);
    }
    int status = 0;
    if (p < 0 || waitpid(p, &status, 0) != p || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        _Exit(6);
    }
    char side[600];
    snprintf(side, sizeof side, "%s.child", path);
    FILE *f = fopen(side, "w");
    if (f == NULL) {
        _Exit(7);
    }
    fprintf(f, "%ld\n", (long)p);
    fclose(f);
}

static void test_fork_child_keeps_long_category_list(void) {
    char path[512], side[600], cpath[600];
    trace_path(path, sizeof path, "cats");
    snprintf(side, sizeof side, "%s.child", path);
    CHECK_EQ_U64(tr_in_child(long_cats_child, path), 0);
    long cpid = 0;
    FILE *f = fopen(side, "r");
    CHECK(f != NULL && fscanf(f, "%ld", &cpid) == 1);
    if (f != NULL) {
        fclose(f);
    }
    snprintf(cpath, sizeof cpath, "%s.%ld", path, cpid);
    static tr_summary_t s;
    tr_read(path, 0, &s);
    CHECK(s.ok);
    CHECK_EQ_U64(s.ev, 1); /* the parent's */
    tr_read(cpath, (uint64_t)cpid, &s);
    CHECK(s.ok);
    CHECK_EQ_U64(s.ev, 1); /* the child's: its last category is still enabled */
    CHECK_EQ_U64(s.seen[0][1], 1);
    CHECK_EQ_U64(s.other_pid_ev, 0);
    unlink(path);
    unlink(side);
    unlink(cpath);
}

/* ---- process names (24.5) ------------------------------------------------------------- */

static void start_or_die(const char *path, fxt_buffer_mode mode) {
    fxt_session_config_t cfg = FXT_SESSION_CONFIG_INIT;
    cfg.output_path = path;
    cfg.mode = mode;
    cfg.buffer_size = 1 << 20;
    if (fxt_session_start(&cfg) != FXT_OK) {
        _Exit(5);
    }
}

static void named_child(const char *path) {
    start_or_die(path, FXT_MODE_ONESHOT);
    FXT_INSTANT("t", "ev", FXT_I64("seq", 0), FXT_I64("thread", 0));
    if (fxt_set_process_name("server") != FXT_OK) {
        _Exit(6);
    }
}

static void renamed_streaming_child(const char *path) {
    if (fxt_set_process_name("first") != FXT_OK) { /* before the session: its preamble says it */
        _Exit(6);
    }
    start_or_die(path, FXT_MODE_STREAMING);
    FXT_INSTANT("t", "ev", FXT_I64("seq", 0), FXT_I64("thread", 0));
    if (fxt_set_process_name("second") != FXT_OK) { /* streaming: said in the thread's chunk */
        _Exit(7);
    }
    FXT_INSTANT("t", "ev", FXT_I64("seq", 1), FXT_I64("thread", 0));
}

static void env_named_child(const char *path) {
    setenv("FXT_TRACE_OUTPUT", path, 1);
    setenv("FXT_PROCESS_NAME", "from-env", 1);
    FXT_INSTANT("t", "ev", FXT_I64("seq", 0), FXT_I64("thread", 0));
}

static void check_name(void (*fn)(const char *), const char *what, const char *want) {
    char path[512];
    trace_path(path, sizeof path, what);
    CHECK_EQ_U64(tr_in_child(fn, path), 0);
    static tr_summary_t s;
    tr_read(path, 0, &s);
    CHECK(s.ok);
    CHECK(s.ev >= 1);
    CHECK(s.process_names >= 1);
    if (strcmp(s.process_name, want) != 0) {
        printf("process name: got '%s', want '%s'\n", s.process_name, want);
        CHECK(0);
    }
    unlink(path);
}

static void test_process_name(void) { check_name(named_child, "pname", "server"); }
static void test_process_name_streaming_renamed(void) {
    check_name(renamed_streaming_child, "pname-stream", "second");
}
static void test_process_name_from_env(void) { check_name(env_named_child, "pname-env", "from-env"); }

static void test_process_name_invalid(void) {
    char big[300];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    CHECK_EQ_U64(fxt_set_process_name(NULL), FXT_E_INVALID_ARG);
    CHECK_EQ_U64(fxt_set_process_name(""), FXT_E_INVALID_ARG);
    CHECK_EQ_U64(fxt_set_process_name(big), FXT_E_INVALID_ARG);
    big[255] = '\0';
    CHECK_EQ_U64(fxt_set_process_name(big), FXT_OK); /* 255 bytes: the longest */
}

/* ---- archive-unique ids (25.3) --------------------------------------------------------- */

static void test_unique_id(void) {
    uint64_t a = fxt_unique_id(), b = fxt_unique_id();
    CHECK(a != 0 && b != 0 && a != b);
    int fds[2];
    CHECK(pipe(fds) == 0);
    pid_t p = fork();
    if (p == 0) {
        uint64_t c[2] = {fxt_unique_id(), fxt_unique_id()};
        _exit(write(fds[1], c, sizeof c) == (ssize_t)sizeof c ? 0 : 1);
    }
    uint64_t d = fxt_unique_id();
    uint64_t c[2] = {0, 0};
    CHECK(read(fds[0], c, sizeof c) == (ssize_t)sizeof c);
    waitpid(p, NULL, 0);
    close(fds[0]);
    close(fds[1]);
    /* the child continues its parent's counter, with its own pid: no id of one is the other's */
    CHECK(c[0] != 0 && c[1] != 0 && c[0] != c[1]);
    CHECK(c[0] != d && c[1] != d && c[0] != a && c[0] != b && c[1] != a && c[1] != b);
    CHECK(d != a && d != b);
}

int main(int argc, char **argv) {
    TEST_INIT(argc, argv);
    RUN(test_fork_child_keeps_long_category_list);
    RUN(test_process_name);
    RUN(test_process_name_streaming_renamed);
    RUN(test_process_name_from_env);
    RUN(test_process_name_invalid);
    RUN(test_unique_id);
    return TEST_EXIT();
}
