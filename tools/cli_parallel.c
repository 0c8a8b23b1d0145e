/* SPDX-License-Identifier: MIT */
/* Parallel decoding of a trace file by ranges (see cli_parallel.h). */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS (glibc hides it under strict C11) */
#include "cli_parallel.h"

#include <fxt/format.h>
#include <fxt/reader.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdatomic.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#if !defined(MAP_ANONYMOUS) && defined(MAP_ANON)
#define MAP_ANONYMOUS MAP_ANON
#endif

#define DEFAULT_MIN_RANGE (UINT64_C(4) << 20)
/* Ranges per job: small enough that a slow range or the pre-scan does not leave a core idle. */
#define RANGES_PER_JOB 8
/* Readers kept for reuse; ranges in flight are at most jobs + 2, so a few suffice. */
#define POOL_MAX 8

unsigned cli_par_default_jobs(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : n > 256 ? 256u : (unsigned)n;
}

typedef struct prange {
    uint64_t begin, end;
    fxt_reader_t *seed; /* reader state at begin; NULL for range 0 (a fresh reader) */
    void *state;
    int taken, done, last;
} prange_t;

typedef struct par {
    const char *cmd;
    const cli_par_ops_t *ops;
    void *ctx;
    const fxt_reader_options_t *opt;
    const uint8_t *data;
    uint64_t size;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_mutex_t merge_mu; /* held by the one thread merging */
    prange_t *ranges;
    size_t cap, published, next_take, next_merge, max_inflight;
    int scan_done, failed; /* failed: an exit code or CLI_PAR_RERUN; later ranges are not decoded */
    /* Readers of decoded ranges, reused to seed later ones: seeding then copies the string
     * tables into buffers already there instead of fresh memory (a page fault per page). */
    fxt_reader_t *pool[POOL_MAX];
    size_t npool;
} par_t;

/* A decoded range's reader, back to the pool (or destroyed when it is full). */
static void reader_recycle(par_t *p, fxt_reader_t *r) {
    pthread_mutex_lock(&p->mu);
    if (p->npool < POOL_MAX) {
        p->pool[p->npool++] = r;
        r = NULL;
    }
    pthread_mutex_unlock(&p->mu);
    fxt_reader_destroy(r);
}

/* A reader to seed: a recycled one, else a new one; NULL when out of memory. */
static fxt_reader_t *reader_take(par_t *p) {
    fxt_reader_t *r = NULL;
    pthread_mutex_lock(&p->mu);
    if (p->npool > 0) {
        r = p->pool[--p->npool];
    }
    pthread_mutex_unlock(&p->mu);
    if (r == NULL && fxt_reader_create(p->opt, &r) != FXT_OK) {
        return NULL;
    }
    return r;
}

/* Decodes range k with its seeded reader; the callbacks get the command's range state. */
static int decode_range(par_t *p, prange_t *g, size_t k) {
    fxt_reader_t *r = g->seed;
    if (r == NULL && fxt_reader_create(p->opt, &r) != FXT_OK) {
        return CLI_EXIT_LIMIT;
    }
    g->seed = NULL;
    g->state = p->ops->range_new(p->ctx, k);
    if (g->state == NULL) {
        fxt_reader_destroy(r);
        return CLI_EXIT_LIMIT;
    }
    fxt_in_buffer_t in = {p->data + g->begin, (size_t)(g->end - g->begin), 0};
    fxt_record_t rec;
    int rc = 0;
    for (;;) {
        fxt_status st = fxt_reader_next(r, &in, &rec);
        if (st == FXT_OK) {
            (void)p->ops->on_record(g->state, r, &rec);
        } else if (st == FXT_NEED_INPUT) {
            /* Only the last range can end inside a record: the pre-scan cuts at record starts. */
            if (g->last && fxt_reader_finish(r) != FXT_OK) {
                p->ops->on_error(g->state, r, fxt_reader_diag(r));
            }
            break;
        } else if (st == FXT_END) {
            break;
        } else {
            p->ops->on_error(g->state, r, fxt_reader_diag(r));
            if (st == FXT_E_NOMEM) {
                rc = CLI_EXIT_LIMIT;
                break;
            }
        }
    }
    reader_recycle(p, r);
    return rc;
}

