/* SPDX-License-Identifier: MIT */
/*
 * Trace sessions: start and stop, the output (preamble, chunks, loss
 * reports; the streaming writer thread), statistics, the FXT_TRACE_*
 * environment, and fork. Under a trace manager (FXT_TRACE_MANAGER) the
 * session writes nothing itself: the manager reads the shared buffer.
 */
#define _GNU_SOURCE 1 /* program_invocation_short_name */
#include "options.h"
#include "provider_records.h"
#include "trace_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

uint32_t fxt__gen_on = 1;  /* no session: no site state equals these (sites start at 0) ... */
uint32_t fxt__gen_off = 2; /* ... except gen_off after their first refresh */

/* Designated: every member not named starts at zero. */
struct fxt__trace_session fxt__trace = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .cond = PTHREAD_COND_INITIALIZER,
    .mode = FXT_MODE_ONESHOT,
    .all_cats = 1,
    .tps = 1000000000u,
    .fd = -1,
    .out_status = FXT_OK,
    .full_fence = 1,
    .mgr_fd = -1,
    .start_cond = PTHREAD_COND_INITIALIZER,
};

/* The thread running a start from FXT_TRACE_* (its own call sites must not wait for it). */
static __thread int tl_starting;

void fxt__trace_sites_next(void) {
    uint32_t e = ++fxt__trace.site_epoch;
    __atomic_store_n(&fxt__gen_on, 2 * e + 1, __ATOMIC_RELEASE);
    __atomic_store_n(&fxt__gen_off, 2 * e + 2, __ATOMIC_RELEASE);
}

void fxt__trace_wait_start_locked(void) {
    while (fxt__trace.starting && !tl_starting) {
        pthread_cond_wait(&fxt__trace.start_cond, &fxt__trace.lock);
    }
}

int fxt_session_active(void) { return __atomic_load_n(&fxt__trace.active, __ATOMIC_ACQUIRE); }

/* ---- output ----------------------------------------------------------------------------------- */

static void out_write(const void *data, size_t len) {
    if (fxt__trace.out_status != FXT_OK || len == 0) {
        return;
    }
    fxt__trace.out_status = fxt__trace.sink.write(fxt__trace.sink.ctx, data, len);
    /* read by fxt_session_get_stats() while the streaming writer runs */
    __atomic_store_n(&fxt__trace.out_bytes, fxt__trace.out_bytes + len, __ATOMIC_RELAXED);
}

/* Write records through a temporary writer straight into the output sink. */
static fxt_status out_sink(void *ctx, const void *data, size_t len) {
    (void)ctx;
    out_write(data, len);
    return fxt__trace.out_status;
}

/* pname: the process's name ("": the provider name), read under the lock by the caller */
static void write_preamble(int with_threads, const char *pname) {
    fxt_sink_t s = {out_sink, NULL};
    fxt_writer_t *w;
    if (fxt_writer_create(NULL, s, &w) != FXT_OK) {
        fxt__trace.out_status = FXT_E_NOMEM;
        return;
    }
    fxt_write_magic(w);
    fxt_write_provider_info(w, 1, fxt_str_n(fxt__trace.provider_name, strlen(fxt__trace.provider_name)));
    fxt_write_init(w, fxt__trace.tps);
    fxt__write_process_clock(w, fxt__trace.pid, pname[0] != '\0' ? pname : fxt__trace.provider_name,
                             fxt__trace.start_ticks, fxt__trace.tps, fxt__trace.start_mono_ns,
                             fxt__trace.start_realtime_ns);
    if (with_threads) {
        for (tls_t *t = fxt__trace.threads; t != NULL; t = t->next_all) {
            if (t->gen != fxt__trace.gen) {
                continue;
            }
            fxt_arg_t a = fxt_arg_koid(fxt_str_inline(fxt_cstr("process")), fxt__trace.pid);
            fxt_write_kernel_object(w, t->tid, FXT_OBJ_THREAD, fxt_str_inline(fxt_cstr(t->name)), &a, 1);
        }
    }
    fxt_writer_finish(w);
    fxt_writer_destroy(w);
}

static void write_loss_report(const char *what, uint64_t count) {
    if (count == 0) {
        return;
    }
    fxt_sink_t s = {out_sink, NULL};
    fxt_writer_t *w;
    if (fxt_writer_create(NULL, s, &w) != FXT_OK) {
        return;
    }
    fxt__write_loss_report(w, 1, fxt__trace.pid, fxt__trace_now(), what, count);
    fxt_writer_finish(w);
    fxt_writer_destroy(w);
}

static void write_drop_report(uint64_t dropped) { write_loss_report("records_dropped", dropped); }

/* Standalone TSC: ticks per second from the start pair and a pair taken now,
 * at least min_ns later (no calibration sleep when the program starts). */
static void settle_tps(uint64_t min_ns) {
    if (!fxt__trace.tps_known) {
        uint64_t tps = fxt__trace_tsc_settle(fxt__trace.start_ticks, fxt__trace.start_mono_ns, min_ns);
        pthread_mutex_lock(&fxt__trace.lock);
        fxt__trace.tps = tps;
        fxt__trace.tps_known = 1;
        __atomic_store_n(&fxt__trace.hdr->ticks_per_second, tps,
                         __ATOMIC_RELAXED); /* for readers of the mapping */
        pthread_mutex_unlock(&fxt__trace.lock);
    }
}

