/* SPDX-License-Identifier: MIT */
/*
 * A standalone session's trace survives a fatal signal (docs/trace.md, "What
 * is guaranteed"). Standalone, the buffers live in the process until the trace
 * is written; a crash, abort() or an unhandled SIGTERM used to lose them. At
 * session start, for each of SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGINT,
 * SIGTERM, SIGHUP and SIGQUIT whose disposition is still the default, a
 * handler is installed that writes what was committed (the preamble, every
 * chunk up to its committed length, the loss reports and an instant
 * fxt/provider_killed {signal}, as the trace manager writes for a killed
 * provider), then restores the default action and raises the signal again, so
 * the process ends as it would have.
 *
 * Async-signal-safe: no malloc, no stdio, no lock (the crash may be inside
 * malloc, or inside the engine holding the session lock). Everything it needs
 * exists before: the chunk index array (allocated at start), a static output
 * buffer, the thread list (grows at its head, nodes never freed). Other threads
 * keep running: the handler ends the session (active 1 -> 0, as the stop does)
 * and waits a bounded time for records in flight, so the committed lengths it
 * reads no longer move; the streaming writer thread stops writing before the
 * handler writes (a handshake, g_writing / g_crashing).
 */
#define _GNU_SOURCE 1
#include "trace_internal.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <linux/membarrier.h>
#include <sys/syscall.h>
#endif

static const int k_sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGINT, SIGTERM, SIGHUP, SIGQUIT};
#define NSIGS (sizeof k_sigs / sizeof k_sigs[0])

/* The signals the handler takes, as a set. */
static void crash_sigset(sigset_t *s) {
    sigemptyset(s);
    for (size_t i = 0; i < NSIGS; i++) {
        sigaddset(s, k_sigs[i]);
    }
}

static int g_installed[NSIGS]; /* under the session lock */
static uint32_t *g_order;      /* chunk indexes, sorted by the handler (nchunks of them) */
static int g_flush;            /* atomic: 0 idle, 1 a thread writes the trace, 2 written */
static int g_crashing;         /* atomic: the streaming writer must not write any more */
static int g_writing;          /* atomic: the streaming writer is writing */
static uint64_t g_stop_tid;    /* atomic: the thread inside fxt_session_stop(), 0 when none */
static int g_preamble;         /* atomic: streaming: the writer thread wrote the preamble */
static uint8_t g_buf[8192];    /* records being encoded */
static size_t g_len;
static int g_fd;

static uint64_t my_tid(void) {
#if defined(__linux__)
    return (uint64_t)syscall(SYS_gettid);
#else
    return 0;
#endif
}

static void nap(long ns) {
    struct timespec d = {0, ns};
    nanosleep(&d, NULL);
}

/* ---- hooks of the session and of the streaming writer --------------------------------------- */

static void crash_handler(int sig, siginfo_t *si, void *uc);

static int is_ours(const struct sigaction *sa) {
    return (sa->sa_flags & SA_SIGINFO) != 0 && sa->sa_sigaction == crash_handler;
}

