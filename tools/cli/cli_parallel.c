/* SPDX-License-Identifier: MIT */
/* Parallel decoding of a trace file by ranges (see cli_parallel.h). */
#define _GNU_SOURCE 1 /* MADV_POPULATE_READ, MAP_ANONYMOUS */
#include "cli_parallel.h"

#include <fxt/format.h>
#include <fxt/reader.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define DEFAULT_MIN_RANGE (UINT64_C(4) << 20)
/* Ranges per job: small enough that a slow range or the pre-scan does not leave a core idle. */
#define RANGES_PER_JOB 8
/* A range is read in chunks of this size into its thread's buffer (reused, so its pages stay
 * mapped: on VMs a freshly touched page costs more than copying it from the page cache). */
#define CHUNK (UINT64_C(256) << 10)
/* The pre-scan's window on the file where it is not mapped: read into a buffer. */
#define WINDOW (UINT64_C(256) << 10)
/* A mapped file's pages are mapped ahead of the reads this many bytes at a time (one call, not a
 * fault per 64 KiB), handed to a range's reader this many at a time, and unmapped behind a range's
 * reads (they stay in the page cache) this many at a time. */
#define POPULATE_STEP (UINT64_C(16) << 20)
#define MAP_STEP (UINT64_C(1) << 20)
#define DROP_STEP (UINT64_C(16) << 20)
/* Ranges of a mapped file are at most this long, so that the mapped part stays bounded. */
#define MAX_MAPPED_RANGE (UINT64_C(32) << 20)
/* The state log is kept in blocks of this size; a state record (at most 4095 words) fits. */
#define LOGBLK (UINT64_C(1) << 20)
/* read_ranges' internal answer: the file ended before the size it had when opened. */
#define CLI_PAR_SHRANK (-2)

unsigned cli_par_default_jobs(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : n > 256 ? 256u : (unsigned)n;
}

/* Reads up to n bytes at off, through interruptions and short reads; the count read (short
 * only at the end of the file), or -1 with errno. */
static int64_t pread_full(int fd, uint8_t *buf, uint64_t n, uint64_t off) {
    uint64_t got = 0;
    while (got < n) {
        ssize_t r = pread(fd, buf + got, (size_t)(n - got), (off_t)(off + got));
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r < 0) {
            return -1;
        }
        if (r == 0) {
            break;
        }
        got += (uint64_t)r;
    }
    return (int64_t)got;
}

typedef struct prange {
    uint64_t begin, end;
    uint64_t log_before; /* position in the state log of the state records before `begin` */
    void *state;
    int done, last;
} prange_t;

/*
 * One decoding thread. Its reader is reused from range to range: after range k
 * its state is the trace's state at the end of k; before decoding a later range
 * k' it replays the records that change decoding state (strings, threads,
 * providers, tick rates, objects) lying between them, which the pre-scan copied
 * into the state log. So no reader is copied, and there are as many readers as
 * threads.
 */
typedef struct wctx {
    fxt_reader_t *r;
    size_t last;  /* range decoded last, or SIZE_MAX */
    uint8_t *buf; /* CHUNK bytes */
} wctx_t;

typedef struct par {
    const char *cmd;
    const cli_par_ops_t *ops;
    void *ctx;
    const fxt_reader_options_t *opt;
    int fd;
    uint64_t size;
    int sw; /* the input's byte order is swapped */
    unsigned jobs;
    uint64_t range_lo, range_hi; /* range sizes (range_end) */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_mutex_t merge_mu; /* held by the one thread merging */
    prange_t *ranges;
    size_t cap, published, next_take, next_merge, max_inflight;
    int scan_done, failed; /* failed: an exit code or CLI_PAR_RERUN; later ranges are not decoded */
    int short_read;        /* the file ended before its size at open: it shrank */
    /* The state log: the state-changing records, back to back in blocks of LOGBLK that never
     * move (position = block x LOGBLK + byte), with each block's used length; the block arrays
     * are sized for the whole file up front. Appended by the pre-scan; workers read what was
     * published before (under mu). */
    uint8_t **log;
    uint64_t *log_used;
    size_t log_nblocks;
    uint64_t log_pos;
    wctx_t main_w;      /* the main thread's, when it decodes ranges from publish() */
    const uint8_t *map; /* the whole file mapped, or NULL (read with pread) */
    uint64_t populated; /* the map's pages up to here were asked for (populate_to) */
    uint64_t dropped;   /* and up to here unmapped again behind the merged ranges (merge_ready) */
    uint64_t page;
} par_t;

/* Test hook (cli_parallel.h): read with pread even where the file can be mapped. */
int cli_par_no_map;

