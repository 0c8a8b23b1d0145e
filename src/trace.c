/*
 * The instrumentation engine behind include/fxt/trace.h.
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
 */
#define _GNU_SOURCE 1 /* pthread_getname_np, program_invocation_short_name */
#include <fxt/trace.h>

#include "encode.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sched.h>
#if defined(__linux__)
#include <linux/membarrier.h>
#include <sys/syscall.h>
#endif

#define DEFAULT_BUFFER (32u << 20)
#define MAX_CHUNK (256u << 10)
#define CACHE_BITS 12u
#define CACHE_SIZE (1u << CACHE_BITS) /* pointer -> string index cache per thread */
#define MAX_THREAD_STRINGS 4096u /* per-thread string table; beyond it strings go inline */

uint32_t fxt__gen_on = 1;  /* no session: no site state equals these (sites start at 0) ... */
uint32_t fxt__gen_off = 2; /* ... except gen_off after their first refresh */

/* ---- chunks and per-thread state ------------------------------------------------------ */

typedef struct tls tls_t;

typedef struct chunk {
    uint8_t *data;
    uint32_t cap;
    uint32_t used;  /* committed bytes (release-stored after each record) */
    uint64_t seq;
    tls_t *owner;
    struct chunk *next; /* streaming queue / free list */
} chunk_t;

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
    } cache[CACHE_SIZE];
    sstr_t strs[MAX_THREAD_STRINGS + 1];
    uint32_t nstr;
    chunk_t **chunks; /* this thread's chunks, in order (oneshot, circular) */
    size_t nchunks, capchunks;
    uint64_t records, dropped, overwritten;
    int exited;
    uint32_t busy; /* 1 while the owner writes a record (see enter()) */
    tls_t *next_all;
    char logbuf[4096];
};

static struct session {
    pthread_mutex_t lock; /* sessions, thread list, streaming queues */
    pthread_cond_t cond;
    int active;
    uint32_t gen;         /* generation counter */
    fxt_buffer_mode mode;
    char **cats;          /* category patterns */
    size_t ncats;
    int all_cats;
    int tsc;
    uint64_t tps;
    uint64_t pid;
    char provider_name[256];
    /* chunks */
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
} g = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, FXT_MODE_ONESHOT, NULL, 0, 1, 0, 1000000000u, 0, {0},
       NULL, NULL, 0, 0, 0, 0, NULL, NULL, NULL, -1, 0, {NULL, NULL}, 0, 0, 0, FXT_OK, 0, {0, 0, 0, 0, 0, 0}};

static tls_t *g_threads; /* every thread that ever traced (reused across sessions) */
static pthread_key_t g_key;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static __thread tls_t *t_tls;

/* ---- clock ------------------------------------------------------------------------------- */

static uint64_t mono_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline uint64_t now_ticks(void) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (__atomic_load_n(&g.tsc, __ATOMIC_RELAXED)) { /* read by threads outside the lock */
        return __builtin_ia32_rdtsc();
    }
#endif
    return mono_ns();
}

uint64_t fxt_ticks(void) { return now_ticks(); }

static int tsc_invariant(void) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f == NULL) {
        return 0;
    }
    char line[4096];
    int constant = 0, nonstop = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "flags", 5) == 0) {
            constant = strstr(line, " constant_tsc") != NULL;
            nonstop = strstr(line, " nonstop_tsc") != NULL;
            break;
        }
    }
    fclose(f);
    return constant && nonstop;
#else
    return 0;
#endif
}

static uint64_t calibrate_tsc(void) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    uint64_t n0 = mono_ns(), t0 = __builtin_ia32_rdtsc();
    struct timespec d = {0, 20000000};
    nanosleep(&d, NULL);
    uint64_t n1 = mono_ns(), t1 = __builtin_ia32_rdtsc();
    if (n1 <= n0 || t1 <= t0) {
        return 0;
    }
    __extension__ typedef unsigned __int128 u128;
    return (uint64_t)((u128)(t1 - t0) * 1000000000u / (n1 - n0));
#else
    return 0;
#endif
}

/* ---- categories ---------------------------------------------------------------------------- */

static void free_cats(void) {
    for (size_t i = 0; i < g.ncats; i++) {
        free(g.cats[i]);
    }
    free(g.cats);
    g.cats = NULL;
    g.ncats = 0;
}

static int parse_cats(const char *spec) {
    free_cats();
    g.all_cats = spec == NULL || spec[0] == '\0' || strcmp(spec, "*") == 0;
    if (g.all_cats) {
        return 0;
    }
    const char *p = spec;
    while (*p) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        while (n && (*p == ' ' || *p == '\t')) {
            p++;
            n--;
        }
        while (n && (p[n - 1] == ' ' || p[n - 1] == '\t')) {
            n--;
        }
        if (n) {
            char **nc = realloc(g.cats, (g.ncats + 1) * sizeof *nc);
            if (nc == NULL) {
                return -1;
            }
            g.cats = nc;
            g.cats[g.ncats] = malloc(n + 1);
            if (g.cats[g.ncats] == NULL) {
                return -1;
            }
            memcpy(g.cats[g.ncats], p, n);
            g.cats[g.ncats][n] = '\0';
            if (strcmp(g.cats[g.ncats], "*") == 0) {
                g.all_cats = 1;
            }
            g.ncats++;
        }
        p += n;
        while (*p == ' ' || *p == '\t') {
            p++;
        }
        if (*p == ',') {
            p++;
        }
    }
    return 0;
}

static int cat_match(const char *cat) {
    if (g.all_cats) {
        return 1;
    }
    for (size_t i = 0; i < g.ncats; i++) {
        const char *pat = g.cats[i];
        size_t n = strlen(pat);
        if (n && pat[n - 1] == '*') {
            if (strncmp(cat, pat, n - 1) == 0) {
                return 1;
            }
        } else if (strcmp(cat, pat) == 0) {
            return 1;
        }
    }
    return 0;
}

/* Zero-code tracing: the first call site evaluated in a process with no session
 * starts one from FXT_TRACE_* when FXT_TRACE_OUTPUT is set (once per process;
 * an explicit fxt_session_start() before that wins). */