void fxt__trace_crash_install(void) {
    free(g_order);
    g_order = malloc((size_t)fxt__trace.nchunks * sizeof *g_order);
    __atomic_store_n(&g_flush, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&g_crashing, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&g_preamble, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&g_writing, 0, __ATOMIC_RELAXED); /* a fork child's copy of its parent's */
    if (g_order == NULL) {
        return; /* no handler: the trace is written at stop only */
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = crash_handler;
    /* SA_ONSTACK: a stack overflow's SIGSEGV runs on the program's alternate stack if it set one */
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    crash_sigset(&sa.sa_mask); /* one handler at a time per thread */
    for (size_t i = 0; i < NSIGS; i++) {
        struct sigaction old;
        g_installed[i] = 0;
        if (sigaction(k_sigs[i], NULL, &old) != 0) {
            continue;
        }
        /* never replace a program's own handler, nor an ignored signal */
        if (((old.sa_flags & SA_SIGINFO) == 0 && old.sa_handler == SIG_DFL) || is_ours(&old)) {
            g_installed[i] = sigaction(k_sigs[i], &sa, NULL) == 0;
        }
    }
}

void fxt__trace_crash_uninstall(void) {
    for (size_t i = 0; i < NSIGS; i++) {
        struct sigaction cur;
        if (g_installed[i] && sigaction(k_sigs[i], NULL, &cur) == 0 && is_ours(&cur)) {
            signal(k_sigs[i], SIG_DFL); /* the program replaced it meanwhile: leave that one */
        }
        g_installed[i] = 0;
    }
    free(g_order);
    g_order = NULL;
}

int fxt__trace_thread_create(pthread_t *t, void *(*fn)(void *), void *arg) {
    /* The engine's own threads never take the fatal signals: a process-directed one delivered
     * to the streaming writer while a stop (at exit, say) joins it would wait in the handler
     * for that stop, which waits for the writer: both hung. The new thread inherits this mask,
     * so the signal goes to a program's thread instead (or waits until the stop ends). */
    sigset_t s, old;
    crash_sigset(&s);
    pthread_sigmask(SIG_BLOCK, &s, &old);
    int rc = pthread_create(t, NULL, fn, arg);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}

void fxt__trace_crash_stopping(int on, sigset_t *old) {
    if (on) {
        /* a fatal signal in the stopping thread itself could not wait for the stop: it
         * waits in the kernel instead, and ends the process once the trace is written */
        sigset_t s;
        crash_sigset(&s);
        pthread_sigmask(SIG_BLOCK, &s, old);
        __atomic_store_n(&g_stop_tid, my_tid(), __ATOMIC_SEQ_CST);
    } else {
        __atomic_store_n(&g_stop_tid, 0, __ATOMIC_SEQ_CST);
        pthread_sigmask(SIG_SETMASK, old, NULL);
    }
}

int fxt__trace_crash_writer_begin(void) {
    __atomic_store_n(&g_writing, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&g_crashing, __ATOMIC_SEQ_CST)) {
        __atomic_store_n(&g_writing, 0, __ATOMIC_RELEASE);
        return 0;
    }
    return 1;
}

void fxt__trace_crash_writer_end(void) { __atomic_store_n(&g_writing, 0, __ATOMIC_RELEASE); }

void fxt__trace_crash_preamble_done(void) { __atomic_store_n(&g_preamble, 1, __ATOMIC_RELEASE); }

/* ---- output (write(2) only) ------------------------------------------------------------------- */

static void write_all(const void *p, size_t n) {
    const uint8_t *b = p;
    while (n > 0) {
        ssize_t w = write(g_fd, b, n);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            return; /* disk full, closed...: nothing more can be done here */
        }
        b += w;
        n -= (size_t)w;
    }
}

static void flush_buf(void) {
    write_all(g_buf, g_len);
    g_len = 0;
}

/* Room for a record of n bytes (n <= sizeof g_buf); returns where it goes. */
static uint8_t *room(size_t n) {
    if (g_len + n > sizeof g_buf) {
        flush_buf();
    }
    return g_buf + g_len;
}

static void done(uint8_t *end) { g_len = (size_t)(end - g_buf); }

/* A copy of a string another thread may rewrite meanwhile: at most cap-1 bytes, NUL-terminated. */
static uint32_t copy_name(char *out, size_t cap, const char *in) {
    size_t n = 0;
    while (n + 1 < cap && in[n] != '\0') {
        out[n] = in[n];
        n++;
    }
    out[n] = '\0';
    return (uint32_t)n;
}

static uint8_t *put_u64_arg(uint8_t *p, const char *name, uint64_t v) {
    fxt_arg_t a;
    memset(&a, 0, sizeof a);
    a.type = FXT_ARG_UINT64;
    a.v.u64 = v;
    fxt__estr_t nm = fxt__estr_inline(name, (uint32_t)strlen(name));
    return fxt__put_arg(p, 0, &a, &nm, NULL);
}