/* Maps the file's pages up to `off` ahead of whoever reads them: the pre-scan, or with one range its
 * reader. Where the kernel cannot do it (no MADV_POPULATE_READ: before Linux 5.14, other systems)
 * the pages fault in as they are read. */
static void populate_to(par_t *p, uint64_t off) {
#ifdef MADV_POPULATE_READ
    uint64_t have = __atomic_load_n(&p->populated, __ATOMIC_RELAXED), to = off < p->size ? off : p->size;
    while (have < to) {
        if (__atomic_compare_exchange_n(&p->populated, &have, to, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
            /* Fails on pages past the end of a file that shrank (EFAULT, no signal): read, they fault. */
            madvise((void *)(uintptr_t)(p->map + have / p->page * p->page),
                    (size_t)(to - have / p->page * p->page), MADV_POPULATE_READ);
            break;
        }
    }
#else
    (void)p;
    (void)off;
#endif
}

/* Unmaps the pages wholly inside [from, to) of the mapped file: they stay in the page cache, and
 * read again they are mapped again. Keeps the mapped part of a large file to what is being read. */
static void drop_pages(const par_t *p, uint64_t from, uint64_t to) {
#ifdef MADV_DONTNEED
    uint64_t a = (from + p->page - 1) / p->page * p->page, b = to / p->page * p->page;
    if (b > a) {
        madvise((void *)(uintptr_t)(p->map + a), (size_t)(b - a), MADV_DONTNEED);
    }
#else
    (void)p;
    (void)from;
    (void)to;
#endif
}

/* The file's size now (it may have shrunk since it was opened); its size at open if fstat fails. */
static uint64_t size_now(const par_t *p) {
    struct stat sb;
    return fstat(p->fd, &sb) == 0 && (uint64_t)sb.st_size < p->size ? (uint64_t)sb.st_size : p->size;
}

/* Feeds state records [from, to) of the log to w's reader, then sets its offset to range g's start. */
static int catch_up(par_t *p, wctx_t *w, const prange_t *g, uint64_t from) {
    fxt_record_t rec;
    /* The block holding log_before may still be appended to by the pre-scan: its used length
     * is not read, log_before ends it. Earlier blocks are complete. */
    size_t last = (size_t)(g->log_before / LOGBLK);
    for (uint64_t pos = from; pos < g->log_before;) {
        size_t b = (size_t)(pos / LOGBLK);
        uint64_t in_blk = pos % LOGBLK,
                 end = b < last ? (uint64_t)b * LOGBLK + p->log_used[b] : g->log_before;
        fxt_in_buffer_t in = {p->log[b] + in_blk, (size_t)(end - pos), 0};
        for (;;) {
            fxt_status st = fxt_reader_next(w->r, &in, &rec);
            /* Damaged records change nothing; the range holding them reports them. */
            if (st == FXT_E_NOMEM) {
                return CLI_EXIT_LIMIT;
            }
            if (st == FXT_NEED_INPUT || st == FXT_END) {
                break;
            }
        }
        pos = (uint64_t)(b + 1) * LOGBLK;
    }
    return fxt_reader_rebase(w->r, g->begin) == FXT_OK ? 0 : CLI_EXIT_LIMIT;
}

/* Decodes range k on thread w, read in chunks; the callbacks get the command's range state. */
static int decode_range(par_t *p, wctx_t *w, prange_t *g, size_t k, uint64_t from) {
    if (w->r == NULL && fxt_reader_create(p->opt, &w->r) != FXT_OK) {
        return CLI_EXIT_LIMIT;
    }
    if (p->map == NULL && w->buf == NULL && (w->buf = malloc(CHUNK)) == NULL) {
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
    fxt_record_t rec;
    int rc = 0, ended = 0, cut = 0, shrank = 0;
    uint64_t step = p->map != NULL ? MAP_STEP : CHUNK, dropped = g->begin;
    for (uint64_t pos = g->begin; pos < g->end && !ended && rc == 0;) {
        uint64_t want = g->end - pos < step ? g->end - pos : step;
        const uint8_t *src = w->buf;
        int64_t got = (int64_t)want;
        if (p->map != NULL) {
            /* A file cut short ends at its new end, as with pread: a record it cuts is damaged, not
             * read with zeros for its missing bytes (only a cut during this step's decoding can do
             * that; the file_shrank test below then stops the range). */
            uint64_t now = size_now(p);
            if (now < pos + want) {
                want = now > pos ? now - pos : 0;
                cut = 1;
            }
            if (__atomic_load_n(&p->populated, __ATOMIC_RELAXED) < pos + want) {
                populate_to(p, pos + POPULATE_STEP); /* done already when a pre-scan went ahead */
            }
            src = p->map + pos;
            got = (int64_t)want;
        } else {
            got = pread_full(p->fd, w->buf, want, pos);
            if (got < 0) {
                fprintf(stderr, "fxt %s: read error at byte %" PRIu64 ": %s\n", p->cmd, pos, strerror(errno));
                return CLI_EXIT_IO;
            }
            if ((uint64_t)got < want) {
                cut = 1; /* the file shrank since it was opened: it ends here */
            }
        }
        fxt_in_buffer_t in = {src, (size_t)got, 0};
        for (;;) {
            fxt_status st = fxt_reader_next(r, &in, &rec);
            if (st == FXT_OK) {
                int stop = p->ops->on_record(g->state, r, &rec);
                if (stop != 0) {
                    rc = stop; /* e.g. the output failed: the read ends (work_one) */
                    break;
                }
            } else if (st == FXT_NEED_INPUT) {
                break;
            } else if (st == FXT_END) {
                ended = 1;
                break;
            } else {
                /* Mapped, a file cut short reads as zeros past its new end (on_sigbus): a record of
                 * size 0 there is the end, not damage. */
                if (p->map != NULL && size_now(p) < p->size) {
                    shrank = 1;
                    break;
                }
                p->ops->on_error(g->state, r, fxt_reader_diag(r));
                if (st == FXT_E_NOMEM) {
                    rc = CLI_EXIT_LIMIT;
                    break;
                }
            }
        }
        pos += (uint64_t)got;
        if (shrank || cut) {
            __atomic_store_n(&p->short_read, 1, __ATOMIC_RELAXED);
            break;
        }
        if (p->map != NULL && pos - dropped >= DROP_STEP) {
            drop_pages(p, dropped, pos); /* a long range (one thread: the whole file) */
            dropped = pos;
        }
    }
    /* Only the last range (or a file cut short) can end inside a record: the pre-scan cuts at
     * record starts. */
    if (rc == 0 && !ended && !shrank && (g->last || cut) && fxt_reader_finish(r) != FXT_OK) {
        p->ops->on_error(g->state, r, fxt_reader_diag(r));
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
        if (p->map != NULL && g->end - p->dropped >= DROP_STEP) {
            drop_pages(p, p->dropped, g->end); /* every range before is merged: read */
            p->dropped = g->end;
        }
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
    /* Ranges are taken in order, so the one after w's last is published: its state records
     * start where w's reader stands. */
    uint64_t from = w->last == SIZE_MAX ? 0 : p->ranges[w->last + 1].log_before;
    pthread_mutex_unlock(&p->mu);
    int rc = decode_range(p, w, g, k, from);
    pthread_mutex_lock(&p->mu);
    g->done = 1;
    if (rc != 0 && !p->failed) {
        p->failed = rc;
        /* merge_ready merges nothing more now, so it wakes no one: a pre-scan waiting in publish()
         * for room must learn it here (it would wait for ever). */
        pthread_cond_broadcast(&p->cv);
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

static void wctx_free(wctx_t *w) {
    fxt_reader_destroy(w->r);
    free(w->buf);
}

static void *worker(void *arg) {
    wctx_t w = {NULL, SIZE_MAX, NULL};
#ifdef __GLIBC__
    /* glibc gives a thread its own heap and grows it by the page as ranges allocate (about 480
     * mprotect calls on 209.7 MB, each taking the process's memory map lock that the pre-scan's
     * populating madvise and the other thread's page faults need). Grown once here, and kept (the
     * trim threshold set in read_ranges), it serves the ranges' state with none. volatile: a
     * malloc and free of an unused block would be elided. */
    void *volatile grow = malloc(8u << 20);
    free(grow);
#endif
    work_all(arg, &w);
    wctx_free(&w);
    return NULL;
}

/* Makes range [begin, end) available; the main thread decodes ranges itself while too many are in flight. */
static void publish(par_t *p, uint64_t begin, uint64_t end, uint64_t log_before, int last) {
    pthread_mutex_lock(&p->mu);
    prange_t *g = &p->ranges[p->published];
    g->begin = begin;
    g->end = end;
    g->log_before = log_before;
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

/* Appends a state record to the log; -1 when out of memory. Only the pre-scan appends. */
static int log_append(par_t *p, const uint8_t *rec, uint64_t n) {
    size_t b = (size_t)(p->log_pos / LOGBLK);
    if (p->log_pos % LOGBLK + n > LOGBLK) {
        b++; /* records do not straddle blocks: the rest of this one stays unused */
        p->log_pos = (uint64_t)b * LOGBLK;
    }
    if (b >= p->log_nblocks) {
        return -1; /* cannot happen: sized for the whole file (read_ranges) */
    }
    if (p->log[b] == NULL && (p->log[b] = malloc(LOGBLK)) == NULL) {
        return -1;
    }
    memcpy(p->log[b] + p->log_pos % LOGBLK, rec, n);
    p->log_pos += n;
    p->log_used[b] = p->log_pos % LOGBLK ? p->log_pos % LOGBLK : LOGBLK;
    return 0;
}

/* Where the range starting at `off` is cut (at the first record start from there): ranges shrink
 * toward the end of the file, so that the threads finish together, and the first is short, so
 * that they start soon. */
static uint64_t range_end(const par_t *p, uint64_t off) {
    uint64_t r = off == 0 ? p->range_lo : (p->size - off) / (2u * p->jobs);
    r = r < p->range_lo ? p->range_lo : r > p->range_hi ? p->range_hi : r;
    return off + r;
}

/* The pre-scan's hot loop: hops from off over records that need nothing (not a state record, not
 * large, a size of 0 or past the end) while their header lies before `stop` (a cut, or the
 * window's end: the window holds [wbeg, ...)); returns where it stopped. Each hop waits for the
 * previous record's size, so that is only the normal records' size field (a shift and a mask),
 * the type tests beside it: large records (another size field) stop the loop like state records
 * (`stops`), for the caller. Inlined once per byte order. */
CLI_INLINE uint64_t hop(const uint8_t *win, uint64_t wbeg, uint64_t off, uint64_t stop, uint64_t size,
                        uint32_t stops, int sw) {
    uint64_t i = off - wbeg, end = stop - wbeg, left = size - off;
    while (i < end) {
        uint64_t h = fxt_load64_swapped(win + i, sw);
        uint64_t n = fxt_get_rec_size(h) * 8u;
        if (((stops >> fxt_get_rec_type(h)) & 1u) || n - 1 >= left) { /* n - 1 wraps for n == 0 */
            break;
        }
        i += n;
        left -= n;
    }
    return wbeg + i;
}

/* The pre-scan's window on the file: [beg, lim) at data. On a mapped file, the map itself, with lim
 * the end of the pages populated so far; otherwise WINDOW bytes read into buf. */
typedef struct window {
    const uint8_t *data;
    uint64_t beg, lim;
    uint8_t *buf; /* WINDOW bytes, when reading */
} window_t;

/* Moves the window to start at or before off; bytes of the file it holds from off (0: the file
 * ended there), or -1 when out of memory. */
static int64_t window_fill(par_t *p, window_t *w, uint64_t off) {
    if (p->map != NULL) {
        /* Short windows at first (1, 1, 2, 4, 8 MiB), so that the first range is cut soon. */
        uint64_t step = off < (UINT64_C(1) << 20) ? UINT64_C(1) << 20
                        : off < POPULATE_STEP     ? off
                                                  : POPULATE_STEP;
        uint64_t lim = p->size - off < step ? p->size : off + step;
        populate_to(p, lim);
        w->data = p->map;
        w->beg = 0;
        w->lim = lim;
        return (int64_t)(lim - off);
    }
    if (w->buf == NULL && (w->buf = malloc(WINDOW)) == NULL) {
        return -1;
    }
    int64_t got = pread_full(p->fd, w->buf, WINDOW, off);
    w->data = w->buf;
    w->beg = off;
    w->lim = off + (uint64_t)(got < 0 ? 0 : got);
    return got < 0 ? 0 : got;
}

/* The mapped file, for on_sigbus: process-wide, as any thread reading it may fault. */
static const uint8_t *volatile bus_map;
static volatile size_t bus_len, bus_page;

/* A mapped file faults (SIGBUS) on pages past the end of a file that shrank after it was mapped:
 * those pages, from the faulting one to the map's end, are replaced with zeros and the access made
 * again, so a reader sees a record of size 0 there and stops (the pre-scan as at a damaged record;
 * a range, which then finds the file shorter, as at its end: decode_range). Any other SIGBUS takes
 * the default action, as without the handler. */
static void on_sigbus(int sig, siginfo_t *si, void *uc) {
    (void)uc;
    const uint8_t *a = si->si_addr, *m = bus_map;
    size_t len = bus_len;
    if (m != NULL && a >= m && a < m + len) {
        const uint8_t *from = m + ((size_t)(a - m) / bus_page * bus_page);
        if (mmap((void *)(uintptr_t)from, (size_t)(m + len - from), PROT_READ,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED) {
            return;
        }
    }
    signal(sig, SIG_DFL);
}

/*
 * The pre-scan: hops over the file's windows from header to header (sizes
 * only), cuts ranges at record starts and copies the records that change
 * decoding state (metadata, initialization, string, thread; objects when the
 * command keeps object tables) into the state log, which the workers replay
 * (catch_up). It stops where the reader would: a size-0 record or one running
 * past the end.
 */
static int prescan(par_t *p) {
    /* The record types that change decoding state, as the reader says, a bit set: the hop tests
     * one bit. Options the reader refuses fail the ranges' readers; logging every record meanwhile
     * is still correct. */
    uint32_t feed;
    if (fxt_reader_state_types(p->opt, &feed) != FXT_OK) {
        feed = UINT32_MAX;
    }
    uint32_t stops = feed | (1u << FXT_RECORD_LARGE);
    window_t win = {NULL, 0, 0, NULL};
    uint64_t size = p->size, off = 0, begin = 0, cut = range_end(p, 0), log_begin = 0;
    int sw = p->sw, rc = 0;
    /* The first record is logged whatever it is: it fixes a new reader's byte order. */
    int first = 1;
    /* Every record once: hop() passes most; this loop handles the rest. A header must lie before
     * the window's end (lim). */
    for (;;) {
        if (!first && off + 8 <= win.lim) {
            uint64_t stop = win.lim - 7 < cut ? win.lim - 7 : cut;
            off = sw ? hop(win.data, win.beg, off, stop, size, stops, 1)
                     : hop(win.data, win.beg, off, stop, size, stops, 0);
        }
        if (off + 8 > win.lim) {
            if (off + 8 > size) {
                break;
            }
            int64_t got = window_fill(p, &win, off);
            if (got < 0) {
                rc = CLI_EXIT_LIMIT;
                break;
            }
            if (got < 8) {
                break; /* the file shrank (or a read error): the ranges' reads will say */
            }
        }
        uint64_t h = fxt_load64_swapped(win.data + (off - win.beg), sw);
        unsigned type = (unsigned)fxt_get_rec_type(h);
        uint64_t n = (type == FXT_RECORD_LARGE ? fxt_get_large_size(h) : fxt_get_rec_size(h)) * 8u;
        if (n == 0 || n > size - off) {
            break;
        }
        if (off >= cut) {
            if (p->published + 1 >= p->cap) {
                break; /* no room for another range: the last one takes the rest */
            }
            publish(p, begin, off, log_begin, 0);
            log_begin = p->log_pos;
            begin = off;
            cut = range_end(p, off);
        }
        if (((feed >> type) & 1u) || first) {
            first = 0;
            if (off + n > win.lim) {
                int64_t got = window_fill(p, &win, off);
                if (got < 0) {
                    rc = CLI_EXIT_LIMIT;
                    break;
                }
                if ((uint64_t)got < n) {
                    break;
                }
            }
            /* A state record is a normal record (at most 4095 words); the first may be large. */
            if (n <= LOGBLK && log_append(p, win.data + (off - win.beg), n) != 0) {
                rc = CLI_EXIT_LIMIT;
                break;
            }
        }
        off += n;
    }
    free(win.buf);
    if (rc == 0) {
        publish(p, begin, p->size, log_begin, 1);
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

/* Opens a regular, uncompressed file of 8 bytes or more for ranged reading; -1 otherwise (it is
 * read as a stream, which also reports errors). */
static int open_plain(const char *path, uint64_t *size) {
    if (path == NULL || strcmp(path, "-") == 0) {
        return -1;
    }
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        return -1;
    }
    struct stat sb;
    uint8_t magic[4];
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size < 8 || pread_full(fd, magic, 4, 0) != 4 ||
        /* gzip (1f 8b) and zstd (28 b5 2f fd): decompressed by the stream path. */
        (magic[0] == 0x1f && magic[1] == 0x8b) ||
        (magic[0] == 0x28 && magic[1] == 0xb5 && magic[2] == 0x2f && magic[3] == 0xfd)) {
        close(fd);
        return -1;
    }
    *size = (uint64_t)sb.st_size;
    return fd;
}

static int read_ranges(const char *cmd, int fd, uint64_t size, const fxt_reader_options_t *opt, unsigned jobs,
                       uint64_t min_range, uint64_t max_range, const cli_par_ops_t *ops, void *ctx);

int cli_read_parallel(const char *cmd, const char *path, const fxt_reader_options_t *opt, unsigned jobs,
                      uint64_t min_range, const cli_par_ops_t *ops, void *ctx, uint64_t *bytes_read) {
    return cli_read_parallel_max(cmd, path, opt, jobs, min_range, 0, ops, ctx, bytes_read);
}

int cli_read_parallel_max(const char *cmd, const char *path, const fxt_reader_options_t *opt, unsigned jobs,
                          uint64_t min_range, uint64_t max_range, const cli_par_ops_t *ops, void *ctx,
                          uint64_t *bytes_read) {
    uint64_t size;
    int fd = open_plain(path, &size);
    if (fd < 0) {
        return read_stream(cmd, path, opt, ops, ctx, bytes_read);
    }
    if (bytes_read) {
        *bytes_read = size;
    }
    int rc = read_ranges(cmd, fd, size, opt, jobs, min_range, max_range, ops, ctx);
    struct stat sb;
    long long now = fstat(fd, &sb) == 0 ? (long long)sb.st_size : -1;
    if (rc == CLI_PAR_SHRANK || (now >= 0 && (uint64_t)now < size)) {
        /* What was read is reported; the rest of the file is gone: a read error, not damage. */
        fprintf(stderr,
                "fxt %s: %s shrank while it was read (%" PRIu64 " bytes when opened, %lld now): "
                "records past the new end are missing\n",
                cmd, path, size, now);
        rc = CLI_EXIT_IO;
    }
    close(fd);
    return rc;
}

/* The smallest range: FXT_RANGE_BYTES when set (a test hook), else the command's or the default
 * (no more than the command's bound on its ranges, whose state grows with them). 0 when the
 * variable is not a byte count >= 8 (said on stderr). */
static uint64_t min_range_bytes(const char *cmd, uint64_t min_range, uint64_t max_range) {
    const char *env = getenv("FXT_RANGE_BYTES");
    if (env != NULL && *env) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(env, &end, 10);
        if (errno || *end || v < 8) {
            fprintf(stderr, "fxt %s: FXT_RANGE_BYTES must be a byte count >= 8, got '%s'\n", cmd, env);
            return 0;
        }
        return v;
    }
    if (min_range == 0) {
        return max_range && max_range < DEFAULT_MIN_RANGE ? max_range : DEFAULT_MIN_RANGE;
    }
    return min_range;
}

/* Sets up P to read the file FD of SIZE bytes: mapped where it can be, ranges sized for JOBS
 * threads between MIN_RANGE and MAX_RANGE (0: no bound), the range and state-log arrays.
 * CLI_EXIT_LIMIT (P holds nothing) when out of memory. */
static int par_init(par_t *p, int fd, uint64_t size, unsigned jobs, uint64_t min_range, uint64_t max_range) {
    /* The file is read through one mapping of it (no copy of each byte; shared by the pre-scan and
     * the ranges), or with pread where it cannot be mapped (address space). */
    void *map = MAP_FAILED;
    if (!cli_par_no_map && size <= SIZE_MAX) {
        map = mmap(NULL, (size_t)size, PROT_READ, MAP_SHARED, fd, 0);
    }
    if (map != MAP_FAILED) {
        max_range = max_range && max_range < MAX_MAPPED_RANGE ? max_range : MAX_MAPPED_RANGE;
    }
    uint64_t range_bytes = size / ((uint64_t)jobs * RANGES_PER_JOB);
    range_bytes = max_range && range_bytes > max_range ? max_range : range_bytes;
    range_bytes = range_bytes < min_range ? min_range : range_bytes;
    p->fd = fd;
    p->size = size;
    p->max_inflight = jobs + 2u;
    p->jobs = jobs;
    p->range_hi = range_bytes;
    p->range_lo = min_range < range_bytes ? min_range : range_bytes;
    p->main_w.last = SIZE_MAX;
    p->map = map != MAP_FAILED ? map : NULL;
    p->page = (uint64_t)sysconf(_SC_PAGESIZE);
    /* The first header word decides the byte order, as in the reader. */
    uint8_t w0[8];
    uint64_t first = pread_full(fd, w0, 8, 0) == 8 ? fxt_load64(w0) : 0;
    p->sw = first == FXT_MAGIC_RECORD ? 0 : first == FXT_MAGIC_RECORD_SWAPPED ? 1 : fxt_host_is_big_endian();
    /* The log's blocks: each is filled to within one record (4095 words) of its end before the
     * next starts, and the log holds at most the whole file. */
    p->log_nblocks = (size_t)(size / (LOGBLK - 32768u)) + 2;
    /* Cuts are at least range_lo apart: this many ranges at most (the pre-scan also checks). */
    p->cap = jobs <= 1 ? 1 : (size_t)(size / p->range_lo) + 2;
    p->ranges = calloc(p->cap, sizeof *p->ranges);
    p->log = calloc(p->log_nblocks, sizeof *p->log);
    p->log_used = calloc(p->log_nblocks, sizeof *p->log_used);
    if (p->ranges == NULL || p->log == NULL || p->log_used == NULL) {
        free(p->ranges);
        free(p->log);
        free(p->log_used);
        if (p->map != NULL) {
            munmap(map, (size_t)size);
        }
        return CLI_EXIT_LIMIT;
    }
    return 0;
}

/* Guards the mapped file against SIGBUS (on_sigbus), the old action in OLD; unguarded, a file cut
 * short would kill the process, so where the handler cannot be set the file is read with pread. */
static void guard_map(par_t *p, struct sigaction *old) {
    if (p->map == NULL) {
        return;
    }
    struct sigaction sa;
    bus_page = (size_t)p->page;
    bus_len = (size_t)p->size;
    bus_map = p->map;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGBUS, &sa, old) != 0) {
        bus_map = NULL;
        munmap((void *)(uintptr_t)p->map, (size_t)p->size);
        p->map = NULL;
    }
}

/* Decodes the ranges: the pre-scan on this thread, which then works too, and jobs - 1 workers. */
static void run_threads(par_t *p) {
#ifdef __GLIBC__
    /* Ranges allocate and free similar state one after another: glibc would hand the freed
     * memory back to the kernel (trim, munmap of large blocks) and the next range would fault
     * it in again, page by page, which costs more than the decoding saves on some VMs. Kept,
     * it is reused; the peak stays what the ranges in flight need. */
    mallopt(M_TRIM_THRESHOLD, 512 << 20);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
#endif
    pthread_t *tids = calloc(p->jobs - 1, sizeof *tids);
    unsigned started = 0;
    for (unsigned i = 0; tids != NULL && i + 1 < p->jobs; i++) {
        if (pthread_create(&tids[i], NULL, worker, p) != 0) {
            break; /* fewer threads: still correct, the main thread works too */
        }
        started++;
    }
    prescan(p);
    work_all(p, &p->main_w);
    for (unsigned i = 0; i < started; i++) {
        pthread_join(tids[i], NULL);
    }
    free(tids);
    merge_ready(p);
}

/* Releases what par_init and the reading left in P (the map restored to the OLD SIGBUS action);
 * returns P's exit code, CLI_PAR_SHRANK when the file ended before its size at open. */
static int par_finish(par_t *p, const struct sigaction *old) {
    int rc = p->failed;
    if (p->map != NULL) {
        sigaction(SIGBUS, old, NULL);
        bus_map = NULL;
        munmap((void *)(uintptr_t)p->map, (size_t)p->size);
    }
    wctx_free(&p->main_w);
    for (size_t b = 0; b < p->log_nblocks; b++) {
        free(p->log[b]);
    }
    free(p->log);
    free(p->log_used);
    if (rc == 0 && p->short_read) {
        rc = CLI_PAR_SHRANK;
    }
    for (size_t k = 0; k < p->published; k++) {
        if (p->ranges[k].state != NULL) {
            p->ops->range_free(p->ctx, p->ranges[k].state);
        }
    }
    if (rc == CLI_EXIT_LIMIT) {
        fprintf(stderr, "fxt %s: out of memory\n", p->cmd);
    }
    free(p->ranges);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->merge_mu);
    return rc;
}

/* cli_read_parallel_max on a plain file: its ranges on `jobs` threads. */
static int read_ranges(const char *cmd, int fd, uint64_t size, const fxt_reader_options_t *opt, unsigned jobs,
                       uint64_t min_range, uint64_t max_range, const cli_par_ops_t *ops, void *ctx) {
    min_range = min_range_bytes(cmd, min_range, max_range);
    if (min_range == 0) {
        return CLI_EXIT_USAGE;
    }
    par_t p;
    memset(&p, 0, sizeof p);
    p.cmd = cmd;
    p.ops = ops;
    p.ctx = ctx;
    p.opt = opt;
    if (par_init(&p, fd, size, jobs, min_range, max_range) != 0) {
        fprintf(stderr, "fxt %s: out of memory\n", cmd);
        return CLI_EXIT_LIMIT;
    }
    struct sigaction old_sa;
    guard_map(&p, &old_sa);
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.cv, NULL);
    pthread_mutex_init(&p.merge_mu, NULL);
    if (jobs <= 1 || size <= p.range_hi) {
        /* One range, no pre-scan, no thread. */
        p.ranges[0].begin = 0;
        p.ranges[0].end = size;
        p.ranges[0].last = 1;
        p.published = 1;
        p.scan_done = 1;
        work_one(&p, &p.main_w);
    } else {
        run_threads(&p);
    }
    return par_finish(&p, &old_sa);
}

/* ---- the bases of relative times (cli_read_bases) ----------------------------------------- */

__extension__ typedef unsigned __int128 bases_u128;

/* A record's time in ns, exact in 128 bits (ticks * 1e9 / rate; 0 ticks per second: ticks). */
static bases_u128 bases_ns(uint64_t ticks, uint64_t tps) {
    return tps == 0 ? ticks : (bases_u128)ticks * 1000000000u / tps;
}

static void *bases_new(void *ctx, size_t index) {
    (void)ctx;
    (void)index;
    return calloc(1, sizeof(cli_bases_t));
}

static int bases_record(void *range, fxt_reader_t *r, const fxt_record_t *rec) {
    cli_bases_t *b = range;
    uint64_t ts;
    switch (rec->kind) {
    case FXT_KIND_EVENT:
        ts = rec->u.event.ts;
        break;
    case FXT_KIND_LOG:
        ts = rec->u.log.ts;
        break;
    case FXT_KIND_CONTEXT_SWITCH:
        ts = rec->u.context_switch.ts;
        break;
    case FXT_KIND_LEGACY_CONTEXT_SWITCH:
        ts = rec->u.legacy_context_switch.ts;
        break;
    case FXT_KIND_THREAD_WAKEUP:
        ts = rec->u.thread_wakeup.ts;
        break;
    case FXT_KIND_LARGE_BLOB:
        if (rec->u.large_blob.format != FXT_LARGE_BLOB_WITH_METADATA) {
            return 0;
        }
        ts = rec->u.large_blob.ts;
        break;
    case FXT_KIND_MAGIC:
    case FXT_KIND_PROVIDER_INFO:
    case FXT_KIND_PROVIDER_SECTION:
    case FXT_KIND_PROVIDER_EVENT:
    case FXT_KIND_TRACE_INFO:
    case FXT_KIND_INIT:
    case FXT_KIND_STRING:
    case FXT_KIND_THREAD:
    case FXT_KIND_BLOB:
    case FXT_KIND_USERSPACE_OBJECT:
    case FXT_KIND_KERNEL_OBJECT:
    case FXT_KIND_UNKNOWN:
    default:      /* (-Wswitch-enum still asks for every kind above) */
        return 0; /* untimed */
    }
    uint64_t tps = fxt_reader_ticks_per_second(r);
    if (rec->kind == FXT_KIND_EVENT) {
        uint64_t ns = cli_ticks_to_ns(ts, tps);
        if (!b->have_ev || ns < b->ev_ns) {
            b->ev_ns = ns;
            b->have_ev = 1;
        }
    }
    if (!b->have_all || bases_ns(ts, tps) < bases_ns(b->all_ticks, b->all_tps)) {
        b->all_ticks = ts;
        b->all_tps = tps;
        b->have_all = 1;
    }
    return 0;
}

static void bases_error(void *range, fxt_reader_t *r, const fxt_diag_t *d) {
    (void)range;
    (void)r;
    (void)d; /* reported by the command's own read */
}

/* Folds a range's bases into the read's: the earlier of each (ties: the one read first). */
static int bases_merge(void *ctx, void *range) {
    cli_bases_t *t = ctx, *b = range;
    if (b->have_ev && (!t->have_ev || b->ev_ns < t->ev_ns)) {
        t->ev_ns = b->ev_ns;
        t->have_ev = 1;
    }
    if (b->have_all &&
        (!t->have_all || bases_ns(b->all_ticks, b->all_tps) < bases_ns(t->all_ticks, t->all_tps))) {
        t->all_ticks = b->all_ticks;
        t->all_tps = b->all_tps;
        t->have_all = 1;
    }
    free(b);
    return 0;
}

static void bases_free(void *ctx, void *range) {
    (void)ctx;
    free(range);
}

int cli_read_bases(const char *cmd, const char *path, const fxt_reader_options_t *opt, unsigned jobs,
                   cli_bases_t *out) {
    static const cli_par_ops_t ops = {bases_new, bases_record, bases_error, bases_merge, bases_free};
    memset(out, 0, sizeof *out);
    int rc = cli_read_parallel(cmd, path, opt, jobs, 0, &ops, out, NULL);
    return rc == CLI_PAR_RERUN ? CLI_EXIT_LIMIT : rc == CLI_EXIT_DATA ? 0 : rc;
}
