/* SPDX-License-Identifier: MIT */
/*
 * The trace engine's private declarations, shared by its files:
 *
 *   trace_clock.c       session clock (TSC when invariant, else CLOCK_MONOTONIC)
 *   trace_categories.c  category patterns and per-call-site enabled state
 *   trace_chunks.c      per-thread state; chunks for oneshot, circular, streaming
 *   trace_events.c      encoding events, logs and blobs into a thread's chunk
 *   trace_session.c     session start/stop, output, statistics, environment, fork
 *   trace_provider.c    the shared buffer (memfd) and the trace manager protocol
 *   trace_crash.c       standalone: the trace written at a fatal signal (async-signal-safe)
 *
 * Buffers: the session's buffer is cut into chunks. Each thread writes into
 * its own current chunk with no lock, no syscall and no allocation; taking a
 * new chunk is the only synchronised step (an atomic increment for oneshot
 * and circular, a mutex-protected free list for streaming). Every chunk is
 * self-contained: it starts with the thread record of its thread (index 1)
 * and re-registers each string the first time the chunk uses it, so chunks
 * can be written out in any grouping, dropped (circular mode overwrites a
 * thread's oldest chunk) or streamed, and the kept events still resolve.
 *
 * Strings are interned by address (literals) in a per-thread table; each
 * thread's records live in its own chunks, so per-thread indexes never clash
 * (re-registration replaces, as the spec defines).
 *
 * Every record is encoded by the encoding core (src/encode.h).
 *
 * Portability (docs/trace.md): GNU C (gcc or clang: __thread, __atomic
 * builtins, always_inline), POSIX threads and CLOCK_MONOTONIC, 64-bit
 * lock-free atomics. Linux adds membarrier (a cheaper hot path), thread ids
 * and names; x86-64 adds the TSC clock. Anything else stops here with an
 * #error naming what is missing.
 */
#ifndef FXT_TRACE_INTERNAL_H
#define FXT_TRACE_INTERNAL_H

#if !defined(__GNUC__) && !defined(__clang__)
#error "libfxt trace engine: needs GNU C extensions (gcc or clang): __thread, __atomic builtins, attributes"
#endif
#if defined(_WIN32)
#error                                                                                                       \
    "libfxt trace engine: needs POSIX threads and clock_gettime (Windows is not supported; build with FXT_NO_TRACE users only)"
#endif
#if !defined(__GCC_ATOMIC_LLONG_LOCK_FREE) || __GCC_ATOMIC_LLONG_LOCK_FREE != 2 ||                           \
    !defined(__GCC_ATOMIC_INT_LOCK_FREE) || __GCC_ATOMIC_INT_LOCK_FREE != 2
#error                                                                                                       \
    "libfxt trace engine: needs lock-free 32- and 64-bit atomics (per-thread counters are read by other threads)"
#endif

#include <fxt/manager.h>
#include <fxt/trace.h>

#include "encode.h"
#include "trace_clock.h"

#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define FXT__TRACE_DEFAULT_BUFFER (32u << 20)
#define FXT__TRACE_MAX_CHUNK (256u << 10)
#define FXT__TRACE_CACHE_BITS 12u
#define FXT__TRACE_CACHE_SIZE (1u << FXT__TRACE_CACHE_BITS) /* pointer -> string index cache per thread */
#define FXT__TRACE_MAX_THREAD_STRINGS 4096u /* per-thread string table; beyond it strings go inline */
#define FXT__TRACE_SITE_CACHE_BITS 6u
#define FXT__TRACE_SITE_CACHE_SIZE                                                                           \
    (1u << FXT__TRACE_SITE_CACHE_BITS) /* call site -> its string refs, per thread */
#define FXT__TRACE_SITE_CACHE_ARGS 4u  /* argument names cached per call site */
#define FXT__TRACE_DYN_SLOTS 1024u     /* runtime strings interned by content, per thread (power of 2) */
#define FXT__TRACE_DYN_ARENA 65536u    /* bytes of their copies, per thread */

/* ---- chunks and per-thread state ------------------------------------------------------ */

typedef struct tls tls_t;

