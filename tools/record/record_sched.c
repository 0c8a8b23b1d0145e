/* SPDX-License-Identifier: MIT */
/*
 * `fxt record --sched`: kernel scheduling events from a private tracefs
 * instance (libtracefs), decoded by sched_decode.c, written by sched_model.c.
 * Linux only; without libtracefs the entry points fail with one line.
 */
#if defined(__linux__)
#define _GNU_SOURCE /* tracefs.h declares functions taking cpu_set_t */
#endif
#include "record_sched.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Remove the tracefs instances fxt-sched-PID-N whose recorder is gone (killed with SIGKILL:
 * tracing stays on and the kernel keeps its buffers). Plain directory calls, no libtracefs,
 * so that every fxt record sweeps, whatever it was built with. A PID that exists here is
 * left alone; one that looks dead but belongs to a live recorder in another pid namespace
 * sharing this tracefs is safe too: that recorder holds the instance's trace_pipe_raw open,
 * and the kernel refuses to remove an instance in use (EBUSY).
 */
void record_sched_sweep(void) {
    static const char *const bases[] = {"/sys/kernel/tracing/instances",
                                        "/sys/kernel/debug/tracing/instances"};
    for (size_t b = 0; b < sizeof bases / sizeof bases[0]; b++) {
        DIR *d = opendir(bases[b]);
        if (d == NULL) {
            continue;
        }
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            long pid;
            int n, used = 0;
            if (sscanf(e->d_name, "fxt-sched-%ld-%d%n", &pid, &n, &used) != 2 || e->d_name[used] != '\0' ||
                pid <= 0 || pid > INT32_MAX || kill((pid_t)pid, 0) == 0 || errno != ESRCH) {
                continue;
            }
            char path[512];
            snprintf(path, sizeof path, "%s/%s", bases[b], e->d_name);
            rmdir(path); /* EBUSY: in use; EACCES: not root: left, harmlessly */
        }
        closedir(d);
        return; /* the same tracefs, when both paths exist */
    }
}
#else
void record_sched_sweep(void) {}
#endif

#if defined(__linux__) && defined(FXT_HAVE_SCHED)

#include "sched_decode.h"
#include "sched_model.h"

#include <tracefs.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

struct record_sched {
    record_sched_options_t opt;
    struct tracefs_instance *inst;
    struct tep_handle *tep;
    sched_decoder_t dec;
    sched_model_t model;
    int ncpu;
    struct tracefs_cpu **tcpu; /* per CPU, NULL for a CPU that is not there */
    void *page;                /* one sub-buffer */
    int page_size;
    pthread_t reader;
    int reader_started;
    atomic_int stop;
    atomic_int root;
    size_t resolved; /* tasks (in order of first sight) whose process was looked up */
    int finished;
    pthread_mutex_t lock; /* the reader's drain against a snapshot's (record_sched_snapshot) */
};

static fxt_status fail(char *err, size_t errlen, fxt_status st, const char *fmt, const char *arg) {
    if (err != NULL && errlen > 0) {
        snprintf(err, errlen, fmt, arg);
    }
    return st;
}

/* A task's process from /proc while it lives (tracefs events carry tids only). */
static int32_t proc_tgid(int32_t tid) {
    char path[48], line[128];
    snprintf(path, sizeof path, "/proc/%d/status", (int)tid);
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return -1;
    }
    int32_t tgid = -1;
    while (fgets(line, sizeof line, f) != NULL) {
        int v;
        if (sscanf(line, "Tgid: %d", &v) == 1) {
            tgid = v;
            break;
        }
    }
    fclose(f);
    return tgid;
}

/* Look up the processes of the tasks seen since the last call: one /proc read per new task. */
static void resolve_new_tasks(record_sched_t *s) {
    for (; s->resolved < s->model.tasks.count; s->resolved++) {
        int32_t tid;
        sched_task_t *t = sched_model_task_at(&s->model, s->resolved, &tid);
        if (t->tgid < 0) {
            t->tgid = tid == 0 ? 0 : proc_tgid(tid);
        }
    }
}

/* Read every CPU's buffer until empty. */
static void drain(record_sched_t *s) {
    for (int cpu = 0; cpu < s->ncpu; cpu++) {
        if (s->tcpu[cpu] == NULL) {
            continue;
        }
        for (;;) {
            int n = tracefs_cpu_read(s->tcpu[cpu], s->page, true);
            if (n <= 0) {
                break;
            }
            sched_decode_subbuf(&s->dec, s->page, (size_t)n, cpu, &s->model);
        }
    }
    resolve_new_tasks(s);
}