static void *writer_main(void *arg) {
    (void)arg; /* started by fxt__trace_thread_create: the fatal signals blocked */
    /* the preamble needs the clock rate: measured here, while the program traces */
    settle_tps(20000000u);
    char pname[sizeof fxt__trace.process_name];
    pthread_mutex_lock(&fxt__trace.lock);
    memcpy(pname, fxt__trace.process_name, sizeof pname);
    pthread_mutex_unlock(&fxt__trace.lock);
    /* each write is announced: a crash handler (trace_crash.c) waits for it, then writes the rest */
    if (!fxt__trace_crash_writer_begin()) {
        return NULL;
    }
    write_preamble(0, pname);
    fxt__trace_crash_preamble_done();
    fxt__trace_crash_writer_end();
    pthread_mutex_lock(&fxt__trace.lock);
    for (;;) {
        while (fxt__trace.queue_head == NULL && !fxt__trace.writer_stop) {
            pthread_cond_wait(&fxt__trace.cond, &fxt__trace.lock);
        }
        chunk_t *c = fxt__trace.queue_head;
        if (c == NULL) {
            break;
        }
        fxt__trace.queue_head = c->next;
        if (fxt__trace.queue_head == NULL) {
            fxt__trace.queue_tail = NULL;
        }
        pthread_mutex_unlock(&fxt__trace.lock);
        if (!fxt__trace_crash_writer_begin()) {
            return NULL; /* the crash handler writes c (still FULL) and the rest */
        }
        /* a queued chunk is no longer written by its thread: read without the lock */
        out_write(c->data, __atomic_load_n(&c->sh->used, __ATOMIC_ACQUIRE));
        __atomic_store_n(&c->sh->state, FXT_CHUNK_FREE, __ATOMIC_RELEASE); /* written */
        fxt__trace_crash_writer_end();
        pthread_mutex_lock(&fxt__trace.lock);
        c->next = fxt__trace.free_list;
        fxt__trace.free_list = c;
    }
    pthread_mutex_unlock(&fxt__trace.lock);
    return NULL;
}

static int cmp_seq(const void *a, const void *b) {
    const chunk_t *x = *(chunk_t *const *)a, *y = *(chunk_t *const *)b;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* ---- session ----------------------------------------------------------------------------------- */

static void stop_at_exit(void);
static int stopping_at_exit; /* the atexit handler stops the session */
static void atfork_prepare(void);
static void atfork_parent(void);
static void atfork_child(void);

/* The output path of this process: "%p" becomes the pid; a fork child (or a
 * process that inherited FXT_TRACE_OUTPUT from a traced parent) whose path has
 * no "%p" writes to "<path>.<pid>", never over its parent's file; the n-th image
 * (n >= 2, exec) of a process that wrote a trace from FXT_TRACE_* writes "<path>-<n>". */
static int expand_path(const char *in, int child, int image, char *out, size_t cap) {
    size_t n = 0;
    int had_p = 0;
    for (const char *s = in; *s != '\0'; s++) {
        int k;
        if (s[0] == '%' && s[1] == 'p') {
            k = snprintf(out + n, cap - n, "%ld", (long)getpid());
            s++;
            had_p = 1;
        } else {
            k = snprintf(out + n, cap - n, "%c", *s);
        }
        if (k < 0 || (size_t)k >= cap - n) {
            return -1;
        }
        n += (size_t)k;
    }
    if (child && !had_p) {
        int k = snprintf(out + n, cap - n, ".%ld", (long)getpid());
        if (k < 0 || (size_t)k >= cap - n) {
            return -1;
        }
        n += (size_t)k;
    }
    if (image > 1) {
        int k = snprintf(out + n, cap - n, "-%d", image);
        if (k < 0 || (size_t)k >= cap - n) {
            return -1;
        }
    }
    return 0;
}

/*
 * exec keeps the pid and the environment: FXT_TRACE_OUTPUT_IMAGES="<pid> <n>" says
 * that n images of process <pid> wrote a trace from FXT_TRACE_* (or as a fork
 * child), so that the next one does not write over them (issue 24.2).
 */
#define IMAGES_ENV "FXT_TRACE_OUTPUT_IMAGES"
static int image_number(void) {
    const char *v = getenv(IMAGES_ENV);
    long pid = 0;
    int n = 0;
    if (v != NULL && sscanf(v, "%ld %d", &pid, &n) == 2 && pid == (long)getpid() && n >= 1) {
        return n + 1;
    }
    return 1;
}

static void image_claim(int n) {
    char v[64];
    snprintf(v, sizeof v, "%ld %d", (long)getpid(), n);
    setenv(IMAGES_ENV, v, 1);
}

/*
 * FXT_TRACE_OUTPUT set when the program starts (libfxt loaded): this process owns
 * the path, now, before it may fork. A child forked before the first trace call
 * (no session to restart yet) then sees another owner and writes "<path>.<pid>",
 * as a program it execs does; without this both wrote the one path (issue 24.2).
 */
__attribute__((constructor)) static void claim_output(void) {
    /* from the start, not at the first session: a fork while a start from FXT_TRACE_*
     * is under way must leave the child a lock and a state it can use */
    pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
    const char *out = getenv("FXT_TRACE_OUTPUT");
    const char *mgr = getenv(FXT_MANAGER_ENV);
    if (out != NULL && out[0] != '\0' && (mgr == NULL || mgr[0] == '\0') &&
        getenv("FXT_TRACE_OUTPUT_OWNER") == NULL) {
        char me[32];
        snprintf(me, sizeof me, "%ld", (long)getpid());
        setenv("FXT_TRACE_OUTPUT_OWNER", me, 1);
    }
}

/* Start, step 1: who this process is in the trace. */
static void start_identity(const fxt_session_config_t *c) {
    const char *pn = c->provider_name;
#if defined(__linux__) && defined(_GNU_SOURCE)
    if (pn == NULL) {
        pn = program_invocation_short_name;
    }
#endif
    snprintf(fxt__trace.provider_name, sizeof fxt__trace.provider_name, "%s", pn ? pn : "process");
    fxt__trace.pid = (uint64_t)getpid();
    fxt__trace_process_name_from_env();
}

/* Start, step 2 (standalone, to a path): open the trace file (the fd is the session's). */
static fxt_status start_open_path(const char *output_path, int child) {
    /* each "%p" (2 bytes) becomes at most 20 digits; then ".<pid>" and "-<n>" */
    size_t cap = strlen(output_path) * 10 + 64;
    char *path = malloc(cap);
    /* sessions from FXT_TRACE_* and fork children: one file per exec'd image */
    int image = fxt__trace.from_env || child ? image_number() : 1;
    if (path == NULL || expand_path(output_path, child, image, path, cap) != 0) {
        free(path);
        return FXT_E_NOMEM;
    }
    /* close-on-exec: a program it starts must not inherit (and keep open) the trace */
    fxt__trace.fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fxt__trace.fd < 0) {
        if (fxt__trace.from_env || child) {
            fxt__trace_warn("cannot write the trace to %s (%s); not tracing", path, strerror(errno));
        }
        free(path);
        return FXT_E_IO;
    }
    free(path);
    fxt__trace.owns_fd = 1;
    fxt__trace.sink = fxt_sink_fd(&fxt__trace.fd);
    if (fxt__trace.from_env || child) {
        image_claim(image);
    }
    return FXT_OK;
}

