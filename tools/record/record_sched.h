/* SPDX-License-Identifier: MIT */
/*
 * The kernel's side of `fxt record --sched` (Linux only): scheduling records
 * from a private tracefs instance, written as a "kernel" provider section.
 *
 * Life of a recording:
 *
 *   record_sched_options_t o = RECORD_SCHED_OPTIONS_INIT;
 *   record_sched_start(&o, &s, err, sizeof err);  // capture starts, a reader thread drains it
 *   ... fork the command ...; record_sched_set_root(s, pid);  // for tree_only
 *   ... the command runs ...
 *   record_sched_finish(s, w, provider_id, &sum);  // stop, drain, write the provider section
 *   record_sched_destroy(s);
 *
 * Koids: a process's koid is its pid (tgid), a thread's koid is its tid
 * (Linux has one number space for both, so a leader thread and its process
 * share a value; they are told apart by the kernel object type).
 *
 * Built without libtracefs/libtraceevent (FXT_WITH_SCHED=OFF or not found),
 * or on another system, record_sched_start() fails with one line saying so.
 * See docs/sched.md.
 */
#ifndef FXT_RECORD_SCHED_H
#define FXT_RECORD_SCHED_H

#include <fxt/common.h>
#include <fxt/writer.h>

#include <stddef.h>
#include <stdint.h>

typedef enum {
    RECORD_SCHED_CLOCK_MONO, /* tracefs "mono": CLOCK_MONOTONIC ns */
    RECORD_SCHED_CLOCK_TSC   /* tracefs "x86-tsc": raw TSC ticks (x86 only) */
} record_sched_clock;

/* 1 when another provider of the archive already named kernel object (obj_type: 1 process, 2
 * thread; koid); the kernel section then leaves it unnamed: a program's names win over comm. */
typedef int (*record_sched_named_fn)(void *ctx, uint32_t obj_type, uint64_t koid);

typedef struct {
    int tree_only;             /* 1: only root_pid and its descendants (--sched=tree); 0: system-wide */
    int root_pid;              /* the recorded command (tree_only); may be set after start with
                                  record_sched_set_root() since the command starts after capture */
    record_sched_clock clock;  /* archive clock; timestamps are written as the kernel gives them */
    uint64_t ticks_per_second; /* the init record's value; 0 = 1e9 for MONO (required for TSC:
                                  the providers' calibrated TSC rate) */
    size_t buffer_kb; /* per-CPU kernel buffer; 0 = 4096 KiB (less beyond 64 CPUs, 1024 KiB at least) */
    record_sched_named_fn named; /* NULL: the kernel names every task; asked at finish */
    void *named_ctx;
} record_sched_options_t;
#define RECORD_SCHED_OPTIONS_INIT                                                                            \
    { 0, 0, RECORD_SCHED_CLOCK_MONO, 0, 0, NULL, NULL }

typedef struct {
    uint64_t switches; /* context switch records written (inferred ones included) */
    uint64_t wakeups;  /* thread wakeup records written */
    uint64_t tasks;    /* threads of the section (named there, or already by their provider) */
    uint64_t lost;     /* kernel events lost (buffer overrun), reported in the archive too */
    uint64_t inferred; /* switches written to close a CPU's slice where one was missing (docs/sched.md) */
} record_sched_summary_t;

typedef struct record_sched record_sched_t;

/*
 * Find (or mount) tracefs, create a private instance with the chosen
 * trace_clock, enable sched_switch, sched_wakeup, sched_wakeup_new and
 * sched_process_fork/exec/exit, and start a reader thread that drains the
 * per-CPU buffers while recording. On failure: not FXT_OK, one line in err,
 * nothing left behind (the instance is removed).
 */
fxt_status record_sched_start(const record_sched_options_t *opt, record_sched_t **out, char *err,
                              size_t errlen);
/* The root of the recorded tree (tree_only); safe while the reader runs. */
void record_sched_set_root(record_sched_t *s, int pid);
/*
 * Stop capture, drain what is left, write the kernel provider section into w:
 * provider info, init record (ticks per second), process and thread kernel
 * objects (names, the thread's `process` koid argument; none for an object
 * opt->named says another provider named), context switch and
 * thread wakeup records in time order (with an inferred switch where one is
 * missing, docs/sched.md), and for lost kernel events a provider event
 * (buffer full) plus an instant "lost_events" with the count. Fills *sum
 * (may be NULL). Call once; the writer's magic record is the caller's.
 */
fxt_status record_sched_finish(record_sched_t *s, fxt_writer_t *w, uint32_t provider_id,
                               record_sched_summary_t *sum);
/* Remove the tracefs instances left by recorders that died (SIGKILL) with tracing on; any
 * fxt record calls it, with or without --sched (and without libtracefs). Best effort, silent. */
void record_sched_sweep(void);
/* Stop if still running, remove the tracefs instance, free everything; NULL is a no-op. */
void record_sched_destroy(record_sched_t *s);

/*
 * A snapshot while recording (docs/manager.md#triggers): drain what the kernel holds, then
 * write the kernel provider section into w with the switches and wakeups stamped in
 * [from, to] (the recording goes on). Not after record_sched_finish().
 */
fxt_status record_sched_snapshot(record_sched_t *s, fxt_writer_t *w, uint32_t provider_id, uint64_t from,
                                 uint64_t to);

#endif