static int g_env_tried;

int fxt__site_refresh(fxt__site_t *s) {
    pthread_mutex_lock(&g.lock);
    int try_env = !g_env_tried && !g.active;
    g_env_tried = 1;
    pthread_mutex_unlock(&g.lock);
    if (try_env) {
        (void)fxt_session_start_from_env();
    }
    pthread_mutex_lock(&g.lock);
    int on = g.active && cat_match(s->category);
    uint32_t st = on ? __atomic_load_n(&fxt__gen_on, __ATOMIC_RELAXED) : __atomic_load_n(&fxt__gen_off, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&g.lock);
    /* the fast path needs the category's length each event: measure it once per site */
    if (s->category != NULL) {
        __atomic_store_n(&s->category_len, (uint32_t)strlen(s->category), __ATOMIC_RELAXED);
    }
    __atomic_store_n(&s->state, st, __ATOMIC_RELAXED);
    return on;
}

int fxt_category_enabled(const char *category) {
    pthread_mutex_lock(&g.lock);
    int on = g.active && category != NULL && cat_match(category);
    pthread_mutex_unlock(&g.lock);
    return on;
}

int fxt_session_active(void) { return __atomic_load_n(&g.active, __ATOMIC_ACQUIRE); }

/* ---- threads -------------------------------------------------------------------------------- */

static uint64_t os_tid(void) {
#if defined(__linux__)
    return (uint64_t)syscall(SYS_gettid);
#else
    return (uint64_t)(uintptr_t)pthread_self();
#endif
}

static void thread_exit(void *arg) {
    tls_t *t = arg;
    pthread_mutex_lock(&g.lock);
    if (g.active && t->gen == g.gen && g.mode == FXT_MODE_STREAMING && t->cur != NULL) {
        /* hand the last chunk to the writer */
        t->cur->next = NULL;
        if (g.queue_tail) {
            g.queue_tail->next = t->cur;
        } else {
            g.queue_head = t->cur;
        }
        g.queue_tail = t->cur;
        t->cur = NULL;
        pthread_cond_broadcast(&g.cond);
    }
    t->exited = 1;
    t_tls = NULL; /* the state may be reused by a new thread once its session is over */
    pthread_mutex_unlock(&g.lock);
}

/* The number of thread states ever allocated (tests: exited threads' states are reused). */
uint64_t fxt__trace_thread_states(void);
uint64_t fxt__trace_thread_states(void) {
    pthread_mutex_lock(&g.lock);
    uint64_t n = 0;
    for (tls_t *t = g_threads; t != NULL; t = t->next_all) {
        n++;
    }
    pthread_mutex_unlock(&g.lock);
    return n;
}

/* A state of an exited thread whose session is over (written and counted), or NULL. */
static tls_t *reuse_exited_locked(void) {
    for (tls_t *t = g_threads; t != NULL; t = t->next_all) {
        if (t->exited && t->gen != g.gen) {
            t->exited = 0;
            return t;
        }
    }
    return NULL;
}

static void make_key(void) { pthread_key_create(&g_key, thread_exit); }

static tls_t *get_tls_slow(tls_t *t);

/* Inlined into every event: the common case is a thread already in the session. */
static inline tls_t *get_tls(void) {
    tls_t *t = t_tls;
    if (__builtin_expect(t != NULL && t->gen == __atomic_load_n(&g.gen, __ATOMIC_ACQUIRE), 1)) {
        return t;
    }
    return get_tls_slow(t);
}

static tls_t *get_tls_slow(tls_t *t) {
    if (t == NULL) {
        /* a thread state is ~170 KB: reuse one of an exited thread when possible, so
         * that programs creating many short-lived threads do not grow without bound */
        pthread_mutex_lock(&g.lock);
        t = reuse_exited_locked();
        pthread_mutex_unlock(&g.lock);
        int reused = t != NULL;
        if (t == NULL) {
            t = calloc(1, sizeof *t);
        }
        if (t == NULL) {
            return NULL;
        }
        pthread_once(&g_once, make_key);
        pthread_setspecific(g_key, t);
        t->name[0] = '\0';
        t->tid = os_tid();
#if defined(__linux__) && defined(_GNU_SOURCE)
        pthread_getname_np(pthread_self(), t->name, sizeof t->name);
#endif
        if (t->name[0] == '\0') {
            snprintf(t->name, sizeof t->name, "thread-%" PRIu64, t->tid);
        }
        if (!reused) {
            pthread_mutex_lock(&g.lock);
            t->next_all = g_threads;
            g_threads = t;
            pthread_mutex_unlock(&g.lock);
        }
        t_tls = t;
    }
    /* (re)join the current session */
    pthread_mutex_lock(&g.lock);
    __atomic_store_n(&t->gen, g.gen, __ATOMIC_RELAXED);
    t->pid = g.pid;
    t->cur = NULL;
    t->p = t->end = NULL;
    t->nstr = 0;
    memset(t->cache, 0, sizeof t->cache);
    t->nchunks = 0;
    __atomic_store_n(&t->records, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&t->dropped, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&t->overwritten, 0, __ATOMIC_RELAXED);
    t->named = 0;
    pthread_mutex_unlock(&g.lock);
    return t;
}

void fxt_set_thread_name(const char *name) {
    tls_t *t = get_tls();
    if (t != NULL && name != NULL) {
        pthread_mutex_lock(&g.lock); /* fxt_session_stop() reads the names */
        snprintf(t->name, sizeof t->name, "%s", name);
        pthread_mutex_unlock(&g.lock);
    }
}

/* ---- chunk acquisition ------------------------------------------------------------------- */

/* Counters read by other threads (stats): single-writer, so a relaxed store suffices. */
#define BUMP(x) __atomic_store_n(&(x), __atomic_load_n(&(x), __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED)
#define READ(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)

/* Chunks hold host-order words: the encoding core's output with no swap. */
static inline void put(uint8_t **p, uint64_t v) { *p = fxt__put_word(*p, v, 0); }

static inline void put_stream(uint8_t **p, const char *s, size_t n) { *p = fxt__put_bytes(*p, s, n); }

