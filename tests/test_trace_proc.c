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

/* Runs fn(arg) in a child; its exit status (0: fine). */
static int in_child(void (*fn)(const char *), const char *arg) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        fn(arg);
        exit(0); /* atexit stops the session: the trace is written */
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid) {
        return -1;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
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
    CHECK_EQ_U64(in_child(long_cats_child, path), 0);
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

int main(int argc, char **argv) {
    TEST_INIT(argc, argv);
    RUN(test_fork_child_keeps_long_category_list);
    return TEST_EXIT();
}