static void put_preamble(int with_threads, uint64_t tps) {
    char name[FXT__PROCESS_NAME_MAX + 1];
    uint32_t n = copy_name(name, sizeof name, fxt__trace.provider_name);
    uint8_t *p = room(8u * 40u);
    fxt__trace_put(&p, fxt__hdr_magic());
    fxt__trace_put(&p, fxt__hdr_provider_info(1, n));
    fxt__trace_put_bytes(&p, name, n);
    fxt__trace_put(&p, fxt__hdr_init());
    fxt__trace_put(&p, tps);
    done(p);
    /* the process, with the clock anchor (fxt__write_process_clock) */
    if (fxt__trace.process_name[0] != '\0') {
        n = copy_name(name, sizeof name, fxt__trace.process_name);
    }
    static const char *const anchor[4] = {"clock_ticks", "clock_ticks_per_second", "clock_monotonic_ns",
                                          "clock_realtime_ns"};
    uint64_t vals[4] = {fxt__trace.start_ticks, tps, fxt__trace.start_mono_ns, fxt__trace.start_realtime_ns};
    fxt__estr_t nm = fxt__estr_inline(name, n);
    uint64_t words = 2 + fxt__estr_words(&nm);
    for (int i = 0; i < 4; i++) {
        words += 2 + fxt_words(strlen(anchor[i]));
    }
    p = room(8u * words);
    fxt__trace_put(&p, fxt__hdr_kernel_object(words, FXT_OBJ_PROCESS, nm.ref, 4));
    fxt__trace_put(&p, fxt__trace.pid);
    p = fxt__put_estr(p, &nm);
    for (int i = 0; i < 4; i++) {
        p = put_u64_arg(p, anchor[i], vals[i]);
    }
    done(p);
    if (!with_threads) {
        return;
    }
    uint32_t gen = __atomic_load_n(&fxt__trace.gen, __ATOMIC_ACQUIRE);
    for (tls_t *t = __atomic_load_n(&fxt__trace.threads, __ATOMIC_ACQUIRE); t != NULL; t = t->next_all) {
        if (__atomic_load_n(&t->gen, __ATOMIC_RELAXED) != gen) {
            continue;
        }
        char tn[sizeof t->name];
        fxt__estr_t tnm = fxt__estr_inline(tn, copy_name(tn, sizeof tn, t->name));
        static const char process[] = "process";
        fxt__estr_t an = fxt__estr_inline(process, sizeof process - 1);
        fxt_arg_t a;
        memset(&a, 0, sizeof a);
        a.type = FXT_ARG_KOID;
        a.v.u64 = fxt__trace.pid;
        words = 2 + fxt__estr_words(&tnm) + fxt__arg_words(FXT_ARG_KOID, &an, NULL);
        p = room(8u * words);
        fxt__trace_put(&p, fxt__hdr_kernel_object(words, FXT_OBJ_THREAD, tnm.ref, 1));
        fxt__trace_put(&p, t->tid);
        p = fxt__put_estr(p, &tnm);
        p = fxt__put_arg(p, 0, &a, &an, NULL);
        done(p);
    }
}

/* An instant fxt/<what> on thread <pid, tid> (inline refs, as fxt__write_loss_report's and the manager's). */
static void put_instant(uint64_t tid, const char *what, const char *aname, unsigned atype, uint64_t v) {
    static const char cat[] = "fxt";
    fxt__estr_t c = fxt__estr_inline(cat, sizeof cat - 1);
    fxt__estr_t w = fxt__estr_inline(what, (uint32_t)strlen(what));
    fxt__estr_t an = fxt__estr_inline(aname, (uint32_t)strlen(aname));
    fxt_arg_t a;
    memset(&a, 0, sizeof a);
    a.type = atype;
    if (atype == FXT_ARG_INT32) {
        a.v.i32 = (int32_t)v;
    } else {
        a.v.u64 = v;
    }
    uint64_t words = 2 + 2 + fxt__estr_words(&c) + fxt__estr_words(&w) + fxt__arg_words(atype, &an, NULL);
    uint8_t *p = room(8u * words);
    fxt__trace_put(&p, fxt__hdr_event(FXT_EVENT_INSTANT, 1, FXT_THREADREF_INLINE, c.ref, w.ref, words));
    fxt__trace_put(&p, fxt__trace_now());
    p = fxt__put_thread(p, 0, FXT_THREADREF_INLINE, fxt__trace.pid, tid);
    p = fxt__put_estr(p, &c);
    p = fxt__put_estr(p, &w);
    p = fxt__put_arg(p, 0, &a, &an, NULL);
    done(p);
}