/*
 * Stopping a session while other threads trace: a writer marks itself busy,
 * then checks that its session is still the active one; the stopper clears
 * `active`, then waits until no thread is busy before it reads (and frees)
 * the buffers. The writer's store of `busy` must be visible before its load
 * of `active` (store-load order): a process-wide membarrier() issued by the
 * stopper provides it, so the hot path needs only a compiler barrier; where
 * membarrier is unavailable the writer uses a full fence.
 */
static uint32_t g_full_fence = 1; /* 0 once membarrier is registered */

static inline tls_t *enter(void) {
    tls_t *t = get_tls();
    if (t == NULL) {
        return NULL;
    }
    __atomic_store_n(&t->busy, 1, __ATOMIC_RELAXED);
    if (__atomic_load_n(&g_full_fence, __ATOMIC_RELAXED)) {
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    } else {
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
    }
    if (!__atomic_load_n(&g.active, __ATOMIC_ACQUIRE) || t->gen != __atomic_load_n(&g.gen, __ATOMIC_ACQUIRE)) {
        __atomic_store_n(&t->busy, 0, __ATOMIC_RELEASE);
        return NULL;
    }
    return t;
}

static inline void leave(tls_t *t) { __atomic_store_n(&t->busy, 0, __ATOMIC_RELEASE); }

static void membarrier_register(void) {
#if defined(__linux__) && defined(__NR_membarrier)
    if (syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0) {
        __atomic_store_n(&g_full_fence, 0, __ATOMIC_RELAXED);
    }
#endif
}

/* Stopper: after clearing `active`, wait until no writer is inside a record. */
static void wait_writers(tls_t *head) {
#if defined(__linux__) && defined(__NR_membarrier)
    if (!__atomic_load_n(&g_full_fence, __ATOMIC_RELAXED)) {
        syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
    }
#endif
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    for (tls_t *t = head; t != NULL; t = t->next_all) {
        while (__atomic_load_n(&t->busy, __ATOMIC_ACQUIRE)) {
            sched_yield();
        }
    }
}

static void commit(tls_t *t) { __atomic_store_n(&t->cur->used, (uint32_t)(t->p - t->cur->data), __ATOMIC_RELEASE); }

static void write_thread_kobj(uint8_t **p, const tls_t *t) {
    /* kernel object (thread), inline name, one koid arg "process" with inline name */
    static const char process[] = "process";
    fxt__estr_t name = fxt__estr_inline(t->name, (uint32_t)strlen(t->name));
    fxt__estr_t aname = fxt__estr_inline(process, sizeof process - 1);
    fxt_warg_t a = fxt_arg_koid(fxt_str_inline(fxt_str_n(process, sizeof process - 1)), t->pid);
    uint64_t words = 2 + fxt__estr_words(&name) + fxt__arg_words(FXT_ARG_KOID, &aname, NULL);
    put(p, fxt__hdr_kernel_object(words, FXT_OBJ_THREAD, name.ref, 1));
    put(p, t->tid);
    *p = fxt__put_estr(*p, &name);
    *p = fxt__put_arg(*p, 0, &a, &aname, NULL);
}

static void enqueue(chunk_t *c) {
    c->next = NULL;
    if (g.queue_tail) {
        g.queue_tail->next = c;
    } else {
        g.queue_head = c;
    }
    g.queue_tail = c;
    pthread_cond_broadcast(&g.cond);
}

/* Room for one more chunk in t's list. 0, or -1 when out of memory. */
static int reserve_chunk(tls_t *t) {
    if (t->nchunks == t->capchunks) {
        size_t nc = t->capchunks ? t->capchunks * 2 : 16;
        chunk_t **n = realloc(t->chunks, nc * sizeof *n);
        if (n == NULL) {
            return -1;
        }
        t->chunks = n;
        t->capchunks = nc;
    }
    return 0;
}

static int own_chunk(tls_t *t, chunk_t *c) {
    if (reserve_chunk(t) != 0) {
        return -1;
    }
    t->chunks[t->nchunks++] = c;
    return 0;
}

/*
 * Circular mode, under g.lock: a fresh chunk while any is left; then the
 * oldest chunk of the thread holding the most chunks, as long as it holds at
 * least two more than the taker (else the taker reuses its own oldest). The
 * buffer thus ends up shared evenly among the threads that record: a lone
 * thread keeps the whole buffer, and a busy thread cannot evict a quiet one
 * below an equal share. Never the holder's current chunk. NULL: none (the
 * record is dropped).
 */
static chunk_t *circular_take(tls_t *t) {
    if (reserve_chunk(t) != 0) {
        return NULL; /* so that nothing below can fail half-way */
    }
    uint32_t i = __atomic_load_n(&g.next_chunk, __ATOMIC_RELAXED);
    if (i < g.nchunks) {
        __atomic_store_n(&g.next_chunk, i + 1, __ATOMIC_RELAXED);
        own_chunk(t, &g.chunks[i]);
        return &g.chunks[i];
    }
    tls_t *v = t;
    for (tls_t *o = g_threads; o != NULL; o = o->next_all) {
        if (o->gen == g.gen && o->nchunks > v->nchunks) {
            v = o;
        }
    }
    if (v->nchunks < t->nchunks + 2) {
        v = t;
    }
    size_t k = v->nchunks;
    for (size_t j = 0; j < v->nchunks; j++) {
        if (v->chunks[j] != v->cur && (k == v->nchunks || v->chunks[j]->seq < v->chunks[k]->seq)) {
            k = j;
        }
    }
    if (k == v->nchunks) {
        return NULL; /* the taker's only chunk is the one it just filled */
    }
    chunk_t *c = v->chunks[k];
    BUMP(v->overwritten);
    if (v != t) {
        v->chunks[k] = v->chunks[--v->nchunks]; /* order does not matter: stop sorts by seq */
        own_chunk(t, c);
    }
    return c;
}