/* A chunk: its bytes and its descriptor live in the session's shared mapping
 * (include/fxt/manager.h); the rest is process-local bookkeeping. */
typedef struct chunk {
    uint8_t *data;
    fxt_shm_chunk_t *sh; /* tid, seq, committed length (sh->used), state */
    uint32_t cap;
    uint64_t seq;
    tls_t *owner;
    struct chunk *next; /* streaming queue / free list */
} chunk_t;

/*
 * The string refs a call site used in the thread's current chunk: one lookup
 * per event instead of one per string (category, name, each argument name).
 * Valid while `epoch` (the chunk) and `gen` (the session) match; chunk
 * sequence numbers restart with each session, hence both.
 */
typedef struct site_cache {
    const void *site; /* the fxt__site_t */
    const char *name;
    uint64_t epoch;
    uint32_t gen;
    uint32_t name_len;
    uint16_t cref, nref;
    uint32_t nargs; /* arguments cached below */
    /* fixed: every argument is cached and none is a string, so the whole
     * record's header word (hdr) and size (words) are known */
    uint32_t fixed, type, words;
    uint64_t hdr;
    struct {
        const char *name; /* a literal (runtime names are never cached) */
        uint16_t ref;
        uint8_t type;
        uint64_t hdr; /* the argument header but for its value (not for strings) */
    } arg[FXT__TRACE_SITE_CACHE_ARGS];
} site_cache_t;

typedef struct sstr {
    const char *ptr;
    uint32_t len;
    uint64_t epoch; /* chunk seq in which it was last registered */
} sstr_t;

struct tls {
    uint32_t gen;
    uint64_t pid, tid;
    char name[64];
    chunk_t *cur;
    uint8_t *p, *end;
    uint64_t epoch;
    int named; /* streaming: the thread's kernel object record was written */
    struct {
        const char *ptr;
        uint16_t idx;
    } cache[FXT__TRACE_CACHE_SIZE];
    sstr_t strs[FXT__TRACE_MAX_THREAD_STRINGS + 1];
    site_cache_t sites[FXT__TRACE_SITE_CACHE_SIZE];
    /* runtime strings (intern_content): copies in dyn_arena (allocated at the first one,
     * kept with the thread state), the content-hash table; reset when gen moves on */
    char *dyn_arena;
    uint32_t dyn_used, dyn_count, dyn_gen;
    struct {
        uint32_t hash; /* 0: empty */
        uint16_t idx;
    } dyn[FXT__TRACE_DYN_SLOTS];
    uint32_t nstr;
    chunk_t **chunks; /* this thread's chunks, in order (oneshot, circular) */
    size_t nchunks, capchunks;
    uint64_t records, dropped, overwritten;
    int exited;
    uint32_t busy; /* 1 while the owner writes a record (see fxt__trace_enter()) */
    tls_t *next_all;
    char logbuf[4096];
};