/* Start, step 2: where the records go: the manager (which then decides mode, buffer size,
 * categories and clock, in *c and *mc; *mgr_cats to free), a file, or the config's sink. */
static fxt_status start_output(fxt_session_config_t *c, int child, int managed, fxt_mgr_config_t *mc,
                               char **mgr_cats) {
    if (managed) {
        /* the manager decides: categories, mode, buffer size and clock are the same in
         * every process of the recording; the config's output is not used */
        int fd = fxt__trace_mgr_connect(mc, mgr_cats);
        if (fd < 0) {
            return FXT_E_IO;
        }
        fxt__trace.mgr_fd = fd;
        c->mode = (fxt_buffer_mode)mc->mode;
        c->buffer_size = (size_t)mc->buffer_size;
        c->categories = *mgr_cats;
        fxt__trace.owns_fd = 0;
        fxt__trace.sink.write = NULL;
        return FXT_OK;
    }
    if (c->output_path != NULL) {
        return start_open_path(c->output_path, child);
    }
    if (child) {
        return FXT_E_STATE; /* the parent's sink is not ours to write to */
    }
    fxt__trace.owns_fd = 0;
    fxt__trace.sink = c->sink;
    return FXT_OK;
}

/* The chunk size for a buffer of `total` bytes: 16 chunks or more, 4 KiB to 256 KiB each. */
static uint32_t start_chunk_size(size_t total) {
    uint32_t cs = (uint32_t)(total / 16 < FXT__TRACE_MAX_CHUNK ? total / 16 : FXT__TRACE_MAX_CHUNK);
    if (cs < 4096) {
        cs = 4096;
    }
    return cs & ~7u;
}

