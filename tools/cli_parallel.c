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
/* Offsets of state records per block (512 KiB): blocks never move once written. */
#define SBLOCK 65536u

unsigned cli_par_default_jobs(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : n > 256 ? 256u : (unsigned)n;
}

typedef struct prange {
    uint64_t begin, end;
    size_t s_before; /* state records before `begin` (their offsets: par_t.soff) */
    void *state;
    int taken, done, last;
} prange_t;

/*
 * One decoding thread. Its reader is reused from range to range: after range k
 * its state is the trace's state at the end of k; before decoding a later range
 * k' it replays the records that change decoding state (strings, threads,
 * providers, tick rates, objects) lying between them, which the pre-scan listed.
 * So no reader is copied, and there are as many readers as threads.
 */
typedef struct wctx {
    fxt_reader_t *r;
    size_t last; /* range decoded last, or SIZE_MAX */
} wctx_t;

typedef struct par {
    const char *cmd;
    const cli_par_ops_t *ops;
    void *ctx;
    const fxt_reader_options_t *opt;
    const uint8_t *data;
    uint64_t size;
    int sw; /* the input's byte order is swapped */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_mutex_t merge_mu; /* held by the one thread merging */
    prange_t *ranges;
    size_t cap, published, next_take, next_merge, max_inflight;
    int scan_done, failed; /* failed: an exit code or CLI_PAR_RERUN; later ranges are not decoded */
    /* Offsets of the state records, in blocks of SBLOCK: appended by the pre-scan, read by the
     * workers for entries published before (under mu). */
    uint64_t **soff;
    size_t nblocks, nsoff;
    wctx_t main_w; /* the main thread's, when it decodes ranges from publish() */
} par_t;

static uint64_t soff_at(const par_t *p, size_t i) { return p->soff[i / SBLOCK][i % SBLOCK]; }

/* Brings w's reader to the state at range g's start: replays state records [from, g->s_before). */
static int catch_up(par_t *p, wctx_t *w, const prange_t *g, size_t from) {
    fxt_record_t rec;
    for (size_t i = from; i < g->s_before; i++) {
        uint64_t off = soff_at(p, i);
        uint64_t h = fxt_load64_swapped(p->data + off, p->sw);
        uint64_t words =
            fxt_get_rec_type(h) == FXT_RECORD_LARGE ? fxt_get_large_size(h) : fxt_get_rec_size(h);
        fxt_in_buffer_t in = {p->data + off, (size_t)(words * 8u), 0};
        /* Damaged records change nothing; the range holding them reports them. */
        if (fxt_reader_next(w->r, &in, &rec) == FXT_E_NOMEM) {
            return CLI_EXIT_LIMIT;
        }
    }
    return fxt_reader_rebase(w->r, g->begin) == FXT_OK ? 0 : CLI_EXIT_LIMIT;
}