/* A loss report (fxt__write_loss_report): a buffer-overflow provider event, then the count. */
static void put_loss(const char *what, uint64_t count) {
    if (count == 0) {
        return;
    }
    uint8_t *p = room(8);
    fxt__trace_put(&p, fxt__hdr_provider_event(1, FXT_PROVIDER_EVENT_BUFFER_FULL));
    done(p);
    put_instant(0, what, "count", FXT_ARG_UINT64, count); /* thread 0, as fxt__write_loss_report */
}

/* ---- the chunks, in order (a heap sort: qsort may allocate) ------------------------------------- */

static int chunk_less(uint32_t a, uint32_t b, int by_thread) {
    const fxt_shm_chunk_t *x = fxt__trace.chunks[a].sh, *y = fxt__trace.chunks[b].sh;
    if (by_thread && x->tid != y->tid) {
        return x->tid < y->tid;
    }
    return x->seq < y->seq;
}

static void sift(uint32_t *v, size_t i, size_t n, int by_thread) {
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) {
            return;
        }
        if (c + 1 < n && chunk_less(v[c], v[c + 1], by_thread)) {
            c++;
        }
        if (!chunk_less(v[i], v[c], by_thread)) {
            return;
        }
        uint32_t t = v[i];
        v[i] = v[c];
        v[c] = t;
        i = c;
    }
}

static void sort_chunks(uint32_t *v, size_t n, int by_thread) {
    for (size_t i = n / 2; i-- > 0;) {
        sift(v, i, n, by_thread);
    }
    for (size_t k = n; k-- > 1;) {
        uint32_t t = v[0];
        v[0] = v[k];
        v[k] = t;
        sift(v, 0, k, by_thread);
    }
}

/* ---- the flush ----------------------------------------------------------------------------------- */

/* The session has been ended by the caller (active 1 -> 0): write it. */
static void write_session(int sig) {
    uint64_t me = my_tid();
    /* records in flight finish (as fxt_session_stop() waits for them), for a second at most:
     * a thread may wait for the lock the crashing thread holds */
#if defined(__linux__) && defined(__NR_membarrier)
    if (!__atomic_load_n(&fxt__trace.full_fence, __ATOMIC_RELAXED)) {
        syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
    }
#endif
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    int waited = 0;
    for (tls_t *t = __atomic_load_n(&fxt__trace.threads, __ATOMIC_ACQUIRE); t != NULL; t = t->next_all) {
        while (t->tid != me && __atomic_load_n(&t->busy, __ATOMIC_ACQUIRE) && waited < 10000) {
            nap(100000);
            waited++;
        }
    }
    /* streaming: the writer thread writes no more (it finishes the chunk it is writing) */
    int streaming = fxt__trace.mode == FXT_MODE_STREAMING;
    __atomic_store_n(&g_crashing, 1, __ATOMIC_SEQ_CST);
    while (streaming && __atomic_load_n(&g_writing, __ATOMIC_SEQ_CST)) {
        nap(100000);
    }
    uint64_t tps = fxt__trace.tps_known
                       ? fxt__trace.tps
                       : fxt__trace_tps_from(fxt__trace.start_ticks, fxt__trace.start_mono_ns, 0);
    uint32_t gen = __atomic_load_n(&fxt__trace.gen, __ATOMIC_ACQUIRE);
    uint64_t dropped = 0;
    for (tls_t *t = __atomic_load_n(&fxt__trace.threads, __ATOMIC_ACQUIRE); t != NULL; t = t->next_all) {
        if (__atomic_load_n(&t->gen, __ATOMIC_RELAXED) == gen) {
            dropped += FXT__TRACE_READ(t->dropped);
        }
    }
    g_len = 0;
    g_fd = fxt__trace.fd;
    if (!streaming) {
        put_preamble(1, tps);
        put_loss("chunks_overwritten", __atomic_load_n(&fxt__trace.hdr->overwritten, __ATOMIC_RELAXED));
    } else if (!__atomic_load_n(&g_preamble, __ATOMIC_ACQUIRE)) {
        put_preamble(0, tps); /* streaming: the threads name themselves in their first chunk */
    }
    flush_buf();
    /* every used chunk (streaming: those not written yet), per thread in order (oneshot,
     * circular) or in the order they were taken (streaming) */
    size_t n = 0;
    for (uint32_t i = 0; i < fxt__trace.nchunks; i++) {
        const fxt_shm_chunk_t *d = fxt__trace.chunks[i].sh;
        uint32_t st = __atomic_load_n(&d->state, __ATOMIC_ACQUIRE);
        if (__atomic_load_n(&d->seq, __ATOMIC_ACQUIRE) == 0 || (streaming && st == FXT_CHUNK_FREE)) {
            continue;
        }
        g_order[n++] = i;
    }
    sort_chunks(g_order, n, !streaming);
    for (size_t k = 0; k < n; k++) {
        chunk_t *c = &fxt__trace.chunks[g_order[k]];
        write_all(c->data, __atomic_load_n(&c->sh->used, __ATOMIC_ACQUIRE));
    }
    put_loss("records_dropped", dropped);
    /* how the session ended, as the trace manager says it of a killed provider */
    put_instant(fxt__trace.pid, "provider_killed", "signal", FXT_ARG_INT32, (uint64_t)(uint32_t)sig);
    flush_buf();
    close(g_fd);
    fxt__trace.fd = -1;
    fxt__trace.owns_fd = 0;
}