/* Merges every finished range that is next in order; whoever holds merge_mu does it. */
static void merge_ready(par_t *p) {
    pthread_mutex_lock(&p->merge_mu);
    for (;;) {
        pthread_mutex_lock(&p->mu);
        prange_t *g = p->next_merge < p->published && p->ranges[p->next_merge].done && !p->failed
                          ? &p->ranges[p->next_merge]
                          : NULL;
        pthread_mutex_unlock(&p->mu);
        if (g == NULL) {
            break;
        }
        int rc = p->ops->range_merge(p->ctx, g->state);
        g->state = NULL;
        pthread_mutex_lock(&p->mu);
        p->next_merge++;
        if (rc != 0 && !p->failed) {
            p->failed = rc;
        }
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
    }
    pthread_mutex_unlock(&p->merge_mu);
}

/* Takes and decodes one published range; 0 when none is waiting (without blocking). */
static int work_one(par_t *p) {
    pthread_mutex_lock(&p->mu);
    if (p->failed || p->next_take >= p->published) {
        pthread_mutex_unlock(&p->mu);
        return 0;
    }
    size_t k = p->next_take++;
    prange_t *g = &p->ranges[k];
    g->taken = 1;
    pthread_mutex_unlock(&p->mu);
    int rc = decode_range(p, g, k);
    pthread_mutex_lock(&p->mu);
    g->done = 1;
    if (rc != 0 && !p->failed) {
        p->failed = rc;
    }
    pthread_mutex_unlock(&p->mu);
    merge_ready(p);
    return 1;
}

static void *worker(void *arg) {
    par_t *p = arg;
    for (;;) {
        if (work_one(p)) {
            continue;
        }
        pthread_mutex_lock(&p->mu);
        while (!p->failed && p->next_take >= p->published && !p->scan_done) {
            pthread_cond_wait(&p->cv, &p->mu);
        }
        int more = !p->failed && p->next_take < p->published;
        pthread_mutex_unlock(&p->mu);
        if (!more) {
            return NULL;
        }
    }
}

/* Makes range [begin, end) available; the main thread decodes ranges itself while too many are in flight. */
static void publish(par_t *p, uint64_t begin, uint64_t end, fxt_reader_t *seed, int last) {
    pthread_mutex_lock(&p->mu);
    prange_t *g = &p->ranges[p->published];
    g->begin = begin;
    g->end = end;
    g->seed = seed;
    g->last = last;
    p->published++;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    for (;;) {
        pthread_mutex_lock(&p->mu);
        int full = !p->failed && p->published - p->next_merge >= p->max_inflight;
        pthread_mutex_unlock(&p->mu);
        if (!full || !work_one(p)) {
            break;
        }
    }
    /* Still full with nothing to take: wait for merges rather than seed more readers. */
    pthread_mutex_lock(&p->mu);
    while (!p->failed && p->published - p->next_merge >= p->max_inflight) {
        pthread_cond_wait(&p->cv, &p->mu);
    }
    pthread_mutex_unlock(&p->mu);
}

/*
 * The pre-scan: hops from header to header (sizes only) and feeds the records
 * that change decoding state (metadata, initialization, string, thread; objects
 * when the command keeps object tables) to one reader, which seeds each range.
 * It stops where the reader would: a size-0 record or one running past the end.
 */