/* Start, step 3: the categories and the buffer; on failure, undoes step 2. */
static fxt_status start_buffers(fxt_session_config_t *c, int managed, char *mgr_cats) {
    fxt_status st = FXT_OK;
    if (fxt__trace_parse_cats(c->categories) != 0) {
        st = FXT_E_NOMEM;
    }
    free(mgr_cats);
    c->categories = NULL;
    size_t total = c->buffer_size ? c->buffer_size : FXT__TRACE_DEFAULT_BUFFER;
    if (total < 64u << 10) {
        total = 64u << 10;
    }
    if (st != FXT_OK || fxt__trace_map_buffer(total, start_chunk_size(total), managed) != 0) {
        fxt__trace_free_cats();
        if (fxt__trace.owns_fd) {
            close(fxt__trace.fd);
            fxt__trace.owns_fd = 0;
        }
        if (fxt__trace.mgr_fd >= 0) {
            close(fxt__trace.mgr_fd);
            fxt__trace.mgr_fd = -1;
        }
        return FXT_E_NOMEM;
    }
    fxt__trace.free_list = NULL;
    for (uint32_t i = fxt__trace.nchunks; i-- > 0;) { /* chunk 0 first: pages are populated in order */
        if (c->mode == FXT_MODE_STREAMING) {
            fxt__trace.chunks[i].next = fxt__trace.free_list;
            fxt__trace.free_list = &fxt__trace.chunks[i];
        }
    }
    fxt__trace.queue_head = fxt__trace.queue_tail = NULL;
    fxt__trace.next_chunk = 0;
    fxt__trace.seq = 0;
    fxt__trace.mode = c->mode;
    fxt__trace.out_status = FXT_OK;
    fxt__trace.out_bytes = 0;
    return FXT_OK;
}

/* Start, step 4: the clock (no calibration sleep here: the program's first event would wait
 * for it), its anchor, and the shared header that says them. Returns whether it is the TSC. */
static int start_clock(const fxt_session_config_t *c, int managed, const fxt_mgr_config_t *mc) {
    int use_tsc = 0;
    fxt__trace.tps = 1000000000u;
    fxt__trace.tps_known = 1;
    if (managed) {
#if defined(__x86_64__)
        use_tsc = mc->clock == FXT_SHM_CLOCK_TSC && mc->ticks_per_second > 0;
        if (use_tsc) {
            fxt__trace.tps = mc->ticks_per_second; /* calibrated once, by the manager */
        }
#else
        (void)mc;
#endif
    } else if (c->clock == FXT_CLOCK_TSC || (c->clock == FXT_CLOCK_AUTO && fxt__trace_tsc_invariant())) {
#if defined(__x86_64__)
        use_tsc = 1;
        /* the boot's rate if known, else measured at output from the start pair (settle_tps) */
        fxt__trace.tps = fxt__trace_tsc_cached();
        fxt__trace.tps_known = fxt__trace.tps != 0;
        if (!fxt__trace.tps_known) {
            fxt__trace.tps = 1000000000u;
        }
#endif
    }
    __atomic_store_n(&fxt__trace.tsc, use_tsc, __ATOMIC_RELAXED);
    fxt__trace.start_mono_ns = fxt__trace_mono_ns();
    fxt__trace.start_ticks = fxt__trace_now();
    fxt__trace.start_realtime_ns = fxt__trace_realtime_ns();
    return use_tsc;
}

/* Start, step 5: the shared header (include/fxt/manager.h) of the new buffer. */
static void start_header(fxt_buffer_mode mode, int use_tsc) {
    fxt_shm_header_t *h = fxt__trace.hdr;
    h->mode = (uint32_t)mode;
    h->clock = use_tsc ? FXT_SHM_CLOCK_TSC : FXT_SHM_CLOCK_MONOTONIC;
    h->ticks_per_second = fxt__trace.tps_known ? fxt__trace.tps : 0;
    h->pid = fxt__trace.pid;
    h->ppid = (uint64_t)getppid();
    h->anchor_ticks = fxt__trace.start_ticks;
    h->anchor_mono_ns = fxt__trace.start_mono_ns;
    h->anchor_realtime_ns = fxt__trace.start_realtime_ns;
    fxt__trace_header_name(); /* the name the program gave itself, if any, else argv0 */
}

/* Start, step 6: hand the buffer to the manager, then open the session to every thread. */
static fxt_status start_go_live(int managed) {
    if (managed && fxt__trace_mgr_send_buffer() != 0) {
        close(fxt__trace.mgr_fd);
        fxt__trace.mgr_fd = -1;
        fxt__trace_unmap_buffer();
        fxt__trace_free_cats();
        return FXT_E_IO;
    }
    fxt__trace.managed = managed;
    if (!managed && fxt__trace.owns_fd) {
        fxt__trace_crash_install(); /* a fatal signal writes what was committed */
    }
    __atomic_store_n(&fxt__trace.gen, fxt__trace.gen + 1, __ATOMIC_RELEASE);
    fxt__trace_membarrier_register();
    __atomic_store_n(&fxt__trace.active, 1, __ATOMIC_RELEASE);
    /* new site states: every site recomputes its state once */
    fxt__trace_sites_next();
    /* read before the streaming writer thread starts: from then on it owns out_status */
    fxt_status st_out = fxt__trace.out_status;
    if (fxt__trace.mode == FXT_MODE_STREAMING && !managed) {
        fxt__trace.writer_stop = 0;
        fxt__trace.writer_running = fxt__trace_thread_create(&fxt__trace.writer, writer_main, NULL) == 0;
        if (!fxt__trace.writer_running) {
            fxt__trace.out_status = FXT_E_NOMEM;
            st_out = FXT_E_NOMEM;
        }
    }
    return st_out;
}

