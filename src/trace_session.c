/* SPDX-License-Identifier: MIT */
/*
 * Trace sessions: start and stop, the output (preamble, chunks, loss
 * reports; the streaming writer thread), statistics, and the FXT_TRACE_*
 * environment.
 */
#define _GNU_SOURCE 1 /* program_invocation_short_name */
#include "options.h"
#include "trace_internal.h"

#include <errno.h>
#include <fcntl.h>
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
};

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

static void write_preamble(int with_threads) {
    fxt_sink_t s = {out_sink, NULL};
    fxt_writer_t *w;
    if (fxt_writer_create(NULL, s, &w) != FXT_OK) {
        fxt__trace.out_status = FXT_E_NOMEM;
        return;
    }
    fxt_write_magic(w);
    fxt_write_provider_info(w, 1, fxt_str_n(fxt__trace.provider_name, strlen(fxt__trace.provider_name)));
    fxt_write_init(w, fxt__trace.tps);
    fxt_write_kernel_object(w, fxt__trace.pid, FXT_OBJ_PROCESS,
                            fxt_str_inline(fxt_cstr(fxt__trace.provider_name)), NULL, 0);
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

/* Lost data, said in the trace: a buffer overflow provider event (readers and
 * fxt check know pairs may be broken after it), then an instant with the count. */
static void write_loss_report(const char *what, uint64_t count) {
    if (count == 0) {
        return;
    }
    fxt_sink_t s = {out_sink, NULL};
    fxt_writer_t *w;
    if (fxt_writer_create(NULL, s, &w) != FXT_OK) {
        return;
    }
    fxt_write_provider_event(w, 1, FXT_PROVIDER_EVENT_BUFFER_FULL);
    fxt_arg_t a = fxt_arg_uint64(fxt_cstr("count"), count);
    fxt_write_instant(w, fxt__trace_now(), fxt_thread_inline(fxt__trace.pid, 0), fxt_cstr("fxt"),
                      fxt_cstr(what), &a, 1);
    fxt_writer_finish(w);
    fxt_writer_destroy(w);
}

static void write_drop_report(uint64_t dropped) { write_loss_report("records_dropped", dropped); }

static void *writer_main(void *arg) {
    (void)arg;
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
        /* a queued chunk is no longer written by its thread: read without the lock */
        out_write(c->data, __atomic_load_n(&c->used, __ATOMIC_ACQUIRE));
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

fxt_status fxt_session_start(const fxt_session_config_t *cfg) {
    fxt_session_config_t c = FXT_SESSION_CONFIG_INIT;
    if (cfg == NULL || fxt__options_read(&c, sizeof c, cfg) != FXT_OK) {
        return FXT_E_INVALID_ARG;
    }
    if (c.output_path == NULL && c.sink.write == NULL) {
        return FXT_E_INVALID_ARG;
    }
    if (c.mode > FXT_MODE_STREAMING) {
        return FXT_E_INVALID_ARG;
    }
    pthread_mutex_lock(&fxt__trace.lock);
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
    fxt_status st = FXT_OK;
    if (c.output_path != NULL) {
        fxt__trace.fd = open(c.output_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fxt__trace.fd < 0) {
            pthread_mutex_unlock(&fxt__trace.lock);
            return FXT_E_IO;
        }
        fxt__trace.owns_fd = 1;
        fxt__trace.sink = fxt_sink_fd(&fxt__trace.fd);
    } else {
        fxt__trace.owns_fd = 0;
        fxt__trace.sink = c.sink;
    }
    if (fxt__trace_parse_cats(c.categories) != 0) {
        st = FXT_E_NOMEM;
    }
    size_t total = c.buffer_size ? c.buffer_size : DEFAULT_BUFFER;
    if (total < 64u << 10) {
        total = 64u << 10;
    }
    uint32_t cs = (uint32_t)(total / 16 < MAX_CHUNK ? total / 16 : MAX_CHUNK);
    if (cs < 4096) {
        cs = 4096;
    }
    cs &= ~7u;
    fxt__trace.chunk_size = cs;
    fxt__trace.nchunks = (uint32_t)(total / cs);
    fxt__trace.mem = malloc((size_t)fxt__trace.nchunks * cs);
    fxt__trace.chunks = calloc(fxt__trace.nchunks, sizeof *fxt__trace.chunks);
    if (st != FXT_OK || fxt__trace.mem == NULL || fxt__trace.chunks == NULL) {
        free(fxt__trace.mem);
        free(fxt__trace.chunks);
        fxt__trace.mem = NULL;
        fxt__trace.chunks = NULL;
        if (fxt__trace.owns_fd) {
            close(fxt__trace.fd);
        }
        pthread_mutex_unlock(&fxt__trace.lock);
        return FXT_E_NOMEM;
    }
    fxt__trace.free_list = NULL;
    for (uint32_t i = 0; i < fxt__trace.nchunks; i++) {
        fxt__trace.chunks[i].data = fxt__trace.mem + (size_t)i * cs;
        fxt__trace.chunks[i].cap = cs;
        if (c.mode == FXT_MODE_STREAMING) {
            fxt__trace.chunks[i].next = fxt__trace.free_list;
            fxt__trace.free_list = &fxt__trace.chunks[i];
        }
    }
    fxt__trace.queue_head = fxt__trace.queue_tail = NULL;
    fxt__trace.next_chunk = 0;
    fxt__trace.seq = 0;
    fxt__trace.mode = c.mode;
    fxt__trace.pid = (uint64_t)getpid();
    fxt__trace.out_status = FXT_OK;
    fxt__trace.out_bytes = 0;
    int use_tsc = 0;
    fxt__trace.tps = 1000000000u;
    if (c.clock == FXT_CLOCK_TSC || (c.clock == FXT_CLOCK_AUTO && fxt__trace_tsc_invariant())) {
        uint64_t tps = fxt__trace_calibrate_tsc();
        if (tps > 0) {
            use_tsc = 1;
            fxt__trace.tps = tps;
        }
    }
    __atomic_store_n(&fxt__trace.tsc, use_tsc, __ATOMIC_RELAXED);
    const char *pn = c.provider_name;
#if defined(__linux__) && defined(_GNU_SOURCE)
    if (pn == NULL) {
        pn = program_invocation_short_name;
    }
#endif
    snprintf(fxt__trace.provider_name, sizeof fxt__trace.provider_name, "%s", pn ? pn : "process");
    __atomic_store_n(&fxt__trace.gen, fxt__trace.gen + 1, __ATOMIC_RELEASE);
    fxt__trace_membarrier_register();
    __atomic_store_n(&fxt__trace.active, 1, __ATOMIC_RELEASE);
    /* new generation numbers: every site recomputes its state once */
    __atomic_store_n(&fxt__gen_on, 2 * fxt__trace.gen + 1, __ATOMIC_RELEASE);
    __atomic_store_n(&fxt__gen_off, 2 * fxt__trace.gen + 2, __ATOMIC_RELEASE);
    if (fxt__trace.mode == FXT_MODE_STREAMING) {
        write_preamble(0);
        fxt__trace.writer_stop = 0;
        fxt__trace.writer_running = pthread_create(&fxt__trace.writer, NULL, writer_main, NULL) == 0;
        if (!fxt__trace.writer_running) {
            fxt__trace.out_status = FXT_E_NOMEM;
        }
    }
    /* read before unlocking: from here on the streaming writer thread owns it */
    fxt_status out_st = fxt__trace.out_status;
    pthread_mutex_unlock(&fxt__trace.lock);
    return out_st;
}

fxt_status fxt_session_stop(void) {
    pthread_mutex_lock(&fxt__trace.lock);
    if (!fxt__trace.active) {
        pthread_mutex_unlock(&fxt__trace.lock);
        return FXT_E_STATE;
    }
    __atomic_store_n(&fxt__trace.active, 0, __ATOMIC_RELEASE);
    /* disable every site, then give in-flight events a moment to finish */
    __atomic_store_n(&fxt__gen_on, 2 * fxt__trace.gen + 3, __ATOMIC_RELEASE);
    __atomic_store_n(&fxt__gen_off, 2 * fxt__trace.gen + 4, __ATOMIC_RELEASE);
    tls_t *head = fxt__trace.threads; /* the list only grows at its head; nodes are never freed */
    pthread_mutex_unlock(&fxt__trace.lock);
    fxt__trace_wait_writers(head);

    pthread_mutex_lock(&fxt__trace.lock);
    fxt_session_stats_t s = {0, 0, 0, 0, 0, fxt__trace.tps};
    for (tls_t *t = fxt__trace.threads; t != NULL; t = t->next_all) {
        if (t->gen != fxt__trace.gen) {
            continue;
        }
        s.threads++;
        s.records += READ(t->records);
        s.dropped += READ(t->dropped);
        s.overwritten += READ(t->overwritten);
    }
    if (fxt__trace.mode == FXT_MODE_STREAMING) {
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
        write_preamble(1);
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
                out_write(t->chunks[i]->data, __atomic_load_n(&t->chunks[i]->used, __ATOMIC_ACQUIRE));
            }
        }
    }
    write_drop_report(s.dropped);
    for (tls_t *t = fxt__trace.threads; t != NULL; t = t->next_all) {
        if (t->gen == fxt__trace.gen) {
            t->cur = NULL;
            t->p = t->end = NULL;
            t->nchunks = 0;
        }
    }
    s.bytes = fxt__trace.out_bytes;
    fxt__trace.last = s;
    fxt_status st = fxt__trace.out_status;
    if (fxt__trace.owns_fd && close(fxt__trace.fd) != 0 && st == FXT_OK) {
        st = FXT_E_IO;
    }
    fxt__trace.owns_fd = 0;
    free(fxt__trace.mem);
    free(fxt__trace.chunks);
    fxt__trace.mem = NULL;
    fxt__trace.chunks = NULL;
    fxt__trace.nchunks = 0;
    fxt__trace_free_cats();
    /* the next session gets a new generation: thread states reset on first use */
    __atomic_store_n(&fxt__trace.gen, fxt__trace.gen + 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&fxt__trace.lock);
    return st;
}