/*
 * The reader: drains the per-CPU buffers every 10 ms, so they do not fill up
 * (a 4 MiB buffer holds ~60k switches: it keeps up with ~6M per second and
 * CPU) and the reader itself stays off the CPUs it is measuring. Draining
 * in a loop while there is data would take a CPU for itself on a busy system.
 */
static void *reader_main(void *arg) {
    record_sched_t *s = arg;
    while (!atomic_load(&s->stop)) {
        pthread_mutex_lock(&s->lock);
        drain(s);
        pthread_mutex_unlock(&s->lock);
        struct timespec d = {0, 10 * 1000 * 1000};
        nanosleep(&d, NULL);
    }
    return NULL;
}

static void stop_reader(record_sched_t *s) {
    if (s->reader_started) {
        atomic_store(&s->stop, 1);
        pthread_join(s->reader, NULL);
        s->reader_started = 0;
    }
}

/* Kernel counts of events lost in the ring buffers ("overrun", "dropped events" per CPU). */
static uint64_t kernel_lost(record_sched_t *s) {
    uint64_t lost = 0;
    for (int cpu = 0; cpu < s->ncpu; cpu++) {
        char name[64];
        snprintf(name, sizeof name, "per_cpu/cpu%d/stats", cpu);
        char *text = s->tcpu[cpu] ? tracefs_instance_file_read(s->inst, name, NULL) : NULL;
        if (text == NULL) {
            continue;
        }
        char *save = NULL;
        for (char *line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
            unsigned long long v;
            if (sscanf(line, "overrun: %llu", &v) == 1 || sscanf(line, "dropped events: %llu", &v) == 1) {
                lost += v;
            }
        }
        free(text);
    }
    return lost;
}

/* Processes of tasks gone before /proc could be read: the kernel's saved_tgids (option record-tgid). */
static void resolve_saved_tgids(record_sched_t *s) {
    char *text = tracefs_instance_file_read(NULL, "saved_tgids", NULL);
    if (text == NULL) {
        return;
    }
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
        int tid, tgid;
        sched_task_t *t;
        if (sscanf(line, "%d %d", &tid, &tgid) == 2 && tgid > 0 &&
            (t = sched_model_task(&s->model, tid, 0)) != NULL && t->tgid < 0) {
            t->tgid = tgid;
        }
    }
    free(text);
}

void record_sched_destroy(record_sched_t *s) {
    if (s == NULL) {
        return;
    }
    stop_reader(s);
    for (int cpu = 0; cpu < s->ncpu; cpu++) {
        if (s->tcpu[cpu] != NULL) {
            tracefs_cpu_close(s->tcpu[cpu]);
        }
    }
    free(s->tcpu);
    free(s->page);
    sched_decoder_free(&s->dec);
    sched_model_free(&s->model);
    if (s->tep != NULL) {
        tep_free(s->tep);
    }
    if (s->inst != NULL) {
        tracefs_trace_off(s->inst);
        tracefs_instance_destroy(s->inst);
        tracefs_instance_free(s->inst);
    }
    free(s);
}

