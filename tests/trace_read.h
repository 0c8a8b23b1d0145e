/* SPDX-License-Identifier: MIT */
/*
 * Reading back what the trace engine wrote, for the trace engine's tests: per-thread
 * sequence numbers of the "ev" events, the reported drops, kernel object names.
 */
#ifndef FXT_TEST_TRACE_READ_H
#define FXT_TEST_TRACE_READ_H

#include <fxt/reader.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define TR_MAX_THREADS 16
#define TR_MAX_SEQ 4096

typedef struct tr_summary {
    int ok;                /* the file exists and decodes without an error */
    uint64_t events;       /* every event record */
    uint64_t ev;           /* "ev" events */
    uint64_t dropped;      /* sum of the records_dropped reports' counts */
    uint64_t magic;        /* magic records (1 per file) */
    uint64_t other_pid_ev; /* "ev" events whose thread's process is not pid (when pid != 0) */
    /* seen[t][s]: the "ev" event {thread t, seq s} was read (its count) */
    uint8_t seen[TR_MAX_THREADS][TR_MAX_SEQ];
    char process_name[256]; /* last process kernel object's name (koid == pid) */
    uint64_t process_names; /* how many process kernel objects named pid */
} tr_summary_t;

static inline int tr_name_is(fxt_str_t s, const char *c) {
    return s.len == strlen(c) && memcmp(s.ptr, c, s.len) == 0;
}

static inline int64_t tr_arg(const fxt_record_t *rec, const char *name) {
    for (uint32_t i = 0; i < rec->nargs; i++) {
        if (tr_name_is(rec->args[i].name, name)) {
            return (int64_t)rec->args[i].v.u64;
        }
    }
    return -1;
}

/* Read the trace at path into *s (pid: the process the "ev" events must belong to, or 0). */
static inline void tr_read(const char *path, uint64_t pid, tr_summary_t *s) {
    memset(s, 0, sizeof *s);
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return;
    }
    fxt_reader_t *r = NULL;
    if (fxt_reader_create(NULL, &r) != FXT_OK) {
        fclose(f);
        return;
    }
    static uint8_t buf[1 << 16];
    size_t n;
    int errors = 0;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        fxt_in_buffer_t in = {buf, n, 0};
        fxt_record_t rec;
        fxt_status st;
        while ((st = fxt_reader_next(r, &in, &rec)) != FXT_NEED_INPUT && st != FXT_END) {
            if (st != FXT_OK) {
                errors++;
                continue;
            }
            s->magic += rec.kind == FXT_KIND_MAGIC;
            if (rec.kind == FXT_KIND_KERNEL_OBJECT && rec.u.kernel_object.obj_type == FXT_OBJ_PROCESS &&
                (pid == 0 || rec.u.kernel_object.koid == pid)) {
                s->process_names++;
                snprintf(s->process_name, sizeof s->process_name, "%.*s", (int)rec.u.kernel_object.name.len,
                         rec.u.kernel_object.name.ptr ? rec.u.kernel_object.name.ptr : "");
            }
            if (rec.kind != FXT_KIND_EVENT) {
                continue;
            }
            s->events++;
            if (tr_name_is(rec.u.event.name, "records_dropped")) {
                int64_t c = tr_arg(&rec, "count");
                s->dropped += c > 0 ? (uint64_t)c : 0;
            }
            if (!tr_name_is(rec.u.event.name, "ev")) {
                continue;
            }
            s->ev++;
            if (pid != 0 && rec.u.event.thread.pid != pid) {
                s->other_pid_ev++;
            }
            int64_t t = tr_arg(&rec, "thread"), q = tr_arg(&rec, "seq");
            if (t >= 0 && t < TR_MAX_THREADS && q >= 0 && q < TR_MAX_SEQ && s->seen[t][q] < 255) {
                s->seen[t][q]++;
            }
        }
    }
    fclose(f);
    s->ok = errors == 0 && fxt_reader_finish(r) == FXT_OK;
    fxt_reader_destroy(r);
}

/* Events {thread t, seq s} for t < nt, s < k that were not read exactly once. */
static inline uint64_t tr_missing(const tr_summary_t *s, int nt, int k) {
    uint64_t m = 0;
    for (int t = 0; t < nt; t++) {
        for (int q = 0; q < k; q++) {
            m += s->seen[t][q] != 1;
        }
    }
    return m;
}

/* Runs fn(arg) in a forked child (whose atexit handler stops the session and writes the
 * trace); its exit status, 128 + the signal if killed, -1 when it could not run. */
static inline int tr_in_child(void (*fn)(const char *), const char *arg) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        fn(arg);
        exit(0);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid) {
        return -1;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

#endif /* FXT_TEST_TRACE_READ_H */