/* Seal the current chunk and take a new one. 0 when none is available (the record is dropped). */
static int next_chunk(tls_t *t) {
    chunk_t *c = NULL;
    if (t->cur != NULL) {
        commit(t);
    }
    if (g.mode == FXT_MODE_STREAMING) {
        pthread_mutex_lock(&g.lock);
        if (t->cur != NULL) {
            enqueue(t->cur);
            t->cur = NULL;
        }
        c = g.free_list;
        if (c != NULL) {
            g.free_list = c->next;
        }
        t->cur = c;
        pthread_mutex_unlock(&g.lock);
    } else if (g.mode == FXT_MODE_CIRCULAR) {
        /* other threads read this thread's chunk list and current chunk when they
         * take a chunk from it: both change only under the lock */
        pthread_mutex_lock(&g.lock);
        c = circular_take(t);
        t->cur = c;
        pthread_mutex_unlock(&g.lock);
    } else {
        uint32_t i = __atomic_fetch_add(&g.next_chunk, 1, __ATOMIC_RELAXED);
        if (i < g.nchunks && own_chunk(t, &g.chunks[i]) == 0) {
            c = &g.chunks[i];
        }
        t->cur = c;
    }
    if (c == NULL) {
        t->p = t->end = NULL;
        return 0;
    }
    c->owner = t;
    c->seq = __atomic_fetch_add(&g.seq, 1, __ATOMIC_RELAXED) + 1;
    __atomic_store_n(&c->used, 0, __ATOMIC_RELAXED);
    t->epoch = c->seq;
    t->p = c->data;
    t->end = c->data + c->cap;
    if (g.mode == FXT_MODE_STREAMING && !t->named) {
        write_thread_kobj(&t->p, t);
        t->named = 1;
    }
    /* every chunk starts by registering its thread as index 1 */
    put(&t->p, fxt__hdr_thread(1));
    put(&t->p, t->pid);
    put(&t->p, t->tid);
    commit(t);
    return 1;
}

/* ---- record encoding ----------------------------------------------------------------------- */

typedef struct pref {
    uint16_t ref;
    uint16_t reg;     /* index to register in this chunk, 0 if none */
    const char *ptr;
    uint32_t len;
} pref_t;

/* The pointer -> string index cache slot of a string (interned by address). */
static inline unsigned cache_slot(const char *ptr) {
    return (unsigned)(((uint64_t)(uintptr_t)ptr * 0x9E3779B97F4A7C15ull) >> (64 - CACHE_BITS));
}

/* Resolve a string: inline, or an index of this thread's table (registered per chunk). */
static void prep(tls_t *t, fxt_str_t s, pref_t *o) {
    o->reg = 0;
    o->ptr = s.ptr;
    /* cut like every other API (at a UTF-8 boundary): the one rule of the encoding core */
    o->len = s.ptr ? fxt__str_clamp(s.ptr, s.len) : 0;
    if (o->len == 0) {
        o->ref = 0;
        return;
    }
    if (s.ref & FXT_STRREF_INLINE_FLAG) {
        o->ref = fxt_strref_inline((uint16_t)o->len);
        return;
    }
    unsigned slot = cache_slot(s.ptr);
    uint16_t idx = t->cache[slot].ptr == s.ptr ? t->cache[slot].idx : 0;
    if (idx == 0 || t->strs[idx].len != o->len) {
        if (t->nstr >= MAX_THREAD_STRINGS) {
            o->ref = fxt_strref_inline((uint16_t)o->len);
            return;
        }
        idx = (uint16_t)++t->nstr;
        t->strs[idx].ptr = s.ptr;
        t->strs[idx].len = o->len;
        t->strs[idx].epoch = 0;
        t->cache[slot].ptr = s.ptr;
        t->cache[slot].idx = idx;
    }
    o->ref = idx;
    if (t->strs[idx].epoch != t->epoch) {
        o->reg = idx;
    }
}

static void refresh_reg(const tls_t *t, pref_t *r) {
    r->reg = (r->ref != 0 && !fxt_strref_is_inline(r->ref) && t->strs[r->ref].epoch != t->epoch) ? r->ref : 0;
}

/* The string as the record carries it (its bytes only when inline). */
static inline fxt__estr_t pref_estr(const pref_t *r) {
    return fxt_strref_is_inline(r->ref) ? fxt__estr_inline(r->ptr, r->len) : fxt__estr_index(r->ref);
}

static uint64_t pref_words(const pref_t *r) { return fxt_strref_is_inline(r->ref) ? fxt_words(r->len) : 0; }
static uint64_t reg_words(const pref_t *r) { return r->reg ? 1 + fxt_words(r->len) : 0; }

static void put_reg(tls_t *t, pref_t *r) {
    if (r->reg && t->strs[r->reg].epoch != t->epoch) {
        put(&t->p, fxt__hdr_string(r->reg, r->len));
        put_stream(&t->p, r->ptr, r->len);
        t->strs[r->reg].epoch = t->epoch;
        BUMP(t->records);
    }
}

static void put_inline(tls_t *t, const pref_t *r) {
    if (fxt_strref_is_inline(r->ref)) {
        put_stream(&t->p, r->ptr, r->len);
    }
}

typedef struct rec {
    uint32_t type;
    uint64_t ts, id, end_ts;
    int has_id, has_end;
    const fxt_warg_t *args; /* the caller's array (read in place) */
    unsigned nargs;
    pref_t cat, name, aname[FXT_MAX_ARGS], aval[FXT_MAX_ARGS];
} rec_t;

static uint64_t arg_words(const rec_t *r, unsigned i) {
    fxt__estr_t nm = pref_estr(&r->aname[i]), sv = pref_estr(&r->aval[i]);
    return fxt__arg_words(r->args[i].type, &nm, &sv);
}