static fxt_status setup(record_sched_t *s, char *err, size_t errlen) {
    const char *dir = tracefs_tracing_dir(); /* mounts tracefs when it can */
    if (dir == NULL) {
        return fail(err, errlen, FXT_E_IO, "%s",
                    "tracefs is not available (mount it: mount -t tracefs nodev /sys/kernel/tracing)");
    }
    record_sched_sweep();
    /* a private instance: the top-level buffer and other tracers are left alone */
    for (int i = 0; i < 16 && s->inst == NULL; i++) {
        char name[64];
        snprintf(name, sizeof name, "fxt-sched-%ld-%d", (long)getpid(), i);
        errno = 0;
        s->inst = tracefs_instance_create(name);
        if (s->inst == NULL) {
            char msg[256];
            snprintf(msg, sizeof msg, "%s/instances: %s", dir, strerror(errno ? errno : EACCES));
            return fail(
                err, errlen, FXT_E_IO,
                "cannot create a tracefs instance in %s (scheduling records need root or write access "
                "to tracefs)",
                msg);
        }
        if (!tracefs_instance_is_new(s->inst)) { /* someone else's: leave it */
            tracefs_instance_free(s->inst);
            s->inst = NULL;
        }
    }
    if (s->inst == NULL) {
        return fail(err, errlen, FXT_E_IO, "cannot create a new tracefs instance in %s/instances", dir);
    }
    tracefs_trace_off(s->inst);
    const char *clock = s->opt.clock == RECORD_SCHED_CLOCK_TSC ? "x86-tsc" : "mono";
    if (tracefs_instance_file_write(s->inst, "trace_clock", clock) <= 0) {
        return fail(err, errlen, FXT_E_IO, "the kernel's trace clock '%s' is not available here", clock);
    }
    long n = sysconf(_SC_NPROCESSORS_CONF);
    s->ncpu = n > 0 ? (int)n : 1;
    /* 4 MiB per CPU, at most 256 MiB of kernel memory in all (1 MiB per CPU at least) */
    size_t kb = (size_t)256 * 1024 / (size_t)s->ncpu;
    kb = kb > 4096 ? 4096 : kb < 1024 ? 1024 : kb;
    kb = s->opt.buffer_kb ? s->opt.buffer_kb : kb;
    /* if refused, the kernel's default size stays: more losses, still counted */
    tracefs_instance_set_buffer_size(s->inst, kb, -1);
    /* a full buffer drops new events (counted) instead of overwriting unread ones */
    tracefs_option_disable(s->inst, TRACEFS_OPTION_OVERWRITE);
    tracefs_option_enable(s->inst, TRACEFS_OPTION_RECORD_TGID); /* saved_tgids for short-lived tasks */
    if (tracefs_event_enable(s->inst, "sched", "sched_switch") < 0) {
        return fail(err, errlen, FXT_E_IO, "%s",
                    "cannot enable the sched:sched_switch event (kernel without it?)");
    }
    static const char *const optional[] = {"sched_wakeup", "sched_wakeup_new", "sched_process_fork",
                                           "sched_process_exec", "sched_process_exit"};
    for (size_t i = 0; i < sizeof optional / sizeof optional[0]; i++) {
        tracefs_event_enable(s->inst, "sched", optional[i]); /* decoded when present */
    }
    char derr[160];
    s->tep = sched_tep_load(dir, derr, sizeof derr);
    if (s->tep == NULL) {
        return fail(err, errlen, FXT_E_IO, "%s", derr);
    }
    if (sched_decoder_init(&s->dec, s->tep, derr, sizeof derr) != 0) {
        return fail(err, errlen, FXT_E_UNSUPPORTED, "%s", derr);
    }
    s->tcpu = calloc((size_t)s->ncpu, sizeof *s->tcpu);
    if (s->tcpu == NULL) {
        return FXT_E_NOMEM;
    }
    for (int cpu = 0; cpu < s->ncpu; cpu++) {
        s->tcpu[cpu] = tracefs_cpu_open(s->inst, cpu, true);
        int size = s->tcpu[cpu] ? tracefs_cpu_read_size(s->tcpu[cpu]) : 0;
        s->page_size = size > s->page_size ? size : s->page_size;
    }
    if (s->page_size <= 0) {
        return fail(err, errlen, FXT_E_IO, "cannot open the per-CPU buffers (trace_pipe_raw) of %s", dir);
    }
    s->page = malloc((size_t)s->page_size);
    if (s->page == NULL) {
        return FXT_E_NOMEM;
    }
    if (tracefs_trace_on(s->inst) < 0) {
        return fail(err, errlen, FXT_E_IO, "%s", "cannot turn tracing on in the fxt tracefs instance");
    }
    if (pthread_create(&s->reader, NULL, reader_main, s) != 0) {
        return fail(err, errlen, FXT_E_NOMEM, "%s", "cannot start the scheduling reader thread");
    }
    s->reader_started = 1;
    return FXT_OK;
}