static int prescan(par_t *p, uint64_t range_bytes) {
    fxt_reader_t *sr;
    if (fxt_reader_create(p->opt, &sr) != FXT_OK) {
        return CLI_EXIT_LIMIT;
    }
    /* The record types that change decoding state, as a bit set: the hop tests one bit. */
    uint32_t feed = (1u << FXT_RECORD_METADATA) | (1u << FXT_RECORD_INITIALIZATION) |
                    (1u << FXT_RECORD_STRING) | (1u << FXT_RECORD_THREAD);
    if (!(p->opt && (p->opt->flags & FXT_READ_NO_OBJECT_TABLES))) {
        feed |= (1u << FXT_RECORD_KERNEL_OBJECT) | (1u << FXT_RECORD_USERSPACE_OBJECT);
    }
    const uint8_t *data = p->data;
    uint64_t size = p->size;
    /* The first header word decides the byte order, as in the reader. */
    uint64_t first = size >= 8 ? fxt_load64(data) : 0;
    int sw = first == FXT_MAGIC_RECORD ? 0 : first == FXT_MAGIC_RECORD_SWAPPED ? 1 : fxt_host_is_big_endian();
    uint64_t off = 0, begin = 0, cut = range_bytes;
    fxt_reader_t *seed = NULL;
    int rc = 0;
    fxt_record_t rec;
    /* The hot loop of a parallel read: it visits every record, so it only hops. */
    while (size - off >= 8) {
        uint64_t h = fxt_load64_swapped(data + off, sw);
        unsigned type = (unsigned)fxt_get_rec_type(h);
        uint64_t words = type == FXT_RECORD_LARGE ? fxt_get_large_size(h) : fxt_get_rec_size(h);
        if (words == 0 || words > (size - off) / 8u) {
            break;
        }
        if (off >= cut) {
            if (p->published + 1 >= p->cap) {
                break; /* no room for another range: the last one takes the rest */
            }
            fxt_reader_t *next = reader_take(p);
            if (next == NULL || fxt_reader_seed(next, sr, off) != FXT_OK) {
                fxt_reader_destroy(next);
                rc = CLI_EXIT_LIMIT;
                break;
            }
            publish(p, begin, off, seed, 0);
            seed = next;
            begin = off;
            cut = off + range_bytes;
        }
        /* The first record too: it fixes the seeding reader's byte order like the range readers'. */
        if (((feed >> type) & 1u) || off == 0) {
            fxt_in_buffer_t in = {data + off, (size_t)(words * 8u), 0};
            /* Damaged records change nothing here; the range's reader reports them. */
            if (fxt_reader_next(sr, &in, &rec) == FXT_E_NOMEM) {
                rc = CLI_EXIT_LIMIT;
                break;
            }
        }
        off += words * 8u;
    }
    if (rc == 0) {
        publish(p, begin, p->size, seed, 1);
    } else {
        fxt_reader_destroy(seed);
    }
    fxt_reader_destroy(sr);
    pthread_mutex_lock(&p->mu);
    p->scan_done = 1;
    if (rc != 0 && !p->failed) {
        p->failed = rc;
    }
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    return rc;
}

/* Sequential chunked read (stdin, compressed input): one range. */
static int read_stream(const char *cmd, const char *path, const fxt_reader_options_t *opt,
                       const cli_par_ops_t *ops, void *ctx, uint64_t *bytes_read) {
    void *st = ops->range_new(ctx, 0);
    if (st == NULL) {
        fprintf(stderr, "fxt %s: out of memory\n", cmd);
        return CLI_EXIT_LIMIT;
    }
    int rc = cli_read_trace(cmd, path, opt, ops->on_record, ops->on_error, st, bytes_read);
    if (rc != 0) {
        ops->range_free(ctx, st);
        return rc;
    }
    return ops->range_merge(ctx, st);
}

/*
 * A mapped file that shrinks while it is read (another process truncates it)
 * would end the process with SIGBUS at the first page past the new end. The
 * handler instead maps zero pages over the rest of the mapping and notes where
 * the file ended: the reader then meets a zero header word there (a size-0
 * record, fatal: it stops with an error at that offset) and the command says the
 * file shrank. One mapping is guarded at a time; a SIGBUS elsewhere gets the
 * default action. mmap is not on POSIX's async-signal-safe list, but on Linux
 * and the BSDs it is a plain system call.
 */
static _Atomic(uintptr_t) guard_base, guard_end;
static _Atomic uint64_t guard_cut = UINT64_MAX; /* offset of the first page found missing */
static struct sigaction guard_old;