/* Write an event (string registrations first), taking a new chunk if needed. */
static void emit(tls_t *t, rec_t *r) {
    for (int attempt = 0; attempt < 2; attempt++) {
        if (t->cur == NULL && !next_chunk(t)) {
            break;
        }
        uint64_t need = 0, words = 2 + (uint64_t)(r->has_id || r->has_end);
        /* which strings this chunk has not registered yet */
        refresh_reg(t, &r->cat);
        refresh_reg(t, &r->name);
        for (unsigned i = 0; i < r->nargs; i++) {
            refresh_reg(t, &r->aname[i]);
            refresh_reg(t, &r->aval[i]);
        }
        need += reg_words(&r->cat);
        words += pref_words(&r->cat);
        need += reg_words(&r->name);
        words += pref_words(&r->name);
        for (unsigned i = 0; i < r->nargs; i++) {
            need += reg_words(&r->aname[i]) + reg_words(&r->aval[i]);
            words += arg_words(r, i);
        }
        if (words > FXT_MAX_RECORD_WORDS) {
            break; /* cannot be encoded: dropped */
        }
        if ((uint64_t)(t->end - t->p) < (need + words) * 8) {
            if (!next_chunk(t)) {
                break;
            }
            /* new chunk: every string must be registered again */
            continue;
        }
        put_reg(t, &r->cat);
        put_reg(t, &r->name);
        for (unsigned i = 0; i < r->nargs; i++) {
            put_reg(t, &r->aname[i]);
            put_reg(t, &r->aval[i]);
        }
        put(&t->p, fxt__hdr_event(r->type, r->nargs, 1, r->cat.ref, r->name.ref, words));
        put(&t->p, r->ts);
        put_inline(t, &r->cat);
        put_inline(t, &r->name);
        for (unsigned i = 0; i < r->nargs; i++) {
            fxt__estr_t nm = pref_estr(&r->aname[i]), sv = pref_estr(&r->aval[i]);
            t->p = fxt__put_arg(t->p, 0, &r->args[i], &nm, &sv);
        }
        if (r->has_id) {
            put(&t->p, r->id);
        } else if (r->has_end) {
            put(&t->p, r->end_ts);
        }
        commit(t);
        BUMP(t->records);
        return;
    }
    BUMP(t->dropped);
}

/*
 * The steady state: every string of the event is already registered in the
 * current chunk and the chunk has room. Then the event is encoded in one pass
 * over the arguments (read in place), straight into the chunk, with no string
 * preparation. Any other case returns 0 having committed nothing (bytes past
 * t->p are not part of the chunk yet), and the general path (prep + emit)
 * resolves, registers, takes a new chunk or drops, exactly as before.
 */

/* The index of `ptr` when the current chunk has registered it with this length, else 0. */
static inline uint16_t known_ref(const tls_t *t, const char *ptr, size_t len) {
    unsigned slot = cache_slot(ptr);
    uint16_t idx = t->cache[slot].idx;
    if (t->cache[slot].ptr != ptr || idx == 0 || t->strs[idx].len != len || t->strs[idx].epoch != t->epoch) {
        return 0;
    }
    return idx;
}

/* tail: the id (has_id) or end timestamp (complete) word, if has_tail. 1 when written. */
__attribute__((always_inline)) static inline int emit_fast(tls_t *t, uint32_t type, uint64_t ts,
                                                           const fxt__site_t *site, const char *name,
                                                           size_t name_len,
                                                           const fxt_warg_t *args, size_t n, int has_tail,
                                                           uint64_t tail) {
    uint8_t *p = t->p;
    /* room for the worst case without inline string values: header, timestamp,
     * 2 words per argument, tail (p == end == NULL without a chunk) */
    const char *cat = site->category;
    if (n > FXT_MAX_ARGS || cat == NULL || name == NULL || (size_t)(t->end - p) < (3 + 2 * n) * 8) {
        return 0;
    }
    /* lengths known in advance (a strlen per string per event was a fifth of an event's cost):
     * the category's measured by fxt__site_refresh, the name's at the call site */
    uint32_t cat_len = __atomic_load_n(&site->category_len, __ATOMIC_RELAXED);
    uint16_t cref = known_ref(t, cat, cat_len ? cat_len : strlen(cat));
    uint16_t nref = known_ref(t, name, name_len);
    if (cref == 0 || nref == 0) {
        return 0;
    }
    uint8_t *q = p + 16;
    size_t k = 0;
    for (; k < n; k++) {
        const fxt_warg_t *a = &args[k];
        if (a->type >= FXT_ARG_TYPE_COUNT) {
            break; /* an invalid argument ends the list (as prep_args) */
        }
        uint16_t aref = (a->name.ref & FXT_STRREF_INLINE_FLAG) ? 0 : known_ref(t, a->name.ptr, a->name.len);
        if (aref == 0) {
            return 0;
        }
        fxt__estr_t nm = fxt__estr_index(aref), sv = fxt__estr_index(FXT_STRREF_EMPTY);
        if (a->type == FXT_ARG_STRING && a->str.ptr != NULL) {
            /* cut like every other API (a UTF-8 boundary) */
            uint32_t len = fxt__str_clamp(a->str.ptr, a->str.len);
            if (len == 0) {
                /* the empty string */
            } else if (a->str.ref & FXT_STRREF_INLINE_FLAG) {
                sv = fxt__estr_inline(a->str.ptr, len);
                /* beyond the 2 words reserved: keep room for the arguments left and the tail */
                if ((uint64_t)(t->end - q) < (1 + fxt__estr_words(&sv) + 2 * (n - k - 1) + 1) * 8) {
                    return 0;
                }
            } else {
                uint16_t vref = known_ref(t, a->str.ptr, len);
                if (vref == 0) {
                    return 0;
                }
                sv = fxt__estr_index(vref);
            }
        }
        q = fxt__put_arg(q, 0, a, &nm, &sv);
    }
    if (has_tail) {
        put(&q, tail);
    }
    uint64_t words = (uint64_t)(q - p) / 8;
    if (words > FXT_MAX_RECORD_WORDS) {
        return 0; /* the general path drops it */
    }
    put(&p, fxt__hdr_event(type, (unsigned)k, 1, cref, nref, words));
    put(&p, ts);
    t->p = q;
    commit(t);
    BUMP(t->records);
    return 1;
}

/* Resolve the strings of `n` arguments (invalid types are skipped). */
static void prep_args(tls_t *t, rec_t *r, const fxt_warg_t *args, size_t n) {
    r->args = args;
    r->nargs = 0;
    if (n > FXT_MAX_ARGS) {
        n = FXT_MAX_ARGS;
    }
    for (size_t i = 0; i < n; i++) {
        const fxt_warg_t *a = &args[i];
        if (a->type >= FXT_ARG_TYPE_COUNT) {
            break; /* an invalid argument ends the list */
        }
        prep(t, a->name, &r->aname[r->nargs]);
        if (a->type == FXT_ARG_STRING) {
            prep(t, a->str, &r->aval[r->nargs]);
        } else {
            r->aval[r->nargs].reg = 0;
            r->aval[r->nargs].ref = 0;
            r->aval[r->nargs].len = 0;
        }
        r->nargs++;
    }
}