/* Under the lock, no session active: start one from c (cfg, or the saved one of a fork child). */
static fxt_status start_locked(const fxt_session_config_t *cin, int child) {
    fxt_session_config_t c = *cin;
    fxt_mgr_config_t mc;
    memset(&mc, 0, sizeof mc);
    char *mgr_cats = NULL; /* the manager's category list, whole (freed once parsed) */
    start_identity(&c);
    const char *mgr = getenv(FXT_MANAGER_ENV);
    int managed = mgr != NULL && mgr[0] != '\0'; /* fxt__trace.managed once the session runs */
    fxt_status st = start_output(&c, child, managed, &mc, &mgr_cats);
    if (st != FXT_OK) {
        return st;
    }
    st = start_buffers(&c, managed, mgr_cats);
    if (st != FXT_OK) {
        return st;
    }
    start_header(c.mode, start_clock(&c, managed, &mc));
    return start_go_live(managed);
}

/* wait: 0 when called by the start from FXT_TRACE_* (which is the start under way) */
static fxt_status session_start(const fxt_session_config_t *cfg, int wait) {
    fxt_session_config_t c = FXT_SESSION_CONFIG_INIT;
    if (cfg == NULL || fxt__options_read(&c, sizeof c, cfg) != FXT_OK) {
        return FXT_E_INVALID_ARG;
    }
    const char *mgr = getenv(FXT_MANAGER_ENV);
    if (c.output_path == NULL && c.sink.write == NULL && (mgr == NULL || mgr[0] == '\0')) {
        return FXT_E_INVALID_ARG;
    }
    if (c.mode > FXT_MODE_STREAMING) {
        return FXT_E_INVALID_ARG;
    }
    pthread_mutex_lock(&fxt__trace.lock);
    if (wait) {
        fxt__trace_wait_start_locked();
    }
    fxt__trace.env_tried = 1; /* an explicit session wins over FXT_TRACE_* auto-start */
    static int atexit_registered;
    if (!atexit_registered) {
        atexit_registered = 1;
        atexit(stop_at_exit); /* program exit writes / flushes a running session */
    }
    if (fxt__trace.active) {
        pthread_mutex_unlock(&fxt__trace.lock);
        return FXT_E_STATE;
    }
    /* from here to the end of the start (under the lock) every call site that is
     * evaluated waits for the lock, then sees the session: none skips an event
     * because it cached "off" before the start */
    fxt__trace_sites_next();
    /* kept for a fork child, which starts its own session from it: whole copies, the
     * child must not lose what a fixed-size copy would cut (issue 24.3) */
    free(fxt__trace.cfg_path);
    free(fxt__trace.cfg_cats);
    free(fxt__trace.cfg_name);
    fxt__trace.cfg_path = c.output_path != NULL ? strdup(c.output_path) : NULL;
    fxt__trace.cfg_cats = strdup(c.categories != NULL ? c.categories : "");
    fxt__trace.cfg_name = c.provider_name != NULL ? strdup(c.provider_name) : NULL;
    if ((c.output_path != NULL && fxt__trace.cfg_path == NULL) || fxt__trace.cfg_cats == NULL ||
        (c.provider_name != NULL && fxt__trace.cfg_name == NULL)) {
        pthread_mutex_unlock(&fxt__trace.lock);
        return FXT_E_NOMEM;
    }
    fxt__trace.cfg = c;
    fxt__trace.cfg.output_path = fxt__trace.cfg_path;
    fxt__trace.cfg.categories = fxt__trace.cfg_cats;
    fxt__trace.cfg.provider_name = fxt__trace.cfg_name;
    fxt_status st = start_locked(&c, 0);
    pthread_mutex_unlock(&fxt__trace.lock);
    return st;
}

fxt_status fxt_session_start(const fxt_session_config_t *cfg) { return session_start(cfg, 1); }