static void on_sigbus(int sig, siginfo_t *si, void *uctx) {
    (void)uctx;
    uintptr_t a = (uintptr_t)si->si_addr, base = atomic_load(&guard_base), end = atomic_load(&guard_end);
    if (base == 0 || a < base || a >= end) {
        /* not ours: the default action, on the retried access */
        signal(sig, SIG_DFL);
        return;
    }
    uintptr_t page = a & ~(uintptr_t)(sysconf(_SC_PAGESIZE) - 1);
    if (mmap((void *)page, end - page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
        MAP_FAILED) {
        signal(sig, SIG_DFL);
        return;
    }
    uint64_t cut = (uint64_t)(page - base), prev = atomic_load(&guard_cut);
    while (cut < prev && !atomic_compare_exchange_weak(&guard_cut, &prev, cut)) {
    }
}

/* Guards [data, data + size) (when no other mapping is guarded); 1 when it is. */
static int guard_map(const uint8_t *data, uint64_t size) {
    uintptr_t none = 0;
    if (!atomic_compare_exchange_strong(&guard_base, &none, (uintptr_t)data)) {
        return 0;
    }
    atomic_store(&guard_end, (uintptr_t)data + (uintptr_t)size);
    atomic_store(&guard_cut, UINT64_MAX);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGBUS, &sa, &guard_old) != 0) {
        atomic_store(&guard_base, 0);
        return 0;
    }
    return 1;
}

/* Ends the guard; the offset where the file was found cut, or UINT64_MAX. */
static uint64_t guard_unmap(int guarded) {
    if (!guarded) {
        return UINT64_MAX;
    }
    sigaction(SIGBUS, &guard_old, NULL);
    atomic_store(&guard_base, 0);
    return atomic_load(&guard_cut);
}

/* A mapped input: the open file (to see its size again at the end) and the guard. */
typedef struct mapped {
    const uint8_t *data;
    uint64_t size;
    int fd, guarded;
} mapped_t;

static void unmap_file(mapped_t *m) {
    munmap((void *)(uintptr_t)m->data, (size_t)m->size);
    close(m->fd);
    m->data = NULL;
}

/* Maps a regular, uncompressed file; m->data NULL when it cannot be mapped (read it as a stream). */
static void map_file(const char *path, mapped_t *mf) {
    memset(mf, 0, sizeof *mf);
    mf->fd = -1;
    if (path == NULL || strcmp(path, "-") == 0) {
        return;
    }
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        return; /* the stream path reports the error */
    }
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size < 8 || (uint64_t)sb.st_size > SIZE_MAX) {
        close(fd);
        return;
    }
    void *m = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m == MAP_FAILED) {
        close(fd);
        return;
    }
    mf->data = m;
    mf->size = (uint64_t)sb.st_size;
    mf->fd = fd;
    mf->guarded = guard_map(mf->data, mf->size);
    const uint8_t *b = m;
    /* gzip (1f 8b) and zstd (28 b5 2f fd): decompressed by the stream path. */
    if ((b[0] == 0x1f && b[1] == 0x8b) || (b[0] == 0x28 && b[1] == 0xb5 && b[2] == 0x2f && b[3] == 0xfd)) {
        guard_unmap(mf->guarded);
        unmap_file(mf);
    }
}

static int read_mapped(const char *cmd, const uint8_t *data, uint64_t size, const fxt_reader_options_t *opt,
                       unsigned jobs, uint64_t min_range, uint64_t max_range, const cli_par_ops_t *ops,
                       void *ctx);

int cli_read_parallel(const char *cmd, const char *path, const fxt_reader_options_t *opt, unsigned jobs,
                      uint64_t min_range, const cli_par_ops_t *ops, void *ctx, uint64_t *bytes_read) {
    return cli_read_parallel_max(cmd, path, opt, jobs, min_range, 0, ops, ctx, bytes_read);
}

int cli_read_parallel_max(const char *cmd, const char *path, const fxt_reader_options_t *opt, unsigned jobs,
                          uint64_t min_range, uint64_t max_range, const cli_par_ops_t *ops, void *ctx,
                          uint64_t *bytes_read) {
    mapped_t m;
    map_file(path, &m);
    if (m.data == NULL) {
        return read_stream(cmd, path, opt, ops, ctx, bytes_read);
    }
    if (bytes_read) {
        *bytes_read = m.size;
    }
    int rc = read_mapped(cmd, m.data, m.size, opt, jobs, min_range, max_range, ops, ctx);
    uint64_t cut = guard_unmap(m.guarded);
    struct stat sb;
    long long now = fstat(m.fd, &sb) == 0 ? (long long)sb.st_size : -1;
    /* The guard sees a missing page only if one was touched; a reader that stopped at the zeros
     * of the new last page did not touch one: the size says it too. */
    if (cut != UINT64_MAX || (now >= 0 && (uint64_t)now < m.size)) {
        /* What was read is reported; the rest of the file is gone: a read error, not damage. */
        fprintf(stderr,
                "fxt %s: %s shrank while it was read (%" PRIu64 " bytes when opened, %lld now): "
                "records past the new end are missing\n",
                cmd, path, m.size, now);
        rc = CLI_EXIT_IO;
    }
    unmap_file(&m);
    return rc;
}

