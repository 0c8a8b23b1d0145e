/* SPDX-License-Identifier: MIT */
/*
 * Scheduling events as `fxt record --sched` keeps them between capture and
 * the archive, and their FXT encoding (the kernel provider section). This
 * part has no tracefs dependency: sched_decode.c fills it from raw kernel
 * events, record_sched.c drives both, and tests feed it directly.
 */
#ifndef FXT_SCHED_MODEL_H
#define FXT_SCHED_MODEL_H

#include "cli_map.h"
#include "record_sched.h"

#include <fxt/writer.h>

#include <stdint.h>

enum sched_ev_kind {
    SCHED_EV_SWITCH = 1, /* a: prev tid, b: next tid, prios, cpu, out_state */
    SCHED_EV_WAKEUP,     /* a: woken tid, a_prio, cpu = target cpu; b = 1 for a new task */
    SCHED_EV_FORK,       /* a: parent tid, b: child tid */
    SCHED_EV_EXEC,       /* a: pid after exec, b: old pid (the tid that called exec) */
    SCHED_EV_EXIT        /* a: tid */
};

/* One event, 32 bytes: the log holds millions on a busy system. */
typedef struct sched_ev {
    uint64_t ts;
    int32_t a, b;
    uint32_t cpu;
    uint32_t seq;           /* order of arrival (set by sched_model_add): a CPU's events stay in the
                               kernel's order when timestamps tie */
    int16_t a_prio, b_prio; /* the kernel's prio: 0..139, -1 for deadline tasks */
    uint8_t kind;           /* enum sched_ev_kind */
    uint8_t out_state;      /* switch: enum fxt_thread_state of the outgoing thread */
    uint8_t pad[2];
} sched_ev_t;

#define SCHED_COMM_LEN 16 /* TASK_COMM_LEN */

typedef struct sched_task {
    int32_t tgid;   /* process, -1 while unknown */
    int32_t parent; /* tid that forked it, -1 if not seen */
    uint8_t in_tree;
    uint8_t has_comm;
    uint8_t synthetic;         /* a process's leader made up to name the process: no thread object */
    char comm[SCHED_COMM_LEN]; /* latest name seen, NUL-terminated */
    uint64_t comm_ts;          /* when it was seen */
} sched_task_t;

enum { SCHED_CHUNK = 8192 }; /* events per allocation: no allocation per event */

typedef struct sched_model {
    cli_map_t tasks;    /* tid (int32) -> sched_task_t, in order of first sight */
    sched_ev_t **chunk; /* n events in chunks of SCHED_CHUNK */
    size_t nchunks, chunk_cap;
    uint64_t n;
    uint64_t lost; /* kernel events lost */
    int oom;       /* an append failed: the archive says so */
} sched_model_t;

void sched_model_init(sched_model_t *m);
void sched_model_free(sched_model_t *m);
/* Append an event (copied) and register the tasks it names; 0, or -1 when out of memory (counted as lost). */
int sched_model_add(sched_model_t *m, const sched_ev_t *ev);
/* The task for tid, created (tgid and parent -1) when `create`; NULL if absent or out of memory. */
sched_task_t *sched_model_task(sched_model_t *m, int32_t tid, int create);
/* Task i (0 <= i < tasks.count) in order of first sight; its tid in *tid. */
sched_task_t *sched_model_task_at(sched_model_t *m, size_t i, int32_t *tid);
/* Record the name a task was seen with at ts (up to 16 bytes, NUL or not); the latest in time wins. */
void sched_model_comm(sched_model_t *m, int32_t tid, const char *comm, size_t len, uint64_t ts);

/*
 * Linux sched_switch prev_state -> FXT thread state. The kernel reports one
 * state bit (S 0x1, D 0x2, T 0x4, t 0x8, X 0x10, Z 0x20, P 0x40, I 0x80) or
 * 0 (R) and sets the bit above them when the task was preempted.
 */
uint32_t sched_out_state(int64_t prev_state);

typedef struct {
    int tree_only;
    int32_t root;                /* tree_only: root tid */
    uint64_t ticks_per_second;   /* init record */
    record_sched_named_fn named; /* NULL, or: objects named elsewhere get no kernel object here */
    void *named_ctx;
    /* a snapshot (docs/manager.md#triggers): switches and wakeups stamped in [from, to] only
     * (to 0: no limit); every event up to `to` still ties tasks and CPUs together */
    uint64_t from, to;
} sched_write_opts_t;

/*
 * Write the kernel provider section (see record_sched_finish()): tasks with
 * an unknown tgid are taken as their own process; with tree_only, only the
 * root and tasks forked from it (transitively) get kernel objects and
 * wakeups, and a switch is kept when either side is one of them; a process
 * or thread that o->named says another provider named gets no kernel object
 * (its provider's carries its name and process). Sorts the
 * log by time. Fills *sum when not NULL.
 */
fxt_status sched_model_write(sched_model_t *m, fxt_writer_t *w, uint32_t provider_id,
                             const sched_write_opts_t *o, record_sched_summary_t *sum);

#endif