fxt_status record_sched_start(const record_sched_options_t *opt, record_sched_t **out, char *err,
                              size_t errlen) {
    *out = NULL;
    if (opt->clock == RECORD_SCHED_CLOCK_TSC && opt->ticks_per_second == 0) {
        return fail(err, errlen, FXT_E_INVALID_ARG, "%s",
                    "record_sched: the TSC clock needs ticks_per_second");
    }
#if !defined(__x86_64__) && !defined(__i386__)
    if (opt->clock == RECORD_SCHED_CLOCK_TSC) {
        return fail(err, errlen, FXT_E_UNSUPPORTED, "%s", "record_sched: the TSC clock is x86 only");
    }
#endif
    record_sched_t *s = calloc(1, sizeof *s);
    if (s == NULL) {
        return fail(err, errlen, FXT_E_NOMEM, "%s", "record_sched: out of memory");
    }
    s->opt = *opt;
    pthread_mutex_init(&s->lock, NULL);
    atomic_init(&s->stop, 0);
    atomic_init(&s->root, opt->root_pid);
    sched_model_init(&s->model);
    fxt_status st = setup(s, err, errlen);
    if (st != FXT_OK) {
        if (st == FXT_E_NOMEM && err != NULL && errlen > 0 && err[0] == '\0') {
            snprintf(err, errlen, "record_sched: out of memory");
        }
        record_sched_destroy(s);
        return st;
    }
    *out = s;
    return FXT_OK;
}

void record_sched_set_root(record_sched_t *s, int pid) {
    if (s != NULL) {
        atomic_store(&s->root, pid);
    }
}

fxt_status record_sched_finish(record_sched_t *s, fxt_writer_t *w, uint32_t provider_id,
                               record_sched_summary_t *sum) {
    if (s == NULL || s->finished) {
        return FXT_E_INVALID_ARG;
    }
    s->finished = 1;
    tracefs_trace_off(s->inst); /* what is in the buffers now is all there is */
    stop_reader(s);
    drain(s);
    resolve_saved_tgids(s);
    uint64_t klost = kernel_lost(s);
    s->model.lost += klost > s->dec.missed ? klost : s->dec.missed;
    sched_write_opts_t o = {s->opt.tree_only,
                            atomic_load(&s->root),
                            s->opt.ticks_per_second ? s->opt.ticks_per_second : 1000000000u,
                            s->opt.named,
                            s->opt.named_ctx,
                            0,
                            0};
    return sched_model_write(&s->model, w, provider_id, &o, sum);
}

fxt_status record_sched_snapshot(record_sched_t *s, fxt_writer_t *w, uint32_t provider_id, uint64_t from,
                                 uint64_t to) {
    if (s == NULL || s->finished) {
        return FXT_E_INVALID_ARG;
    }
    pthread_mutex_lock(&s->lock);
    drain(s); /* what the kernel holds up to now: the cut is in it */
    sched_write_opts_t o = {s->opt.tree_only,
                            atomic_load(&s->root),
                            s->opt.ticks_per_second ? s->opt.ticks_per_second : 1000000000u,
                            s->opt.named,
                            s->opt.named_ctx,
                            from,
                            to};
    fxt_status st = sched_model_write(&s->model, w, provider_id, &o, NULL);
    pthread_mutex_unlock(&s->lock);
    return st;
}

#else /* not Linux, or built without libtracefs */

struct record_sched {
    int unused;
};

fxt_status record_sched_start(const record_sched_options_t *opt, record_sched_t **out, char *err,
                              size_t errlen) {
    (void)opt;
    *out = NULL;
    if (err != NULL && errlen > 0) {
#if defined(__linux__)
        snprintf(err, errlen,
                 "fxt was built without libtracefs/libtraceevent: no scheduling records "
                 "(install libtracefs-dev libtraceevent-dev and rebuild with FXT_WITH_SCHED=ON)");
#else
        snprintf(err, errlen, "fxt was built without scheduling support: it needs Linux tracefs");
#endif
    }
    return FXT_E_UNSUPPORTED;
}

void record_sched_set_root(record_sched_t *s, int pid) {
    (void)s;
    (void)pid;
}

fxt_status record_sched_finish(record_sched_t *s, fxt_writer_t *w, uint32_t provider_id,
                               record_sched_summary_t *sum) {
    (void)s;
    (void)w;
    (void)provider_id;
    (void)sum;
    return FXT_E_UNSUPPORTED;
}

void record_sched_destroy(record_sched_t *s) { (void)s; }

fxt_status record_sched_snapshot(record_sched_t *s, fxt_writer_t *w, uint32_t provider_id, uint64_t from,
                                 uint64_t to) {
    (void)s, (void)w, (void)provider_id, (void)from, (void)to;
    return FXT_E_UNSUPPORTED;
}

#endif