/* cli_read_parallel_max on a mapped file. */
static int read_mapped(const char *cmd, const uint8_t *data, uint64_t size, const fxt_reader_options_t *opt,
                       unsigned jobs, uint64_t min_range, uint64_t max_range, const cli_par_ops_t *ops,
                       void *ctx) {
    const char *env = getenv("FXT_RANGE_BYTES");
    if (env != NULL && *env) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(env, &end, 10);
        if (errno || *end || v < 8) {
            fprintf(stderr, "fxt %s: FXT_RANGE_BYTES must be a byte count >= 8, got '%s'\n", cmd, env);
            return CLI_EXIT_USAGE;
        }
        min_range = v;
    } else if (min_range == 0) {
        min_range = DEFAULT_MIN_RANGE;
    }
    uint64_t range_bytes = size / ((uint64_t)jobs * RANGES_PER_JOB);
    range_bytes = max_range && range_bytes > max_range ? max_range : range_bytes;
    range_bytes = range_bytes < min_range ? min_range : range_bytes;
    par_t p;
    memset(&p, 0, sizeof p);
    p.cmd = cmd;
    p.ops = ops;
    p.ctx = ctx;
    p.opt = opt;
    p.data = data;
    p.size = size;
    p.max_inflight = jobs + 2u;
    /* Cuts are at least range_bytes apart: this many ranges at most (the pre-scan also checks). */
    p.cap = jobs <= 1 ? 1 : (size_t)(size / range_bytes) + 2;
    p.ranges = calloc(p.cap, sizeof *p.ranges);
    if (p.ranges == NULL) {
        fprintf(stderr, "fxt %s: out of memory\n", cmd);
        return CLI_EXIT_LIMIT;
    }
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.cv, NULL);
    pthread_mutex_init(&p.merge_mu, NULL);
    if (jobs <= 1 || size <= range_bytes) {
        /* One range, no pre-scan, no thread. */
        p.ranges[0].begin = 0;
        p.ranges[0].end = size;
        p.ranges[0].last = 1;
        p.published = 1;
        p.scan_done = 1;
        work_one(&p);
    } else {
#ifdef __GLIBC__
        /* Ranges allocate and free similar state one after another: glibc would hand the freed
         * memory back to the kernel (trim, munmap of large blocks) and the next range would fault
         * it in again, page by page, which costs more than the decoding saves on some VMs. Kept,
         * it is reused; the peak stays what the ranges in flight need. */
        mallopt(M_TRIM_THRESHOLD, 512 << 20);
        mallopt(M_MMAP_THRESHOLD, 32 << 20);
#endif
        pthread_t *tids = calloc(jobs - 1, sizeof *tids);
        unsigned started = 0;
        for (unsigned i = 0; tids != NULL && i + 1 < jobs; i++) {
            if (pthread_create(&tids[i], NULL, worker, &p) != 0) {
                break; /* fewer threads: still correct, the main thread works too */
            }
            started++;
        }
        prescan(&p, range_bytes);
        worker(&p);
        for (unsigned i = 0; i < started; i++) {
            pthread_join(tids[i], NULL);
        }
        free(tids);
        merge_ready(&p);
    }
    int rc = p.failed;
    for (size_t k = 0; k < p.npool; k++) {
        fxt_reader_destroy(p.pool[k]);
    }
    for (size_t k = 0; k < p.published; k++) {
        fxt_reader_destroy(p.ranges[k].seed);
        if (p.ranges[k].state != NULL) {
            ops->range_free(ctx, p.ranges[k].state);
        }
    }
    if (rc == CLI_EXIT_LIMIT) {
        fprintf(stderr, "fxt %s: out of memory\n", cmd);
    }
    free(p.ranges);
    pthread_mutex_destroy(&p.mu);
    pthread_cond_destroy(&p.cv);
    pthread_mutex_destroy(&p.merge_mu);
    return rc;
}