void fxt_session_get_stats(fxt_session_stats_t *out) {
    if (out == NULL) {
        return;
    }
    pthread_mutex_lock(&fxt__trace.lock);
    if (fxt__trace.active) {
        fxt_session_stats_t s = {
            0, 0, 0, __atomic_load_n(&fxt__trace.out_bytes, __ATOMIC_RELAXED), 0, fxt__trace.tps};
        for (tls_t *t = fxt__trace.threads; t != NULL; t = t->next_all) {
            if (t->gen == fxt__trace.gen) {
                s.threads++;
                s.records += READ(t->records);
                s.dropped += READ(t->dropped);
                s.overwritten += READ(t->overwritten);
            }
        }
        *out = s;
    } else {
        *out = fxt__trace.last;
    }
    pthread_mutex_unlock(&fxt__trace.lock);
}

/* ---- environment ------------------------------------------------------------------------------- */

static void stop_at_exit(void) {
    if (fxt_session_active()) {
        fxt_session_stop();
    }
}

fxt_status fxt_session_start_from_env(void) {
    const char *out = getenv("FXT_TRACE_OUTPUT");
    if (out == NULL || out[0] == '\0') {
        return FXT_E_NOT_FOUND;
    }
    fxt_session_config_t c = FXT_SESSION_CONFIG_INIT;
    c.output_path = out;
    c.categories = getenv("FXT_TRACE_CATEGORIES");
    const char *mode = getenv("FXT_TRACE_MODE");
    if (mode != NULL && strcmp(mode, "circular") == 0) {
        c.mode = FXT_MODE_CIRCULAR;
    } else if (mode != NULL && strcmp(mode, "streaming") == 0) {
        c.mode = FXT_MODE_STREAMING;
    } else if (mode != NULL && mode[0] != '\0' && strcmp(mode, "oneshot") != 0) {
        return FXT_E_INVALID_ARG;
    }
    const char *size = getenv("FXT_TRACE_BUFFER_SIZE");
    if (size != NULL && size[0] != '\0') {
        char *end;
        double v = strtod(size, &end);
        double mul = *end == 'k' || *end == 'K'   ? 1024.0
                     : *end == 'm' || *end == 'M' ? 1048576.0
                     : *end == 'g' || *end == 'G' ? 1073741824.0
                                                  : 1.0;
        if (v <= 0) {
            return FXT_E_INVALID_ARG;
        }
        c.buffer_size = (size_t)(v * mul);
    }
    const char *clock = getenv("FXT_TRACE_CLOCK");
    if (clock != NULL && strcmp(clock, "tsc") == 0) {
        c.clock = FXT_CLOCK_TSC;
    } else if (clock != NULL && strcmp(clock, "monotonic") == 0) {
        c.clock = FXT_CLOCK_MONOTONIC;
    }
    return fxt_session_start(&c);
}