static void collect_args(tls_t *t, rec_t *r, fxt_warg_t *buf, va_list ap) {
    size_t n = 0;
    for (;;) {
        fxt_warg_t a = va_arg(ap, fxt_warg_t);
        if (a.type == 0xff) {
            break;
        }
        if (n < FXT_MAX_ARGS && a.type < FXT_ARG_TYPE_COUNT) {
            buf[n++] = a;
        }
    }
    prep_args(t, r, buf, n);
}

static void start_rec_at(tls_t *t, rec_t *r, fxt__site_t *site, uint32_t type, const char *name,
                         uint64_t ts) {
    r->type = type;
    r->ts = ts;
    r->has_id = r->has_end = 0;
    prep(t, fxt_cstr(site->category), &r->cat);
    prep(t, fxt_cstr(name), &r->name);
}

static void start_rec(tls_t *t, rec_t *r, fxt__site_t *site, uint32_t type, const char *name) {
    start_rec_at(t, r, site, type, name, now_ticks());
}

void fxt__event(fxt__site_t *site, uint32_t type, const char *name, ...) {
    tls_t *t = enter();
    if (t == NULL) {
        return;
    }
    rec_t r;
    fxt_warg_t buf[FXT_MAX_ARGS];
    start_rec(t, &r, site, type, name);
    va_list ap;
    va_start(ap, name);
    collect_args(t, &r, buf, ap);
    va_end(ap);
    emit(t, &r);
    leave(t);
}

void fxt__event_id(fxt__site_t *site, uint32_t type, const char *name, uint64_t id, ...) {
    tls_t *t = enter();
    if (t == NULL) {
        return;
    }
    rec_t r;
    start_rec(t, &r, site, type, name);
    r.has_id = 1;
    r.id = id;
    fxt_warg_t buf[FXT_MAX_ARGS];
    va_list ap;
    va_start(ap, id);
    collect_args(t, &r, buf, ap);
    va_end(ap);
    emit(t, &r);
    leave(t);
}

/* Everything the one-pass path leaves: resolve and register strings, take chunks,
 * drop. Out of line, so that the fast path keeps a small frame. */
__attribute__((noinline)) static void emit_general(tls_t *t, fxt__site_t *site, uint32_t type,
                                                   const char *name, uint64_t ts, int has_id, uint64_t id,
                                                   int has_end, uint64_t end_ts, const fxt_warg_t *args,
                                                   size_t nargs) {
    rec_t r;
    start_rec_at(t, &r, site, type, name, ts);
    r.has_id = has_id;
    r.id = id;
    r.has_end = has_end;
    r.end_ts = end_ts;
    prep_args(t, &r, args, nargs);
    emit(t, &r);
}

void fxt__complete_args(fxt__site_t *site, const char *name, uint64_t start, const fxt_warg_t *args,
                        size_t nargs) {
    tls_t *t = enter();
    if (t == NULL) {
        return;
    }
    uint64_t end = now_ticks();
    if (!emit_fast(t, FXT_EVENT_DURATION_COMPLETE, start, site, name, name ? strlen(name) : 0, args, nargs, 1, end)) {
        emit_general(t, site, FXT_EVENT_DURATION_COMPLETE, name, start, 0, 0, 1, end, args, nargs);
    }
    leave(t);
}

void fxt__event_args_n(fxt__site_t *site, uint32_t type, const char *name, uint32_t name_len, int has_id,
                       uint64_t id, const fxt_warg_t *args, size_t nargs) {
    tls_t *t = enter();
    if (t == NULL) {
        return;
    }
    uint64_t ts = now_ticks();
    if (!emit_fast(t, type, ts, site, name, name_len, args, nargs, has_id != 0, id)) {
        emit_general(t, site, type, name, ts, has_id != 0, id, 0, 0, args, nargs);
    }
    leave(t);
}

/* The entry point of code compiled against headers older than fxt__event_args_n(). */
void fxt__event_args(fxt__site_t *site, uint32_t type, const char *name, int has_id, uint64_t id,
                     const fxt_warg_t *args, size_t nargs) {
    fxt__event_args_n(site, type, name, name ? (uint32_t)strlen(name) : 0u, has_id, id, args, nargs);
}

void fxt__complete(fxt__site_t *site, const char *name, uint64_t start) {
    tls_t *t = enter();
    if (t == NULL) {
        return;
    }
    uint64_t end = now_ticks();
    if (!emit_fast(t, FXT_EVENT_DURATION_COMPLETE, start, site, name, name ? strlen(name) : 0, NULL, 0, 1, end)) {
        emit_general(t, site, FXT_EVENT_DURATION_COMPLETE, name, start, 0, 0, 1, end, NULL, 0);
    }
    leave(t);
}

/* A record with a byte stream (log message, blob payload). */
static void emit_stream(tls_t *t, int is_log, const char *name, const void *data, size_t len) {
    uint64_t ts = now_ticks();
    for (int attempt = 0; attempt < 2; attempt++) {
        if (t->cur == NULL && !next_chunk(t)) {
            break;
        }
        pref_t nm = {0, 0, NULL, 0};
        if (!is_log) {
            prep(t, fxt_cstr(name), &nm);
            refresh_reg(t, &nm);
        }
        uint64_t words = (is_log ? 2 : 1 + pref_words(&nm)) + fxt_words(len);
        uint64_t need = words + reg_words(&nm);
        if ((uint64_t)(t->end - t->p) < need * 8) {
            if (!next_chunk(t)) {
                break;
            }
            continue;
        }
        if (is_log) {
            put(&t->p, fxt__hdr_log(words, (uint32_t)len, 1));
            put(&t->p, ts);
        } else {
            put_reg(t, &nm);
            put(&t->p, fxt__hdr_blob(words, nm.ref, len, FXT_BLOB_DATA));
            put_inline(t, &nm);
        }
        put_stream(&t->p, data, len);
        commit(t);
        BUMP(t->records);
        return;
    }
    BUMP(t->dropped);
}