fxt_status fxt_session_stop(void) {
    pthread_mutex_lock(&fxt__trace.lock);
    if (!fxt__trace.active) { /* (another stop, which ended it under the lock) */
        pthread_mutex_unlock(&fxt__trace.lock);
        return FXT_E_STATE;
    }
    /* a fatal signal from here on waits for the trace to be written (trace_crash.c; this
     * thread defers them); a crash handler ends the session the same way, without the lock */
    sigset_t sigs;
    fxt__trace_crash_stopping(1, &sigs);
    int one = 1;
    if (!__atomic_compare_exchange_n(&fxt__trace.active, &one, 0, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
        fxt__trace_crash_stopping(0, &sigs);
        pthread_mutex_unlock(&fxt__trace.lock);
        return FXT_E_STATE;
    }
    /* disable every site, then give in-flight events a moment to finish */
    fxt__trace_sites_next();
    tls_t *head = fxt__trace.threads; /* the list only grows at its head; nodes are never freed */
    pthread_mutex_unlock(&fxt__trace.lock);
    fxt__trace_wait_writers(head);
    if (!fxt__trace.managed && fxt__trace.mode != FXT_MODE_STREAMING) {
        settle_tps(10000000u); /* standalone TSC: >= 10 ms between the two pairs */
    }

    pthread_mutex_lock(&fxt__trace.lock);
    fxt_session_stats_t s = {0, 0, 0, 0, 0, fxt__trace.tps};
    for (tls_t *t = fxt__trace.threads; t != NULL; t = t->next_all) {
        if (t->gen != fxt__trace.gen) {
            continue;
        }
        s.threads++;
        s.records += FXT__TRACE_READ(t->records);
        s.dropped += FXT__TRACE_READ(t->dropped);
        s.overwritten += FXT__TRACE_READ(t->overwritten);
    }
    if (fxt__trace.managed) {
        /* the manager reads the mapping: seal every chunk, say goodbye */
        for (tls_t *t = fxt__trace.threads; t != NULL; t = t->next_all) {
            if (t->gen == fxt__trace.gen && t->cur != NULL) {
                __atomic_store_n(&t->cur->sh->state, FXT_CHUNK_FULL, __ATOMIC_RELEASE);
            }
        }
        __atomic_store_n(&fxt__trace.hdr->closed, 1, __ATOMIC_RELEASE);
        fxt__trace_mgr_bye(&s);
    } else if (fxt__trace.mode == FXT_MODE_STREAMING) {
        for (tls_t *t = fxt__trace.threads; t != NULL; t = t->next_all) {
            if (t->gen == fxt__trace.gen && t->cur != NULL) {
                fxt__trace_enqueue(t->cur);
                t->cur = NULL;
            }
        }
        fxt__trace.writer_stop = 1;
        pthread_cond_broadcast(&fxt__trace.cond);
        pthread_mutex_unlock(&fxt__trace.lock);
        if (fxt__trace.writer_running) {
            pthread_join(fxt__trace.writer, NULL);
        }
        pthread_mutex_lock(&fxt__trace.lock);
    } else {
        write_preamble(1, fxt__trace.process_name);
        /* circular: the oldest chunks were overwritten, so the kept events may
         * start with ends whose begins are gone; say so before them */
        write_loss_report("chunks_overwritten", s.overwritten);
        for (tls_t *t = fxt__trace.threads; t != NULL; t = t->next_all) {
            if (t->gen != fxt__trace.gen || t->nchunks == 0) {
                continue;
            }
            /* circular: oldest kept chunk first */
            qsort(t->chunks, t->nchunks, sizeof *t->chunks, cmp_seq);
            for (size_t i = 0; i < t->nchunks; i++) {
                out_write(t->chunks[i]->data, __atomic_load_n(&t->chunks[i]->sh->used, __ATOMIC_ACQUIRE));
            }
        }
    }
    if (!fxt__trace.managed) {
        write_drop_report(s.dropped);
    }
    for (tls_t *t = fxt__trace.threads; t != NULL; t = t->next_all) {
        if (t->gen == fxt__trace.gen) {
            t->cur = NULL;
            t->p = t->end = NULL;
            t->nchunks = 0;
        }
    }
    s.bytes = fxt__trace.out_bytes;
    s.ticks_per_second = fxt__trace.tps;
    fxt__trace.last = s;
    fxt_status st = fxt__trace.out_status;
    if (fxt__trace.owns_fd && close(fxt__trace.fd) != 0 && st == FXT_OK) {
        st = FXT_E_IO;
    }
    if (!fxt__trace.managed && (fxt__trace.from_env || stopping_at_exit) && s.dropped > 0) {
        /* a silent 93 % loss looks like a quiet program: say it once, at the end */
        fxt__trace_warn("%s: %" PRIu64 " of %" PRIu64 " records dropped (buffer full; raise "
                        "FXT_TRACE_BUFFER_SIZE or use FXT_TRACE_MODE=circular/streaming)",
                        fxt__trace.cfg_path != NULL ? fxt__trace.cfg_path : "trace", s.dropped,
                        s.records + s.dropped);
    }
    fxt__trace.from_env = 0;
    fxt__trace.owns_fd = 0;
    fxt__trace.managed = 0;
    fxt__trace_crash_uninstall();
    fxt__trace_unmap_buffer();
    fxt__trace_free_cats();
    /* the next session gets a new generation: thread states reset on first use */
    __atomic_store_n(&fxt__trace.gen, fxt__trace.gen + 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&fxt__trace.lock);
    fxt__trace_crash_stopping(0, &sigs); /* a signal deferred meanwhile is delivered now */
    return st;
}

void fxt_session_get_stats(fxt_session_stats_t *out) {
    if (out == NULL) {
        return;
    }
    pthread_mutex_lock(&fxt__trace.lock);
    if (fxt__trace.active) {
        uint64_t tps = fxt__trace.tps_known
                           ? fxt__trace.tps
                           : fxt__trace_tps_from(fxt__trace.start_ticks, fxt__trace.start_mono_ns, 0);
        fxt_session_stats_t s = {0, 0, 0, __atomic_load_n(&fxt__trace.out_bytes, __ATOMIC_RELAXED), 0, tps};
        for (tls_t *t = fxt__trace.threads; t != NULL; t = t->next_all) {
            if (t->gen == fxt__trace.gen) {
                s.threads++;
                s.records += FXT__TRACE_READ(t->records);
                s.dropped += FXT__TRACE_READ(t->dropped);
                s.overwritten += FXT__TRACE_READ(t->overwritten);
            }
        }
        *out = s;
    } else {
        *out = fxt__trace.last;
    }
    pthread_mutex_unlock(&fxt__trace.lock);
}

/* ---- fork ---------------------------------------------------------------------------------------- */

/* No thread holds the lock across fork(): the child gets it in a known state. */
static void atfork_prepare(void) {
    pthread_mutex_lock(&fxt__trace.lock);
    fxt__trace_populate_join(); /* stopped between two steps: a few ms at most */
}
static void atfork_parent(void) {
    fxt__trace_populate_resume();
    pthread_mutex_unlock(&fxt__trace.lock);
}

/*
 * The child of a traced process: it must not write into its parent's buffer
 * (a manager's shared mapping) or output. It drops both (its own copy) and
 * starts its own session at its first event (a child that only execs costs
 * nothing and registers nothing): a new provider under a manager, else the
 * output path with "%p" expanded (or ".<pid>" appended).
 */
static void atfork_child(void) {
    if (fxt__trace.active) {
        __atomic_store_n(&fxt__trace.active, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&fxt__trace.gen, fxt__trace.gen + 1, __ATOMIC_RELAXED);
        fxt__trace_sites_next();
        if (fxt__trace.mgr_fd >= 0) {
            close(fxt__trace.mgr_fd);
            fxt__trace.mgr_fd = -1;
        }
        if (fxt__trace.owns_fd) {
            close(fxt__trace.fd);
            fxt__trace.owns_fd = 0;
        }
        fxt__trace.writer_running = 0; /* the parent's writer thread does not exist here */
        fxt__trace.managed = 0;
        fxt__trace_unmap_buffer();
        fxt__trace_free_cats();
        /* only the forking thread exists in the child */
        for (tls_t *t = fxt__trace.threads; t != NULL; t = t->next_all) {
            t->cur = NULL;
            t->p = t->end = NULL;
            t->nchunks = 0;
            if (t != fxt__trace_tls) {
                t->exited = 1;
                __atomic_store_n(&t->busy, 0, __ATOMIC_RELAXED);
            }
        }
        if (fxt__trace_tls != NULL) {
            fxt__trace_tls->tid = fxt__trace_os_tid();
        }
        fxt__trace.fork_pending = 1;
        fxt__trace.env_tried = 0; /* the first call site evaluated starts the child's session */
    }
    if (fxt__trace.starting) {
        /* another thread of the parent was starting a session from FXT_TRACE_*: that
         * thread is not here to finish it, and call sites would wait for it forever;
         * the child's first call site starts its own */
        fxt__trace.starting = 0;
        fxt__trace.env_tried = 0;
    }
    pthread_mutex_unlock(&fxt__trace.lock);
}

/* ---- archive-unique ids ---------------------------------------------------------------------------- */

/* The pid, cached (getpid() is a system call): 0 until the first id, reset in a fork child. */
static uint64_t g_id_pid;
static uint64_t g_id_counter;
static pthread_once_t g_id_once = PTHREAD_ONCE_INIT;
static void id_atfork_child(void) { __atomic_store_n(&g_id_pid, 0, __ATOMIC_RELAXED); }
static void id_init(void) { pthread_atfork(NULL, NULL, id_atfork_child); }

uint64_t fxt_unique_id(void) {
    pthread_once(&g_id_once, id_init);
    uint64_t pid = __atomic_load_n(&g_id_pid, __ATOMIC_RELAXED);
    if (pid == 0) {
        pid = (uint64_t)getpid();
        __atomic_store_n(&g_id_pid, pid, __ATOMIC_RELAXED);
    }
    /* Linux pids are below 2^22 (pid_max): 24 bits hold them; 40 bits of counter */
    uint64_t n = __atomic_add_fetch(&g_id_counter, 1, __ATOMIC_RELAXED) & ((UINT64_C(1) << 40) - 1);
    return (pid & 0xffffffu) << 40 | (n != 0 ? n : 1);
}

/* ---- environment ------------------------------------------------------------------------------- */

static void stop_at_exit(void) {
    if (fxt_session_active()) {
        stopping_at_exit = 1;
        fxt_session_stop();
    }
}

/* FXT_TRACE_BUFFER_SIZE: a positive number with an optional k/M/G suffix, nothing else. */
static int parse_size(const char *s, size_t *out) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    double mul = 1.0;
    if (*end == 'k' || *end == 'K') {
        mul = 1024.0;
        end++;
    } else if (*end == 'm' || *end == 'M') {
        mul = 1048576.0;
        end++;
    } else if (*end == 'g' || *end == 'G') {
        mul = 1073741824.0;
        end++;
    }
    if (end == s || *end != '\0' || errno != 0 || !(v > 0) || v * mul > 1099511627776.0) {
        return -1;
    }
    *out = (size_t)(v * mul);
    return 0;
}

