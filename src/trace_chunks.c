/* SPDX-License-Identifier: MIT */
/*
 * Per-thread state and chunk management for the three buffer modes: taking
 * a chunk (an atomic increment for oneshot, the fair eviction of circular,
 * the free list and writer queue of streaming), and the protocol that lets
 * fxt_session_stop() wait for threads inside a record.
 */
#define _GNU_SOURCE 1 /* pthread_getname_np */
#include "trace_internal.h"

#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <linux/membarrier.h>
#include <sys/syscall.h>
#endif

__thread tls_t *fxt__trace_tls;
static pthread_key_t g_key;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

uint64_t fxt__trace_os_tid(void) {
#if defined(__linux__)
    return (uint64_t)syscall(SYS_gettid);
#else
    return (uint64_t)(uintptr_t)pthread_self();
#endif
}

static void thread_exit(void *arg) {
    tls_t *t = arg;
    pthread_mutex_lock(&fxt__trace.lock);
    int notify = 0;
    if (fxt__trace.active && t->gen == fxt__trace.gen && fxt__trace.mode == FXT_MODE_STREAMING &&
        t->cur != NULL && fxt__trace.managed) {
        /* the last chunk is ready for the manager to drain */
        __atomic_store_n(&t->cur->sh->state, FXT_CHUNK_FULL, __ATOMIC_RELEASE);
        t->cur = NULL;
        notify = 1;
    } else if (fxt__trace.active && t->gen == fxt__trace.gen && fxt__trace.mode == FXT_MODE_STREAMING &&
               t->cur != NULL) {
        fxt__trace_enqueue(t->cur); /* hand the last chunk to the writer */
        t->cur = NULL;
    }
    t->exited = 1;
    fxt__trace_tls = NULL; /* the state may be reused by a new thread once its session is over */
    pthread_mutex_unlock(&fxt__trace.lock);
    if (notify) {
        fxt__trace_mgr_notify_full();
    }
}

/* The number of thread states ever allocated (tests: exited threads' states are reused). */
uint64_t fxt__trace_thread_states(void);
uint64_t fxt__trace_thread_states(void) {
    pthread_mutex_lock(&fxt__trace.lock);
    uint64_t n = 0;
    for (tls_t *t = fxt__trace.threads; t != NULL; t = t->next_all) {
        n++;
    }
    pthread_mutex_unlock(&fxt__trace.lock);
    return n;
}

/* A state of an exited thread whose session is over (written and counted), or NULL. */
static tls_t *reuse_exited_locked(void) {
    for (tls_t *t = fxt__trace.threads; t != NULL; t = t->next_all) {
        if (t->exited && t->gen != fxt__trace.gen) {
            t->exited = 0;
            return t;
        }
    }
    return NULL;
}

static void make_key(void) { pthread_key_create(&g_key, thread_exit); }

tls_t *fxt__trace_tls_slow(tls_t *t) {
    if (t == NULL) {
        /* a thread state is ~170 KB: reuse one of an exited thread when possible, so
         * that programs creating many short-lived threads do not grow without bound */
        pthread_mutex_lock(&fxt__trace.lock);
        t = reuse_exited_locked();
        pthread_mutex_unlock(&fxt__trace.lock);
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
        t->tid = fxt__trace_os_tid();
#if defined(__linux__) && defined(_GNU_SOURCE)
        pthread_getname_np(pthread_self(), t->name, sizeof t->name);
#endif
        if (t->name[0] == '\0') {
            snprintf(t->name, sizeof t->name, "thread-%" PRIu64, t->tid);
        }
        if (!reused) {
            pthread_mutex_lock(&fxt__trace.lock);
            t->next_all = fxt__trace.threads;
            /* released: a crash handler walks the list without the lock (trace_crash.c) */
            __atomic_store_n(&fxt__trace.threads, t, __ATOMIC_RELEASE);
            pthread_mutex_unlock(&fxt__trace.lock);
        }
        fxt__trace_tls = t;
    }
    /* (re)join the current session */
    pthread_mutex_lock(&fxt__trace.lock);
    __atomic_store_n(&t->gen, fxt__trace.gen, __ATOMIC_RELAXED);
    t->pid = fxt__trace.pid;
    t->cur = NULL;
    t->p = t->end = NULL;
    t->nstr = 0;
    memset(t->cache, 0, sizeof t->cache);
    t->nchunks = 0;
    __atomic_store_n(&t->records, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&t->dropped, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&t->overwritten, 0, __ATOMIC_RELAXED);
    t->named = 0;
    pthread_mutex_unlock(&fxt__trace.lock);
    return t;
}