/* Decodes range k on thread w; the callbacks get the command's range state. */
static int decode_range(par_t *p, wctx_t *w, prange_t *g, size_t k, size_t from) {
    if (w->r == NULL && fxt_reader_create(p->opt, &w->r) != FXT_OK) {
        return CLI_EXIT_LIMIT;
    }
    fxt_reader_t *r = w->r;
    if (catch_up(p, w, g, from) != 0) {
        return CLI_EXIT_LIMIT;
    }
    w->last = k;
    g->state = p->ops->range_new(p->ctx, k);
    if (g->state == NULL) {
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
static int work_one(par_t *p, wctx_t *w) {
    pthread_mutex_lock(&p->mu);
    if (p->failed || p->next_take >= p->published) {
        pthread_mutex_unlock(&p->mu);
        return 0;
    }
    size_t k = p->next_take++;
    prange_t *g = &p->ranges[k];
    g->taken = 1;
    /* Ranges are taken in order, so the one after w's last is published: its state records
     * start where w's reader stands. */
    size_t from = w->last == SIZE_MAX ? 0 : p->ranges[w->last + 1].s_before;
    pthread_mutex_unlock(&p->mu);
    int rc = decode_range(p, w, g, k, from);
    pthread_mutex_lock(&p->mu);
    g->done = 1;
    if (rc != 0 && !p->failed) {
        p->failed = rc;
    }
    pthread_mutex_unlock(&p->mu);
    merge_ready(p);
    return 1;
}

/* Decodes ranges until the pre-scan is done and none is left. */
static void work_all(par_t *p, wctx_t *w) {
    for (;;) {
        if (work_one(p, w)) {
            continue;
        }
        pthread_mutex_lock(&p->mu);
        while (!p->failed && p->next_take >= p->published && !p->scan_done) {
            pthread_cond_wait(&p->cv, &p->mu);
        }
        int more = !p->failed && p->next_take < p->published;
        pthread_mutex_unlock(&p->mu);
        if (!more) {
            return;
        }
    }
}

static void *worker(void *arg) {
    wctx_t w = {NULL, SIZE_MAX};
    work_all(arg, &w);
    fxt_reader_destroy(w.r);
    return NULL;
}

/* Makes range [begin, end) available; the main thread decodes ranges itself while too many are in flight. */
static void publish(par_t *p, uint64_t begin, uint64_t end, size_t s_before, int last) {
    pthread_mutex_lock(&p->mu);
    prange_t *g = &p->ranges[p->published];
    g->begin = begin;
    g->end = end;
    g->s_before = s_before;
    g->last = last;
    p->published++;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    for (;;) {
        pthread_mutex_lock(&p->mu);
        int full = !p->failed && p->published - p->next_merge >= p->max_inflight;
        pthread_mutex_unlock(&p->mu);
        if (!full || !work_one(p, &p->main_w)) {
            break;
        }
    }
    /* Still full with nothing to take: wait for merges rather than publish more. */
    pthread_mutex_lock(&p->mu);
    while (!p->failed && p->published - p->next_merge >= p->max_inflight) {
        pthread_cond_wait(&p->cv, &p->mu);
    }
    pthread_mutex_unlock(&p->mu);
}

/* Notes a state record's offset; -1 when out of memory. Only the pre-scan appends. */
static int soff_push(par_t *p, uint64_t off) {
    size_t b = p->nsoff / SBLOCK;
    if (b >= p->nblocks) {
        return -1; /* cannot happen: sized for one record per 8 bytes */
    }
    if (p->soff[b] == NULL && (p->soff[b] = malloc(SBLOCK * sizeof **p->soff)) == NULL) {
        return -1;
    }
    p->soff[b][p->nsoff % SBLOCK] = off;
    p->nsoff++;
    return 0;
}

/*
 * The pre-scan: hops from header to header (sizes only), cuts ranges at record
 * starts and lists the records that change decoding state (metadata,
 * initialization, string, thread; objects when the command keeps object
 * tables), which the workers replay (catch_up). It stops where the reader
 * would: a size-0 record or one running past the end.
 */
static int prescan(par_t *p, uint64_t range_bytes) {
    /* The record types that change decoding state, as a bit set: the hop tests one bit. */
    uint32_t feed = (1u << FXT_RECORD_METADATA) | (1u << FXT_RECORD_INITIALIZATION) |
                    (1u << FXT_RECORD_STRING) | (1u << FXT_RECORD_THREAD);
    if (!(p->opt && (p->opt->flags & FXT_READ_NO_OBJECT_TABLES))) {
        feed |= (1u << FXT_RECORD_KERNEL_OBJECT) | (1u << FXT_RECORD_USERSPACE_OBJECT);
    }
    const uint8_t *data = p->data;
    uint64_t size = p->size;
    int sw = p->sw;
    uint64_t off = 0, begin = 0, cut = range_bytes;
    size_t s_begin = 0; /* state records before `begin` */
    int rc = 0;
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
            publish(p, begin, off, s_begin, 0);
            s_begin = p->nsoff;
            begin = off;
            cut = off + range_bytes;
        }
        /* The first record too: it fixes a new reader's byte order. */
        if ((((feed >> type) & 1u) || off == 0) && soff_push(p, off) != 0) {
            rc = CLI_EXIT_LIMIT;
            break;
        }
        off += words * 8u;
    }
    if (rc == 0) {
        publish(p, begin, p->size, s_begin, 1);
    }
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
        /* A command bounding its ranges (its per-range state grows with them) gets its bound. */
        min_range = max_range && max_range < DEFAULT_MIN_RANGE ? max_range : DEFAULT_MIN_RANGE;
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
    p.main_w.last = SIZE_MAX;
    /* The first header word decides the byte order, as in the reader. */
    uint64_t first = fxt_load64(data);
    p.sw = first == FXT_MAGIC_RECORD ? 0 : first == FXT_MAGIC_RECORD_SWAPPED ? 1 : fxt_host_is_big_endian();
    /* Room for one state record per 8 bytes; blocks are allocated as they fill. */
    p.nblocks = (size_t)(size / 8u / SBLOCK) + 1;
    /* Cuts are at least range_bytes apart: this many ranges at most (the pre-scan also checks). */
    p.cap = jobs <= 1 ? 1 : (size_t)(size / range_bytes) + 2;
    p.ranges = calloc(p.cap, sizeof *p.ranges);
    p.soff = calloc(p.nblocks, sizeof *p.soff);
    if (p.ranges == NULL || p.soff == NULL) {
        free(p.ranges);
        free(p.soff);
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
        work_one(&p, &p.main_w);
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
        work_all(&p, &p.main_w);
        for (unsigned i = 0; i < started; i++) {
            pthread_join(tids[i], NULL);
        }
        free(tids);
        merge_ready(&p);
    }
    int rc = p.failed;
    fxt_reader_destroy(p.main_w.r);
    for (size_t b = 0; b < p.nblocks; b++) {
        free(p.soff[b]);
    }
    free(p.soff);
    for (size_t k = 0; k < p.published; k++) {
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