void fxt__log(fxt__site_t *site, const char *fmt, ...) {
    (void)site;
    tls_t *t = enter();
    if (t == NULL) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->logbuf, sizeof t->logbuf, fmt, ap);
    va_end(ap);
    if (n >= 0) {
        size_t len = (size_t)n < sizeof t->logbuf ? (size_t)n : sizeof t->logbuf - 1;
        emit_stream(t, 1, NULL, t->logbuf, len);
    }
    leave(t);
}

void fxt__blob(fxt__site_t *site, const char *name, const void *data, size_t size) {
    (void)site;
    tls_t *t = enter();
    if (t == NULL) {
        return;
    }
    if (size > FXT_MAX_BLOB_SIZE || size + 64 > g.chunk_size) {
        BUMP(t->dropped); /* larger than a blob record (or a chunk) can hold */
    } else {
        emit_stream(t, 0, name, data, size);
    }
    leave(t);
}

/* ---- output ----------------------------------------------------------------------------------- */

static void out_write(const void *data, size_t len) {
    if (g.out_status != FXT_OK || len == 0) {
        return;
    }
    g.out_status = g.sink.write(g.sink.ctx, data, len);
    /* read by fxt_session_get_stats() while the streaming writer runs */
    __atomic_store_n(&g.out_bytes, g.out_bytes + len, __ATOMIC_RELAXED);
}

/* Write records through a temporary writer straight into the output sink. */
static fxt_status out_sink(void *ctx, const void *data, size_t len) {
    (void)ctx;
    out_write(data, len);
    return g.out_status;
}