/*
 * A fork child whose parent traced (fork_pending, set by atfork_child): the parent's
 * session again, as a session of its own (its own file, "<path>.<pid>"), started by
 * the child's first call site.
 */
static fxt_status fork_child_restart(void) {
    pthread_mutex_lock(&fxt__trace.lock);
    fxt__trace.fork_pending = 0;
    fxt_status st = fxt__trace.active ? FXT_E_STATE : start_locked(&fxt__trace.cfg, 1);
    pthread_mutex_unlock(&fxt__trace.lock);
    return st;
}

/* A session from the FXT_TRACE_* variables (FXT_E_NOT_FOUND: none set). */
static fxt_status env_start(void) {
    const char *out = getenv("FXT_TRACE_OUTPUT");
    const char *mgr = getenv(FXT_MANAGER_ENV);
    int managed = mgr != NULL && mgr[0] != '\0';
    if ((out == NULL || out[0] == '\0') && !managed) {
        return FXT_E_NOT_FOUND;
    }
    fxt_session_config_t c = FXT_SESSION_CONFIG_INIT;
    c.output_path = out;
    c.categories = getenv("FXT_TRACE_CATEGORIES");
    /* bad configuration is said once, loudly: a silent "no trace" costs a whole run */
    const char *mode = getenv("FXT_TRACE_MODE");
    if (mode != NULL && strcmp(mode, "circular") == 0) {
        c.mode = FXT_MODE_CIRCULAR;
    } else if (mode != NULL && strcmp(mode, "streaming") == 0) {
        c.mode = FXT_MODE_STREAMING;
    } else if (mode != NULL && mode[0] != '\0' && strcmp(mode, "oneshot") != 0) {
        fxt__trace_warn("FXT_TRACE_MODE=%s is not oneshot, circular or streaming; not tracing", mode);
        return FXT_E_INVALID_ARG;
    }
    const char *size = getenv("FXT_TRACE_BUFFER_SIZE");
    if (size != NULL && size[0] != '\0' && parse_size(size, &c.buffer_size) != 0) {
        fxt__trace_warn(
            "FXT_TRACE_BUFFER_SIZE=%s is not a size in bytes (e.g. 65536, 64k, 32M, 1G); not tracing", size);
        return FXT_E_INVALID_ARG;
    }
    const char *clock = getenv("FXT_TRACE_CLOCK");
    if (clock != NULL && strcmp(clock, "tsc") == 0) {
        c.clock = FXT_CLOCK_TSC;
    } else if (clock != NULL && strcmp(clock, "monotonic") == 0) {
        c.clock = FXT_CLOCK_MONOTONIC;
    } else if (clock != NULL && clock[0] != '\0' && strcmp(clock, "auto") != 0) {
        fxt__trace_warn("FXT_TRACE_CLOCK=%s is not auto, monotonic or tsc; not tracing", clock);
        return FXT_E_INVALID_ARG;
    }
    char *path = NULL;
    if (!managed) {
        /* a process that inherited FXT_TRACE_OUTPUT from a traced parent (exec) must
         * not overwrite the parent's trace: the first one marks the path as its own */
        const char *owner = getenv("FXT_TRACE_OUTPUT_OWNER");
        char me[32];
        snprintf(me, sizeof me, "%ld", (long)getpid());
        if (owner != NULL && strcmp(owner, me) != 0 && strstr(out, "%p") == NULL) {
            size_t cap = strlen(out) + 4;
            path = malloc(cap);
            if (path == NULL) {
                return FXT_E_NOMEM;
            }
            snprintf(path, cap, "%s.%%p", out);
            c.output_path = path;
        } else if (owner == NULL) {
            setenv("FXT_TRACE_OUTPUT_OWNER", me, 1);
        }
    }
    pthread_mutex_lock(&fxt__trace.lock);
    fxt__trace.from_env = 1;
    pthread_mutex_unlock(&fxt__trace.lock);
    fxt_status st = session_start(&c, 0);
    free(path);
    if (st != FXT_OK) {
        pthread_mutex_lock(&fxt__trace.lock);
        fxt__trace.from_env = 0;
        pthread_mutex_unlock(&fxt__trace.lock);
    }
    return st;
}