/* The engine's one global state: the session and its buffers (under `lock` unless noted). */
struct fxt__trace_session {
    pthread_mutex_t lock; /* sessions, thread list, streaming queues */
    pthread_cond_t cond;
    int active;
    uint32_t gen; /* generation counter */
    fxt_buffer_mode mode;
    char **cats; /* category patterns */
    size_t ncats;
    int all_cats;
    int tsc;
    uint64_t tps;
    uint64_t pid;
    char provider_name[256];
    /* chunks: one mapping, laid out as include/fxt/manager.h says */
    fxt_shm_header_t *hdr;
    size_t map_size;
    uint8_t *mem;
    chunk_t *chunks;
    uint32_t nchunks, chunk_size;
    uint32_t next_chunk; /* atomic */
    uint64_t seq;        /* atomic */
    chunk_t *free_list, *queue_head, *queue_tail;
    /* output */
    int fd;
    int owns_fd;
    fxt_sink_t sink;
    pthread_t writer;
    int writer_running, writer_stop;
    fxt_status out_status;
    uint64_t out_bytes;
    fxt_session_stats_t last;
    tls_t *threads;      /* every thread that ever traced (reused across sessions; never freed) */
    uint32_t full_fence; /* 1 until membarrier is registered: writers then need a full fence */
    int env_tried;       /* FXT_TRACE_* auto-start tried (or an explicit session started) */
    /* a start from FXT_TRACE_* is under way (outside the lock: it reads the environment):
     * call sites wait for it on start_cond rather than cache "off" (issue 24.1) */
    int starting;
    pthread_cond_t start_cond;
    uint32_t site_epoch; /* fxt__gen_on / fxt__gen_off = 2 * site_epoch + 1 / + 2 */
    /* under a trace manager (FXT_TRACE_MANAGER): the connection; -1 standalone */
    int mgr_fd;
    int managed;
    /* clock: the pair taken at start (standalone TSC is calibrated from it at output) */
    uint64_t start_ticks, start_mono_ns, start_realtime_ns;
    int tps_known; /* tps is final (manager's, or monotonic) */
    int from_env;  /* started from FXT_TRACE_*: loud drop summary at stop */
    /* what started the session, for a fork child's own session (see fxt__trace_atfork_child) */
    fxt_session_config_t cfg;
    /* the process's name in the trace (fxt_set_process_name, FXT_PROCESS_NAME), "" for the
     * provider name; process_name_set: set by a call (FXT_PROCESS_NAME is not read then);
     * process_named: atomic, 1 once a name is set (chunks under a manager then carry it) */
    char process_name[256];
    int process_name_set;
    int process_named;
    char *cfg_path, *cfg_cats, *cfg_name; /* whole copies (malloc), kept until the next start */
    int fork_pending;                     /* a fork child: start its own session at its first event */
};

/* Hidden: internal to the library (the static library still needs the fxt__ prefix). */
#pragma GCC visibility push(hidden)

extern struct fxt__trace_session fxt__trace;
extern __thread tls_t *fxt__trace_tls; /* the calling thread's state, NULL before its first event */

/* trace_clock.c: see trace_clock.h */

/* trace_provider.c */
int fxt__trace_map_buffer(size_t total, uint32_t cs, int shared); /* 0, or -1 (message printed) */
void fxt__trace_unmap_buffer(void);
/* stop the background populating of the buffer (between two steps: a few ms at most) and join it */
void fxt__trace_populate_join(void);
void fxt__trace_populate_resume(void); /* after fork, in the parent: go on where it stopped */
/* fd, or -1 (message printed); *cats: the manager's whole category list (malloc'd, the
 * caller frees it), NULL for all */
int fxt__trace_mgr_connect(fxt_mgr_config_t *cfg, char **cats);
/* Under the lock: the shared header's name field from the process's name (manager.h). */
void fxt__trace_header_name(void);
int fxt__trace_mgr_send_buffer(void); /* 0, or -1 */
void fxt__trace_mgr_notify_full(void);
void fxt__trace_mgr_alert(const char *name, uint64_t ts); /* inside a record: stop waits for it */
void fxt__trace_mgr_bye(const fxt_session_stats_t *s);
void fxt__trace_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* trace_session.c */
void fxt__trace_sites_next(void);        /* under the lock: every call site recomputes its state */
void fxt__trace_wait_start_locked(void); /* under the lock: until no start from FXT_TRACE_* is under way */
fxt_status fxt__trace_start_from_env(int automatic); /* automatic: a call site's, once per process */

/* trace_categories.c */
int fxt__trace_parse_cats(const char *spec); /* 0, or -1 when out of memory */
void fxt__trace_free_cats(void);

/* trace_chunks.c */
uint64_t fxt__trace_os_tid(void);
tls_t *fxt__trace_tls_slow(tls_t *t);
void fxt__trace_membarrier_register(void);
void fxt__trace_wait_writers(tls_t *head);
void fxt__trace_enqueue(chunk_t *c); /* under the lock: hand a chunk to the streaming writer */
int fxt__trace_next_chunk(tls_t *t);
#define FXT__PROCESS_NAME_MAX 255u /* bytes of a process name */