static void write_preamble(int with_threads) {
    fxt_sink_t s = {out_sink, NULL};
    fxt_writer_t *w;
    if (fxt_writer_create(NULL, s, &w) != FXT_OK) {
        g.out_status = FXT_E_NOMEM;
        return;
    }
    fxt_write_magic(w);
    fxt_write_provider_info(w, 1, fxt_str_n(g.provider_name, strlen(g.provider_name)));
    fxt_write_init(w, g.tps);
    fxt_write_kernel_object(w, g.pid, FXT_OBJ_PROCESS, fxt_str_inline(fxt_cstr(g.provider_name)), NULL, 0);
    if (with_threads) {
        for (tls_t *t = g_threads; t != NULL; t = t->next_all) {
            if (t->gen != g.gen) {
                continue;
            }
            fxt_warg_t a = fxt_arg_koid(fxt_str_inline(fxt_cstr("process")), g.pid);
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
    fxt_warg_t a = fxt_arg_uint64(fxt_cstr("count"), count);
    fxt_write_instant(w, now_ticks(), fxt_thread_inline(g.pid, 0), fxt_cstr("fxt"), fxt_cstr(what), &a, 1);
    fxt_writer_finish(w);
    fxt_writer_destroy(w);
}

static void write_drop_report(uint64_t dropped) { write_loss_report("records_dropped", dropped); }

static void *writer_main(void *arg) {
    (void)arg;
    pthread_mutex_lock(&g.lock);
    for (;;) {
        while (g.queue_head == NULL && !g.writer_stop) {
            pthread_cond_wait(&g.cond, &g.lock);
        }
        chunk_t *c = g.queue_head;
        if (c == NULL) {
            break;
        }
        g.queue_head = c->next;
        if (g.queue_head == NULL) {
            g.queue_tail = NULL;
        }
        pthread_mutex_unlock(&g.lock);
        /* a queued chunk is no longer written by its thread: read without the lock */
        out_write(c->data, __atomic_load_n(&c->used, __ATOMIC_ACQUIRE));
        pthread_mutex_lock(&g.lock);
        c->next = g.free_list;
        g.free_list = c;
    }
    pthread_mutex_unlock(&g.lock);
    return NULL;
}

static int cmp_seq(const void *a, const void *b) {
    const chunk_t *x = *(chunk_t *const *)a, *y = *(chunk_t *const *)b;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* ---- session ----------------------------------------------------------------------------------- */

static void stop_at_exit(void);

fxt_status fxt_session_start(const fxt_session_config_t *cfg) {
    if (cfg == NULL || cfg->struct_size < sizeof(uint32_t)) {
        return FXT_E_INVALID_ARG;
    }
    fxt_session_config_t c = FXT_SESSION_CONFIG_INIT;
    memcpy(&c, cfg, cfg->struct_size < sizeof c ? cfg->struct_size : sizeof c);
    if (c.output_path == NULL && c.sink.write == NULL) {
        return FXT_E_INVALID_ARG;
    }
    if (c.mode > FXT_MODE_STREAMING) {
        return FXT_E_INVALID_ARG;
    }
    pthread_mutex_lock(&g.lock);
    g_env_tried = 1; /* an explicit session wins over FXT_TRACE_* auto-start */
    static int atexit_registered;
    if (!atexit_registered) {
        atexit_registered = 1;
        atexit(stop_at_exit); /* program exit writes / flushes a running session */
    }
    if (g.active) {
        pthread_mutex_unlock(&g.lock);
        return FXT_E_STATE;
    }
    fxt_status st = FXT_OK;
    if (c.output_path != NULL) {
        g.fd = open(c.output_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (g.fd < 0) {
            pthread_mutex_unlock(&g.lock);
            return FXT_E_IO;
        }
        g.owns_fd = 1;
        g.sink = fxt_sink_fd(&g.fd);
    } else {
        g.owns_fd = 0;
        g.sink = c.sink;
    }
    if (parse_cats(c.categories) != 0) {
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
    g.chunk_size = cs;
    g.nchunks = (uint32_t)(total / cs);
    g.mem = malloc((size_t)g.nchunks * cs);
    g.chunks = calloc(g.nchunks, sizeof *g.chunks);
    if (st != FXT_OK || g.mem == NULL || g.chunks == NULL) {
        free(g.mem);
        free(g.chunks);
        g.mem = NULL;
        g.chunks = NULL;
        if (g.owns_fd) {
            close(g.fd);
        }
        pthread_mutex_unlock(&g.lock);
        return FXT_E_NOMEM;
    }
    g.free_list = NULL;
    for (uint32_t i = 0; i < g.nchunks; i++) {
        g.chunks[i].data = g.mem + (size_t)i * cs;
        g.chunks[i].cap = cs;
        if (c.mode == FXT_MODE_STREAMING) {
            g.chunks[i].next = g.free_list;
            g.free_list = &g.chunks[i];
        }
    }
    g.queue_head = g.queue_tail = NULL;
    g.next_chunk = 0;
    g.seq = 0;
    g.mode = c.mode;
    g.pid = (uint64_t)getpid();
    g.out_status = FXT_OK;
    g.out_bytes = 0;
    int use_tsc = 0;
    g.tps = 1000000000u;
    if (c.clock == FXT_CLOCK_TSC || (c.clock == FXT_CLOCK_AUTO && tsc_invariant())) {
        uint64_t tps = calibrate_tsc();
        if (tps > 0) {
            use_tsc = 1;
            g.tps = tps;
        }
    }
    __atomic_store_n(&g.tsc, use_tsc, __ATOMIC_RELAXED);
    const char *pn = c.provider_name;
#if defined(__linux__) && defined(_GNU_SOURCE)
    if (pn == NULL) {
        pn = program_invocation_short_name;
    }
#endif
    snprintf(g.provider_name, sizeof g.provider_name, "%s", pn ? pn : "process");
    __atomic_store_n(&g.gen, g.gen + 1, __ATOMIC_RELEASE);
    membarrier_register();
    __atomic_store_n(&g.active, 1, __ATOMIC_RELEASE);
    /* new generation numbers: every site recomputes its state once */
    __atomic_store_n(&fxt__gen_on, 2 * g.gen + 1, __ATOMIC_RELEASE);
    __atomic_store_n(&fxt__gen_off, 2 * g.gen + 2, __ATOMIC_RELEASE);
    if (g.mode == FXT_MODE_STREAMING) {
        write_preamble(0);
        g.writer_stop = 0;
        g.writer_running = pthread_create(&g.writer, NULL, writer_main, NULL) == 0;
        if (!g.writer_running) {
            g.out_status = FXT_E_NOMEM;
        }
    }
    /* read before unlocking: from here on the streaming writer thread owns it */
    fxt_status out_st = g.out_status;
    pthread_mutex_unlock(&g.lock);
    return out_st;
}

fxt_status fxt_session_stop(void) {
    pthread_mutex_lock(&g.lock);
    if (!g.active) {
        pthread_mutex_unlock(&g.lock);
        return FXT_E_STATE;
    }
    __atomic_store_n(&g.active, 0, __ATOMIC_RELEASE);
    /* disable every site, then give in-flight events a moment to finish */
    __atomic_store_n(&fxt__gen_on, 2 * g.gen + 3, __ATOMIC_RELEASE);
    __atomic_store_n(&fxt__gen_off, 2 * g.gen + 4, __ATOMIC_RELEASE);
    tls_t *head = g_threads; /* the list only grows at its head; nodes are never freed */
    pthread_mutex_unlock(&g.lock);
    wait_writers(head);

    pthread_mutex_lock(&g.lock);
    fxt_session_stats_t s = {0, 0, 0, 0, 0, g.tps};
    for (tls_t *t = g_threads; t != NULL; t = t->next_all) {
        if (t->gen != g.gen) {
            continue;
        }
        s.threads++;
        s.records += READ(t->records);
        s.dropped += READ(t->dropped);
        s.overwritten += READ(t->overwritten);
    }
    if (g.mode == FXT_MODE_STREAMING) {
        for (tls_t *t = g_threads; t != NULL; t = t->next_all) {
            if (t->gen == g.gen && t->cur != NULL) {
                enqueue(t->cur);
                t->cur = NULL;
            }
        }
        g.writer_stop = 1;
        pthread_cond_broadcast(&g.cond);
        pthread_mutex_unlock(&g.lock);
        if (g.writer_running) {
            pthread_join(g.writer, NULL);
        }
        pthread_mutex_lock(&g.lock);
    } else {
        write_preamble(1);
        /* circular: the oldest chunks were overwritten, so the kept events may
         * start with ends whose begins are gone; say so before them */
        write_loss_report("chunks_overwritten", s.overwritten);
        for (tls_t *t = g_threads; t != NULL; t = t->next_all) {
            if (t->gen != g.gen || t->nchunks == 0) {
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
    for (tls_t *t = g_threads; t != NULL; t = t->next_all) {
        if (t->gen == g.gen) {
            t->cur = NULL;
            t->p = t->end = NULL;
            t->nchunks = 0;
        }
    }
    s.bytes = g.out_bytes;
    g.last = s;
    fxt_status st = g.out_status;
    if (g.owns_fd && close(g.fd) != 0 && st == FXT_OK) {
        st = FXT_E_IO;
    }
    g.owns_fd = 0;
    free(g.mem);
    free(g.chunks);
    g.mem = NULL;
    g.chunks = NULL;
    g.nchunks = 0;
    free_cats();
    /* the next session gets a new generation: thread states reset on first use */
    __atomic_store_n(&g.gen, g.gen + 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&g.lock);
    return st;
}

void fxt_session_get_stats(fxt_session_stats_t *out) {
    if (out == NULL) {
        return;
    }
    pthread_mutex_lock(&g.lock);
    if (g.active) {
        fxt_session_stats_t s = {0, 0, 0, __atomic_load_n(&g.out_bytes, __ATOMIC_RELAXED), 0, g.tps};
        for (tls_t *t = g_threads; t != NULL; t = t->next_all) {
            if (t->gen == g.gen) {
                s.threads++;
                s.records += READ(t->records);
                s.dropped += READ(t->dropped);
                s.overwritten += READ(t->overwritten);
            }
        }
        *out = s;
    } else {
        *out = g.last;
    }
    pthread_mutex_unlock(&g.lock);
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
        double mul = *end == 'k' || *end == 'K' ? 1024.0 : *end == 'm' || *end == 'M' ? 1048576.0 : *end == 'g' || *end == 'G' ? 1073741824.0 : 1.0;
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