static void write_thread_kobj(uint8_t **p, const tls_t *t);
static void write_process_kobj(uint8_t **p, uint64_t pid, const char *name);

void fxt_set_thread_name(const char *name) {
    tls_t *t = fxt__trace_get_tls();
    if (t != NULL && name != NULL) {
        pthread_mutex_lock(&fxt__trace.lock); /* fxt_session_stop() reads the names */
        snprintf(t->name, sizeof t->name, "%s", name);
        pthread_mutex_unlock(&fxt__trace.lock);
        /* where chunks name their thread (streaming, or under a manager), a thread
         * renamed after its first chunk says so now, in its current chunk */
        if (fxt__trace_enter() == t) { /* inside a record: the session cannot stop meanwhile */
            if (t->cur != NULL && (fxt__trace.managed || fxt__trace.mode == FXT_MODE_STREAMING) &&
                (size_t)(t->end - t->p) >= 8u * 16u) {
                write_thread_kobj(&t->p, t); /* header, koid, name (<= 8 words), argument (3) */
                fxt__trace_commit(t);
            }
            fxt__trace_leave(t);
        }
    }
}

/* Room for a process kernel object: header, koid, a name of at most 255 bytes (32 words). */
#define PROCESS_KOBJ_BYTES (8u * (2u + 32u))

fxt_status fxt_set_process_name(const char *name) {
    if (name == NULL || name[0] == '\0' || strlen(name) > FXT__PROCESS_NAME_MAX) {
        return FXT_E_INVALID_ARG;
    }
    pthread_mutex_lock(&fxt__trace.lock); /* the preamble and new chunks read the name */
    memcpy(fxt__trace.process_name, name, strlen(name) + 1);
    fxt__trace.process_name_set = 1;
    __atomic_store_n(&fxt__trace.process_named, 1, __ATOMIC_RELEASE);
    fxt__trace_header_name(); /* what the manager labels the provider with (manager.h) */
    pthread_mutex_unlock(&fxt__trace.lock);
    /* oneshot and circular write the name in the preamble, at stop; where chunks go
     * out as they fill (streaming, or under a manager) the preamble may be out
     * already: say it now, in the calling thread's chunk */
    tls_t *t = fxt__trace_enter();
    if (t == NULL) {
        return FXT_OK;
    }
    if (fxt__trace.managed || fxt__trace.mode == FXT_MODE_STREAMING) {
        if (t->cur == NULL || (size_t)(t->end - t->p) < PROCESS_KOBJ_BYTES) {
            if (!fxt__trace_next_chunk(t)) {
                FXT__TRACE_BUMP(t->dropped); /* no chunk: the record is dropped, and counted */
                fxt__trace_leave(t);
                return FXT_OK;
            }
            if (fxt__trace.managed) {
                fxt__trace_leave(t); /* a new chunk under a manager starts with the name */
                return FXT_OK;
            }
        }
        write_process_kobj(&t->p, t->pid, name);
        fxt__trace_commit(t);
        FXT__TRACE_BUMP(t->records);
    }
    fxt__trace_leave(t);
    return FXT_OK;
}

void fxt__trace_process_name_from_env(void) {
    if (fxt__trace.process_name_set) {
        return; /* the program named itself: that wins */
    }
    const char *v = getenv("FXT_PROCESS_NAME");
    if (v == NULL || v[0] == '\0') {
        return;
    }
    if (strlen(v) > FXT__PROCESS_NAME_MAX) {
        fxt__trace_warn("FXT_PROCESS_NAME is longer than %u bytes; the process keeps its default name",
                        FXT__PROCESS_NAME_MAX);
        return;
    }
    memcpy(fxt__trace.process_name, v, strlen(v) + 1);
    __atomic_store_n(&fxt__trace.process_named, 1, __ATOMIC_RELEASE);
}

void fxt__trace_membarrier_register(void) {
#if defined(__linux__) && defined(__NR_membarrier)
    if (syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0) {
        __atomic_store_n(&fxt__trace.full_fence, 0, __ATOMIC_RELAXED);
    }
#endif
}