/* 0: written now; 1: nothing to write (no standalone session writing a file of its own);
 * 2: another thread wrote it (or fxt_session_stop() did), and it is complete. */
static int flush(int sig) {
    int expect = 0;
    if (!__atomic_compare_exchange_n(&g_flush, &expect, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        /* another thread writes it (or found nothing to write): wait until it is done (the
         * winner re-raises its own signal then; a thread that is itself the writer never gets here: the
         * handler blocks every one of these signals while it runs) */
        int f;
        while ((f = __atomic_load_n(&g_flush, __ATOMIC_ACQUIRE)) == 1) {
            nap(1000000);
        }
        return f == 2 ? 2 : 1;
    }
    int rc = 1;
    int one = 1;
    if (fxt__trace.managed || !fxt__trace.owns_fd || g_order == NULL) {
        rc = 1; /* under fxt record the manager has it; a custom sink is not ours to write */
    } else if (__atomic_compare_exchange_n(&fxt__trace.active, &one, 0, 0, __ATOMIC_SEQ_CST,
                                           __ATOMIC_SEQ_CST)) {
        write_session(sig);
        rc = 0;
    } else {
        /* a stop is writing the trace: let it finish (its tid is set before it ends the
         * session), unless this thread is the one stopping; no stop: nothing to write */
        uint64_t s = __atomic_load_n(&g_stop_tid, __ATOMIC_SEQ_CST), me = my_tid();
        if (s != 0 && s != me) {
            while (__atomic_load_n(&g_stop_tid, __ATOMIC_SEQ_CST) != 0) {
                nap(1000000);
            }
            rc = 2;
        }
    }
    __atomic_store_n(&g_flush, rc == 1 ? 0 : 2, __ATOMIC_RELEASE);
    return rc;
}

static void crash_handler(int sig, siginfo_t *si, void *uc) {
    (void)si, (void)uc;
    int saved = errno;
    flush(sig);
    /* the default action, now: the process ends as it would have without tracing */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
    raise(sig); /* pending until the handler returns (the signal is blocked in it) */
    errno = saved;
}

fxt_status fxt_session_flush_on_crash(int sig) {
    /* 2: written whole by another thread's handler or by a stop: what the caller wanted */
    return flush(sig) == 1 ? FXT_E_STATE : FXT_OK;
}