/*
 * One start from FXT_TRACE_* at a time, marked `starting` while it reads the
 * environment outside the lock: call sites evaluated meanwhile (other threads'
 * first events) wait for it instead of caching "off" (issue 24.1).
 */
fxt_status fxt__trace_start_from_env(int automatic) {
    pthread_mutex_lock(&fxt__trace.lock);
    fxt__trace_wait_start_locked();
    if (fxt__trace.active || (automatic && fxt__trace.env_tried)) {
        pthread_mutex_unlock(&fxt__trace.lock);
        return FXT_E_STATE;
    }
    fxt__trace.env_tried = 1;
    fxt__trace.starting = 1;
    tl_starting = 1;
    fxt__trace_sites_next(); /* sites that cached "off" before re-evaluate, and wait */
    int fork_child = fxt__trace.fork_pending;
    pthread_mutex_unlock(&fxt__trace.lock);
    fxt_status st = fork_child ? fork_child_restart() : env_start();
    pthread_mutex_lock(&fxt__trace.lock);
    fxt__trace.starting = 0;
    tl_starting = 0;
    pthread_cond_broadcast(&fxt__trace.start_cond);
    pthread_mutex_unlock(&fxt__trace.lock);
    return st;
}

fxt_status fxt_session_start_from_env(void) { return fxt__trace_start_from_env(0); }