/* Stopper: after clearing `active`, wait until no writer is inside a record. */
void fxt__trace_wait_writers(tls_t *head) {
#if defined(__linux__) && defined(__NR_membarrier)
    if (!__atomic_load_n(&fxt__trace.full_fence, __ATOMIC_RELAXED)) {
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

static void write_process_kobj(uint8_t **p, uint64_t pid, const char *name) {
    fxt__estr_t nm = fxt__estr_inline(name, (uint32_t)strlen(name));
    fxt__trace_put(p, fxt__hdr_kernel_object(2 + fxt__estr_words(&nm), FXT_OBJ_PROCESS, nm.ref, 0));
    fxt__trace_put(p, pid);
    *p = fxt__put_estr(*p, &nm);
}

static void write_thread_kobj(uint8_t **p, const tls_t *t) {
    /* kernel object (thread), inline name, one koid arg "process" with inline name */
    static const char process[] = "process";
    fxt__estr_t name = fxt__estr_inline(t->name, (uint32_t)strlen(t->name));
    fxt__estr_t aname = fxt__estr_inline(process, sizeof process - 1);
    fxt_arg_t a = fxt_arg_koid(fxt_str_inline(fxt_str_n(process, sizeof process - 1)), t->pid);
    uint64_t words = 2 + fxt__estr_words(&name) + fxt__arg_words(FXT_ARG_KOID, &aname, NULL);
    fxt__trace_put(p, fxt__hdr_kernel_object(words, FXT_OBJ_THREAD, name.ref, 1));
    fxt__trace_put(p, t->tid);
    *p = fxt__put_estr(*p, &name);
    *p = fxt__put_arg(*p, 0, &a, &aname, NULL);
}

void fxt__trace_enqueue(chunk_t *c) {
    /* standalone, FULL until written (then FREE): a crash handler writes the FULL and OWNED ones */
    __atomic_store_n(&c->sh->state, FXT_CHUNK_FULL, __ATOMIC_RELEASE);
    c->next = NULL;
    if (fxt__trace.queue_tail) {
        fxt__trace.queue_tail->next = c;
    } else {
        fxt__trace.queue_head = c;
    }
    fxt__trace.queue_tail = c;
    pthread_cond_broadcast(&fxt__trace.cond);
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
 * Circular mode, under fxt__trace.lock: a fresh chunk while any is left; then the
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
    uint32_t i = __atomic_load_n(&fxt__trace.next_chunk, __ATOMIC_RELAXED);
    if (i < fxt__trace.nchunks) {
        __atomic_store_n(&fxt__trace.next_chunk, i + 1, __ATOMIC_RELAXED);
        own_chunk(t, &fxt__trace.chunks[i]);
        return &fxt__trace.chunks[i];
    }
    tls_t *v = t;
    for (tls_t *o = fxt__trace.threads; o != NULL; o = o->next_all) {
        if (o->gen == fxt__trace.gen && o->nchunks > v->nchunks) {
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
    FXT__TRACE_BUMP(v->overwritten);
    __atomic_fetch_add(&fxt__trace.hdr->overwritten, 1, __ATOMIC_RELAXED);
    if (v != t) {
        v->chunks[k] = v->chunks[--v->nchunks]; /* order does not matter: stop sorts by seq */
        own_chunk(t, c);
    }
    return c;
}

/*
 * Streaming under a manager: the chunk states in the shared mapping are the free
 * list. A thread claims a free chunk with a compare-and-swap (no lock: the
 * manager frees chunks from another process); the scan starts where the last
 * one succeeded, so it is short while chunks are available.
 */
static chunk_t *shared_take(void) {
    static uint32_t hint;
    uint32_t n = fxt__trace.nchunks, h = __atomic_load_n(&hint, __ATOMIC_RELAXED);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t i = (h + k) % n;
        uint32_t want = FXT_CHUNK_FREE;
        if (__atomic_load_n(&fxt__trace.chunks[i].sh->state, __ATOMIC_RELAXED) == FXT_CHUNK_FREE &&
            __atomic_compare_exchange_n(&fxt__trace.chunks[i].sh->state, &want, FXT_CHUNK_OWNED, 0,
                                        __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
            __atomic_store_n(&hint, i + 1, __ATOMIC_RELAXED);
            return &fxt__trace.chunks[i];
        }
    }
    return NULL;
}

/* Seal the current chunk and take a new one. 0 when none is available (the record is dropped). */
int fxt__trace_next_chunk(tls_t *t) {
    chunk_t *c = NULL;
    int sealed = 0;
    if (t->cur != NULL) {
        fxt__trace_commit(t);
    }
    if (fxt__trace.mode == FXT_MODE_STREAMING && fxt__trace.managed) {
        if (t->cur != NULL) {
            __atomic_store_n(&t->cur->sh->state, FXT_CHUNK_FULL, __ATOMIC_RELEASE);
            t->cur = NULL;
            sealed = 1;
        }
        c = shared_take();
        t->cur = c;
    } else if (fxt__trace.mode == FXT_MODE_STREAMING) {
        pthread_mutex_lock(&fxt__trace.lock);
        if (t->cur != NULL) {
            fxt__trace_enqueue(t->cur);
            t->cur = NULL;
        }
        c = fxt__trace.free_list;
        if (c != NULL) {
            fxt__trace.free_list = c->next;
        }
        t->cur = c;
        pthread_mutex_unlock(&fxt__trace.lock);
    } else if (fxt__trace.mode == FXT_MODE_CIRCULAR) {
        /* other threads read this thread's chunk list and current chunk when they
         * take a chunk from it: both change only under the lock */
        pthread_mutex_lock(&fxt__trace.lock);
        c = circular_take(t);
        t->cur = c;
        pthread_mutex_unlock(&fxt__trace.lock);
    } else {
        uint32_t i = __atomic_fetch_add(&fxt__trace.next_chunk, 1, __ATOMIC_RELAXED);
        if (i < fxt__trace.nchunks && own_chunk(t, &fxt__trace.chunks[i]) == 0) {
            c = &fxt__trace.chunks[i];
        }
        t->cur = c;
    }
    if (c == NULL) {
        t->p = t->end = NULL;
        /* in the shared header: a manager reports drops even of a provider that crashed */
        __atomic_fetch_add(&fxt__trace.hdr->dropped, 1, __ATOMIC_RELAXED);
        if (sealed) {
            fxt__trace_mgr_notify_full();
        }
        return 0;
    }
    c->owner = t;
    c->seq = __atomic_fetch_add(&fxt__trace.seq, 1, __ATOMIC_RELAXED) + 1;
    /* descriptor: empty first, then owner and sequence (a reader that sees the new
     * sequence never takes the old length), then the bytes */
    __atomic_store_n(&c->sh->used, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&c->sh->tid, t->tid, __ATOMIC_RELAXED);
    __atomic_store_n(&c->sh->seq, c->seq, __ATOMIC_RELEASE);
    __atomic_store_n(&c->sh->state, FXT_CHUNK_OWNED, __ATOMIC_RELEASE);
    __atomic_store_n(&fxt__trace.hdr->next_seq, c->seq, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    t->epoch = c->seq;
    t->p = c->data;
    t->end = c->data + c->cap;
    /* under a manager every chunk names its thread: the thread list of a crashed
     * process is gone, and circular mode may have overwritten the first chunk */
    if ((fxt__trace.mode == FXT_MODE_STREAMING && !t->named) || fxt__trace.managed) {
        write_thread_kobj(&t->p, t);
        t->named = 1;
    }
    /* a named process under a manager: every chunk says the name (circular mode may
     * overwrite the chunk that said it first); a lock per chunk, not per record */
    if (fxt__trace.managed && __atomic_load_n(&fxt__trace.process_named, __ATOMIC_ACQUIRE)) {
        char name[FXT__PROCESS_NAME_MAX + 1];
        pthread_mutex_lock(&fxt__trace.lock);
        memcpy(name, fxt__trace.process_name, sizeof name);
        pthread_mutex_unlock(&fxt__trace.lock);
        write_process_kobj(&t->p, t->pid, name);
    }
    /* every chunk starts by registering its thread as index 1 */
    fxt__trace_put(&t->p, fxt__hdr_thread(1));
    fxt__trace_put(&t->p, t->pid);
    fxt__trace_put(&t->p, t->tid);
    fxt__trace_commit(t);
    if (sealed) {
        fxt__trace_mgr_notify_full();
    }
    return 1;
}