/* trace_crash.c: a standalone session's trace written at a fatal signal */
void fxt__trace_crash_install(void);   /* under the lock, at start: handlers where SIG_DFL */
void fxt__trace_crash_uninstall(void); /* under the lock, at stop: the default action again */
/* fxt_session_stop() writes the trace (1: fatal signals deferred in this thread, the mask saved
 * in *old) or is done (0: the mask restored) */
void fxt__trace_crash_stopping(int on, sigset_t *old);
/* pthread_create for the engine's threads (the streaming writer, the buffer population): they
 * start with the fatal signals blocked, so the crash handler never runs on them. */
int fxt__trace_thread_create(pthread_t *t, void *(*fn)(void *), void *arg);
/* the streaming writer: begin returns 0 when a crash handler writes (write nothing more) */
int fxt__trace_crash_writer_begin(void);
void fxt__trace_crash_writer_end(void);
void fxt__trace_crash_preamble_done(void);
/* under the lock: FXT_PROCESS_NAME as the process name unless a call set one (warns when invalid) */
void fxt__trace_process_name_from_env(void);

#pragma GCC visibility pop

/* ---- hot-path helpers (inlined into every event) --------------------------------------- */

static inline uint64_t fxt__trace_now(void) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (__atomic_load_n(&fxt__trace.tsc, __ATOMIC_RELAXED)) { /* read by threads outside the lock */
        return __builtin_ia32_rdtsc();
    }
#endif
    return fxt__trace_mono_ns();
}

/* Inlined into every event: the common case is a thread already in the session. */
static inline tls_t *fxt__trace_get_tls(void) {
    tls_t *t = fxt__trace_tls;
    if (__builtin_expect(t != NULL && t->gen == __atomic_load_n(&fxt__trace.gen, __ATOMIC_ACQUIRE), 1)) {
        return t;
    }
    return fxt__trace_tls_slow(t);
}

/* Counters read by other threads (stats): single-writer, so a relaxed store suffices. */
#define FXT__TRACE_BUMP(x)                                                                                   \
    __atomic_store_n(&(x), __atomic_load_n(&(x), __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED)
#define FXT__TRACE_READ(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)

/* Chunks hold host-order words: the encoding core's output with no swap. */
static inline void fxt__trace_put(uint8_t **p, uint64_t v) { *p = fxt__put_word(*p, v, 0); }

static inline void fxt__trace_put_bytes(uint8_t **p, const char *s, size_t n) {
    *p = fxt__put_bytes(*p, s, n);
}

/*
 * Stopping a session while other threads trace: a writer marks itself busy,
 * then checks that its session is still the active one; the stopper clears
 * `active`, then waits until no thread is busy before it reads (and frees)
 * the buffers. The writer's store of `busy` must be visible before its load
 * of `active` (store-load order): a process-wide membarrier() issued by the
 * stopper provides it, so the hot path needs only a compiler barrier; where
 * membarrier is unavailable the writer uses a full fence.
 */

static inline tls_t *fxt__trace_enter(void) {
    tls_t *t = fxt__trace_get_tls();
    if (t == NULL) {
        return NULL;
    }
    __atomic_store_n(&t->busy, 1, __ATOMIC_RELAXED);
    if (__atomic_load_n(&fxt__trace.full_fence, __ATOMIC_RELAXED)) {
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    } else {
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
    }
    if (!__atomic_load_n(&fxt__trace.active, __ATOMIC_ACQUIRE) ||
        t->gen != __atomic_load_n(&fxt__trace.gen, __ATOMIC_ACQUIRE)) {
        __atomic_store_n(&t->busy, 0, __ATOMIC_RELEASE);
        return NULL;
    }
    return t;
}

static inline void fxt__trace_leave(tls_t *t) { __atomic_store_n(&t->busy, 0, __ATOMIC_RELEASE); }

/* Publish the records written so far: a reader of the shared mapping (the trace
 * manager, even after this process died) takes exactly the complete records. */
static inline void fxt__trace_commit(tls_t *t) {
    __atomic_store_n(&t->cur->sh->used, (uint32_t)(t->p - t->cur->data), __ATOMIC_RELEASE);
}

#endif /* FXT_TRACE_INTERNAL_H */
