/* SPDX-License-Identifier: MIT */
/*
 * Zero-code tracing: with FXT_TRACE_OUTPUT set, the first trace macro starts a
 * session from the environment, and program exit (atexit) writes the trace.
 * Runs in a forked child so the parent can read the file the child's exit wrote.
 */
#include "test.h"

#include <fxt/reader.h>
#include <fxt/trace.h>

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static void test_autostart_and_atexit(void) {
    char path[512];
    snprintf(path, sizeof path, "%s/trace-autostart-%d.fxt", FXT_BINARY_DIR, (int)getpid());
    unlink(path);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        setenv("FXT_TRACE_OUTPUT", path, 1);
        setenv("FXT_TRACE_CATEGORIES", "auto*", 1);
        setenv("FXT_TRACE_MODE", "streaming", 1);
        int was_active = fxt_session_active();
        FXT_INSTANT("autostart", "first", FXT_I32("n", 1)); /* starts the session, and is kept */
        FXT_INSTANT("other", "not enabled");
        FXT_COUNTER("autostart", "c", 1, FXT_I32("v", 5));
        if (FXT_CATEGORY_ENABLED("automatic")) {
            FXT_INSTANT("automatic", "guarded");
        }
        if (was_active) {
            _Exit(4);
        }
        if (!fxt_session_active()) {
            _Exit(3);
        }
        exit(0); /* atexit stops the session: the trace is written */
    }
    int status = 0;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    if (f == NULL) {
        return;
    }
    static uint8_t buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    unlink(path);
    fxt_reader_t *r = NULL;
    CHECK(fxt_reader_create(NULL, &r) == FXT_OK);
    fxt_in_buffer_t in = {buf, n, 0};
    fxt_record_t rec;
    fxt_status st;
    int errors = 0, first = 0, counter = 0, guarded = 0, other = 0, magic = 0;
    while ((st = fxt_reader_next(r, &in, &rec)) != FXT_NEED_INPUT && st != FXT_END) {
        if (st != FXT_OK) {
            errors++;
            continue;
        }
        magic += rec.kind == FXT_KIND_MAGIC;
        if (rec.kind != FXT_KIND_EVENT || rec.u.event.name.ptr == NULL) {
            continue;
        }
        const fxt_str_t nm = rec.u.event.name;
        first += nm.len == 5 && memcmp(nm.ptr, "first", 5) == 0 && rec.nargs == 1 && rec.args[0].v.i32 == 1;
        counter += rec.u.event.type == FXT_EVENT_COUNTER && rec.u.event.id == 1;
        guarded += nm.len == 7 && memcmp(nm.ptr, "guarded", 7) == 0;
        other += nm.len == 11 && memcmp(nm.ptr, "not enabled", 11) == 0;
    }
    CHECK(fxt_reader_finish(r) == FXT_OK);
    fxt_reader_destroy(r);
    CHECK_EQ_U64(errors, 0);
    CHECK_EQ_U64(magic, 1);
    CHECK_EQ_U64(first, 1);
    CHECK_EQ_U64(counter, 1);
    CHECK_EQ_U64(guarded, 1);
    CHECK_EQ_U64(other, 0);
}

int main(int argc, char **argv) {
    TEST_INIT(argc, argv);
    RUN(test_autostart_and_atexit);
    return TEST_EXIT();
}
