/* SPDX-License-Identifier: MIT */
/*
 * The provider side of tracing: the session's buffer as one mapping laid out
 * as include/fxt/manager.h documents (a memfd shared with the trace manager,
 * or a private anonymous mapping when the program runs standalone), and the
 * protocol with the manager (hello, config, the buffer's fd, wakeups, bye).
 * Linux only for the manager; the standalone mapping needs mmap alone.
 */
#define _GNU_SOURCE 1 /* memfd_create, MAP_POPULATE, program_invocation_short_name */
#include "trace_internal.h"

#if defined(__linux__)
#include "mgr_msg.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/ioctl.h>
#include <sys/syscall.h>
#endif

static int g_memfd = -1; /* the shared buffer's fd until it is handed to the manager */

void fxt__trace_warn(const char *fmt, ...) {
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0) {
        return;
    }
    /* one write: lines of several processes sharing stderr do not interleave */
    char out[1100];
    int m = snprintf(out, sizeof out, "libfxt: %s\n", line);
    if (m > 0) {
        ssize_t w = write(2, out, (size_t)m < sizeof out ? (size_t)m : sizeof out - 1);
        (void)w;
    }
}

static int make_memfd(void) {
#if defined(__linux__) && defined(SYS_memfd_create)
    return (int)syscall(SYS_memfd_create, "fxt-provider", 1u /* MFD_CLOEXEC */);
#else
    errno = ENOSYS;
    return -1;
#endif
}

/*
 * Pages resident before the first event, and huge pages where the system allows
 * them: on first touch, a fresh 32 MiB buffer cost 77 ns per begin/end record
 * (3.9 page faults per 1,000 events) against 14 ns resident, and a shared
 * buffer (a memfd: shmem) on 4 KiB pages faulted in by the traced thread cost
 * 3.7-8x the in-process one early in a session (issue 27).
 *
 * The start populates the header and the first chunks (chunks are handed out
 * in index order), the whole first 2 MiB where a touch gets a huge page; a
 * helper thread populates the rest, in chunk order, 8 MiB at a time. Each
 * step, on 2 MiB-aligned memory marked MADV_HUGEPAGE: one page per 2 MiB is
 * faulted in (a huge page at once where THP applies: anonymous memory with
 * THP "madvise" or "always", shmem with shmem_enabled "advise",
 * "within_size", "always" or "force"), then, where that gives no huge page,
 * MADV_COLLAPSE (Linux >= 6.1) makes huge pages of the small ones (it works
 * with shmem_enabled "never" too, not with "deny"), then MADV_POPULATE_WRITE
 * (Linux >= 5.14) maps whatever is left. All three leave the contents alone
 * (safe while threads already write into the pages). A memfd or mapping from
 * the hugetlb pool (MFD_HUGETLB, MAP_HUGETLB) is used when the pool has room
 * for the whole buffer. Kernels without MADV_POPULATE_WRITE: every page is
 * touched at start. What was obtained goes to the shared header's `pages`
 * field (include/fxt/manager.h), which `fxt record -v` reports.
 */
#define SYNC_CHUNKS 4u
#define HUGE_SIZE ((size_t)2u << 20)
#define POPULATE_STEP ((size_t)8u << 20)
#if defined(__linux__) && !defined(MADV_COLLAPSE)
#define MADV_COLLAPSE 25 /* Linux 6.1; older headers */
#endif
#if !defined(MAP_NORESERVE)
#define MAP_NORESERVE 0 /* a hint: the reservation around the buffer is never touched */
#endif
#if defined(__linux__) && !defined(MFD_HUGETLB)
#define MFD_HUGETLB 4u
#endif

/* The populating thread, stopped (between two steps) and joined before the
 * buffer is unmapped and before fork(): a child must not inherit a half-done
 * job, nor sanitizers a thread that is still running (LeakSanitizer then hung
 * in forked children at exit, when the thread had only announced that it was
 * done). Joinable, not detached, for that reason; one joiner takes it (the
 * callers hold the session lock, or run in a fork child where it was joined
 * before). A fork resumes it in the parent where it stopped. */
typedef struct populate_job {
    uint8_t *p;    /* the whole mapping */
    size_t len;    /* its length */
    size_t next;   /* atomic: the offset of the next step */
    uint32_t stop; /* atomic: 1 = stop between two steps */
    int hugetlb;   /* from the hugetlb pool: nothing to collapse */
    int collapse;  /* THP does not come by fault here: MADV_COLLAPSE (0 once refused: old kernel, "deny") */
} populate_job_t;

static populate_job_t g_pop;
static pthread_t g_pop_thread;
static int g_pop_joinable;

static int populate_range(uint8_t *p, size_t len) {
#if defined(MADV_POPULATE_WRITE)
    return madvise(p, len, MADV_POPULATE_WRITE);
#else
    (void)p, (void)len;
    errno = EINVAL;
    return -1;
#endif
}

/* One step: huge pages where possible, then every page mapped. 0, or -1 when
 * MADV_POPULATE_WRITE is not there. MADV_COLLAPSE costs 1-6 ms even where the
 * pages are huge already (it drains every CPU's page lists first): only the helper
 * calls it (may_collapse), only where the touch does not give huge pages. */
static int populate_step(populate_job_t *job, uint8_t *p, size_t len, int may_collapse) {
#if defined(__linux__)
    if (!job->hugetlb) {
        for (size_t off = 0; off < len; off += HUGE_SIZE) {
            if (populate_range(p + off, 1) != 0) {
                return -1;
            }
        }
        if (may_collapse && job->collapse && len >= HUGE_SIZE && madvise(p, len, MADV_COLLAPSE) != 0 &&
            errno == EINVAL) {
            job->collapse = 0;
        }
    }
#else
    (void)job, (void)may_collapse;
#endif
    return populate_range(p, len);
}

/* The value in brackets of a sysfs choice file ("always [madvise] never": "madvise"), "" if none. */
static void sysfs_choice(const char *path, char *out, size_t cap) {
    out[0] = '\0';
    FILE *f = fopen(path, "re");
    if (f == NULL) {
        return;
    }
    char line[256];
    const char *a = fgets(line, sizeof line, f) != NULL ? strchr(line, '[') : NULL;
    const char *b = a != NULL ? strchr(a, ']') : NULL;
    if (b != NULL && (size_t)(b - a) <= cap) {
        memcpy(out, a + 1, (size_t)(b - a - 1));
        out[b - a - 1] = '\0';
    }
    fclose(f);
}

/* Whether a touch of memory marked MADV_HUGEPAGE gets a 2 MiB page at once (shared: shmem). */
static int thp_by_fault(int shared) {
    char top[32], two[32];
    const char *dir = "/sys/kernel/mm/transparent_hugepage/";
    char path[128];
    snprintf(path, sizeof path, "%s%s", dir, shared ? "shmem_enabled" : "enabled");
    sysfs_choice(path, top, sizeof top);
    snprintf(path, sizeof path, "%shugepages-2048kB/%s", dir, shared ? "shmem_enabled" : "enabled");
    sysfs_choice(path, two, sizeof two);
    const char *v = two[0] == '\0' || strcmp(two, "inherit") == 0 ? top : two;
    if (shared) {
        return strcmp(v, "always") == 0 || strcmp(v, "within_size") == 0 || strcmp(v, "advise") == 0 ||
               strcmp(v, "force") == 0;
    }
    return strcmp(v, "always") == 0 || strcmp(v, "madvise") == 0;
}

#if defined(__linux__)
/* PAGEMAP_SCAN (Linux 6.7, <linux/fs.h>; defined here for older headers): the huge
 * mappings of one range, without walking every mapping of the process as smaps does. */
struct fxt__page_region {
    uint64_t start, end, categories;
};
struct fxt__pm_scan_arg {
    uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages;
    uint64_t category_inverted, category_mask, category_anyof_mask, return_mask;
};
#define FXT__PAGEMAP_SCAN _IOWR('f', 16, struct fxt__pm_scan_arg)
#define FXT__PAGE_IS_HUGE (1u << 6)

/* kB of huge pages in [p, p + len), or -1 when PAGEMAP_SCAN is not there */
static int64_t huge_kb_scan(const uint8_t *p, size_t len) {
    int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return -1;
    }
    struct fxt__page_region v[64];
    uint64_t kb = 0, at = (uintptr_t)p, end = (uintptr_t)p + len;
    while (at < end) {
        struct fxt__pm_scan_arg a;
        memset(&a, 0, sizeof a);
        a.size = sizeof a;
        a.start = at;
        a.end = end;
        a.vec = (uintptr_t)v;
        a.vec_len = sizeof v / sizeof v[0];
        a.category_mask = a.return_mask = FXT__PAGE_IS_HUGE;
        long n = ioctl(fd, FXT__PAGEMAP_SCAN, &a);
        if (n < 0) {
            close(fd);
            return -1;
        }
        for (long i = 0; i < n; i++) {
            kb += (v[i].end - v[i].start) >> 10;
        }
        if (a.walk_end <= at) {
            break;
        }
        at = a.walk_end;
    }
    close(fd);
    return (int64_t)kb;
}

/* kB of huge pages of the mapping at p, as /proc/self/smaps counts them (older kernels) */
static uint64_t huge_kb_smaps(const uint8_t *p) {
    uint64_t kb = 0;
    FILE *f = fopen("/proc/self/smaps", "re");
    if (f == NULL) {
        return 0;
    }
    char line[256];
    int in = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        unsigned long lo, hi;
        unsigned long long v;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) { /* a mapping's first line */
            in = (uintptr_t)p == lo;
            continue;
        }
        if (in && (sscanf(line, "AnonHugePages: %llu kB", &v) == 1 ||
                   sscanf(line, "ShmemPmdMapped: %llu kB", &v) == 1 ||
                   sscanf(line, "Shared_Hugetlb: %llu kB", &v) == 1 ||
                   sscanf(line, "Private_Hugetlb: %llu kB", &v) == 1)) {
            kb += v;
        }
    }
    fclose(f);
    return kb;
}
#endif

/* The buffer's huge pages, in 2 MiB units. */
static uint32_t count_huge(const uint8_t *p, size_t len) {
    uint64_t kb = 0;
#if defined(__linux__)
    int64_t scan = huge_kb_scan(p, len);
    kb = scan >= 0 ? (uint64_t)scan : huge_kb_smaps(p);
#else
    (void)p, (void)len;
#endif
    uint64_t n = kb / 2048;
    return n > FXT_SHM_PAGES_HUGE_MAX ? FXT_SHM_PAGES_HUGE_MAX : (uint32_t)n;
}

static void *populate_main(void *arg) {
    populate_job_t *job = arg;
    size_t off;
    while ((off = __atomic_load_n(&job->next, __ATOMIC_RELAXED)) < job->len) {
        if (__atomic_load_n(&job->stop, __ATOMIC_ACQUIRE)) {
            return NULL; /* resumed from `next` (fork), or the buffer goes away */
        }
        size_t k = POPULATE_STEP - off % POPULATE_STEP; /* steps end at 8 MiB boundaries */
        k = job->len - off < k ? job->len - off : k;
        if (populate_step(job, job->p + off, k, 1) != 0) {
            break;
        }
        __atomic_store_n(&job->next, off + k, __ATOMIC_RELAXED);
    }
    fxt_shm_header_t *h = (fxt_shm_header_t *)(void *)job->p;
    uint32_t pages =
        (__atomic_load_n(&h->pages, __ATOMIC_RELAXED) & FXT_SHM_PAGES_HUGETLB) | FXT_SHM_PAGES_DONE;
    if (__atomic_load_n(&job->next, __ATOMIC_RELAXED) >= job->len) {
        pages |= FXT_SHM_PAGES_RESIDENT;
    }
    pages |= count_huge(job->p, job->len) << FXT_SHM_PAGES_HUGE_SHIFT;
    __atomic_store_n(&h->pages, pages, __ATOMIC_RELEASE);
    return NULL;
}

static void populate_start(void) {
    __atomic_store_n(&g_pop.stop, 0, __ATOMIC_RELAXED);
    if (fxt__trace_thread_create(&g_pop_thread, populate_main, &g_pop) == 0) {
        __atomic_store_n(&g_pop_joinable, 1, __ATOMIC_RELEASE);
    } else {
        populate_main(&g_pop); /* no thread: this one does it */
    }
}

void fxt__trace_populate_join(void) {
    if (__atomic_exchange_n(&g_pop_joinable, 0, __ATOMIC_ACQ_REL)) {
        __atomic_store_n(&g_pop.stop, 1, __ATOMIC_RELEASE);
        pthread_join(g_pop_thread, NULL);
    }
}

void fxt__trace_populate_resume(void) {
    if (g_pop.p != NULL && fxt__trace.hdr != NULL && (uint8_t *)fxt__trace.hdr == g_pop.p &&
        __atomic_load_n(&g_pop.next, __ATOMIC_RELAXED) < g_pop.len &&
        !(__atomic_load_n(&fxt__trace.hdr->pages, __ATOMIC_ACQUIRE) & FXT_SHM_PAGES_DONE) &&
        !__atomic_load_n(&g_pop_joinable, __ATOMIC_ACQUIRE)) {
        populate_start();
    }
}

/* The start: the first chunks here (the first 2 MiB where a touch gets a huge page), the rest
 * by the helper thread. */
static void populate(void *m, size_t size, size_t now, int hugetlb, int shared) {
    fxt__trace_populate_join(); /* a previous session's */
    memset(&g_pop, 0, sizeof g_pop);
    g_pop.p = m;
    g_pop.len = size;
    g_pop.hugetlb = hugetlb;
    g_pop.collapse = !hugetlb && !thp_by_fault(shared);
    if (!g_pop.collapse) { /* the first huge page at once; else the helper does the rest of it */
        now = (now + HUGE_SIZE - 1) & ~(HUGE_SIZE - 1);
    }
    if (now > size) {
        now = size;
    }
    if (populate_step(&g_pop, m, now, 0) != 0) {
        /* no MADV_POPULATE_WRITE: write every page now, before any thread traces */
        for (size_t off = 0; off < size; off += 4096) {
            ((volatile uint8_t *)m)[off] = 0;
        }
        g_pop.next = size;
        populate_main(&g_pop);
        return;
    }
    g_pop.next = now;
    populate_start();
}

/* Pages of the hugetlb pool free for `size` bytes (0: no pool, or not enough). */
static int hugetlb_room(size_t size) {
#if defined(__linux__)
    FILE *f = fopen("/proc/meminfo", "re");
    if (f == NULL) {
        return 0;
    }
    char line[128];
    unsigned long long free_pages = 0, kb = 0, v;
    while (fgets(line, sizeof line, f) != NULL) {
        if (sscanf(line, "HugePages_Free: %llu", &v) == 1) {
            free_pages = v;
        } else if (sscanf(line, "Hugepagesize: %llu kB", &v) == 1) {
            kb = v;
        }
    }
    fclose(f);
    return kb == 2048 && free_pages * (HUGE_SIZE) >= size;
#else
    (void)size;
    return 0;
#endif
}

/* `size` bytes at a 2 MiB boundary (so that huge pages can map it): the memfd fd, or
 * anonymous memory (fd -1), hugetlb pages when *hugetlb (cleared when they fail). */
static void *map_aligned(size_t size, int fd, int *hugetlb) {
    if (*hugetlb) {
        void *m = fd >= 0 ? mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
#if defined(MAP_HUGETLB)
                          : mmap(NULL, size, PROT_READ | PROT_WRITE,
                                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
#else
                          : MAP_FAILED;
#endif
        if (m != MAP_FAILED) {
            return m;
        }
        *hugetlb = 0;
        if (fd >= 0) {
            return MAP_FAILED; /* a hugetlb memfd maps with huge pages or not at all */
        }
    }
    uint8_t *r = mmap(NULL, size + HUGE_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (r == MAP_FAILED) {
        return MAP_FAILED;
    }
    uint8_t *a = (uint8_t *)(((uintptr_t)r + HUGE_SIZE - 1) & ~(uintptr_t)(HUGE_SIZE - 1));
    void *m = fd >= 0 ? mmap(a, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0)
                      : mmap(a, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (m == MAP_FAILED) {
        munmap(r, size + HUGE_SIZE);
        return MAP_FAILED;
    }
    if (a > r) {
        munmap(r, (size_t)(a - r));
    }
    if (a + size < r + size + HUGE_SIZE) {
        munmap(a + size, (size_t)(r + size + HUGE_SIZE - (a + size)));
    }
#if defined(MADV_HUGEPAGE)
    madvise(m, size, MADV_HUGEPAGE); /* where THP applies (populate_step) */
#endif
#if defined(MADV_WIPEONFORK)
    if (fd < 0) {
        /* a fork child gets zeroes here (it drops the parent's buffer anyway): the
         * parent's pages are then not made copy-on-write, and its next events do not
         * fault them in again (one fault per page after every fork) */
        madvise(m, size, MADV_WIPEONFORK);
    }
#endif
    return m;
}

/* The session's mapping of `size` bytes (a multiple of 2 MiB): shared (a memfd in g_memfd)
 * or private; *hugetlb: from the hugetlb pool. MAP_FAILED, with errno, on failure. */
static void *map_memory(size_t size, int shared, int *hugetlb) {
    *hugetlb = size % HUGE_SIZE == 0 && hugetlb_room(size); /* whole huge pages only */
    if (!shared) {
        return map_aligned(size, -1, hugetlb);
    }
    if (*hugetlb) {
#if defined(__linux__) && defined(SYS_memfd_create)
        g_memfd = (int)syscall(SYS_memfd_create, "fxt-provider", 1u /* MFD_CLOEXEC */ | MFD_HUGETLB);
#endif
        void *m = g_memfd >= 0 && ftruncate(g_memfd, (off_t)size) == 0 ? map_aligned(size, g_memfd, hugetlb)
                                                                       : MAP_FAILED;
        if (m != MAP_FAILED) {
            return m;
        }
        *hugetlb = 0;
        if (g_memfd >= 0) {
            close(g_memfd);
        }
    }
    g_memfd = make_memfd();
    if (g_memfd < 0) {
        fxt__trace_warn("cannot create the shared trace buffer (memfd_create: %s); not tracing",
                        strerror(errno));
        return NULL;
    }
    return ftruncate(g_memfd, (off_t)size) == 0 ? map_aligned(size, g_memfd, hugetlb) : MAP_FAILED;
}

int fxt__trace_map_buffer(size_t total, uint32_t cs, int shared) {
    uint32_t n = (uint32_t)(total / cs);
    size_t desc = sizeof(fxt_shm_header_t) + (size_t)n * sizeof(fxt_shm_chunk_t);
    size_t data_off = (desc + 4095u) & ~(size_t)4095u;
    size_t size = data_off + (size_t)n * cs;
    size_t whole = (size + HUGE_SIZE - 1) & ~(HUGE_SIZE - 1);
    if (whole - size <= size / 8) {
        size = whole; /* whole huge pages (the layout ignores the tail); not for small buffers */
    }
    int hugetlb = 0;
    void *m = map_memory(size, shared, &hugetlb);
    if (m == NULL) {
        return -1;
    }
    chunk_t *chunks = calloc(n, sizeof *chunks);
    if (m == MAP_FAILED || chunks == NULL) {
        fxt__trace_warn("cannot map a %zu-byte trace buffer (%s); not tracing", size, strerror(errno));
        if (m != MAP_FAILED) {
            munmap(m, size);
        }
        free(chunks);
        if (g_memfd >= 0) {
            close(g_memfd);
            g_memfd = -1;
        }
        return -1;
    }
    fxt_shm_header_t *h = m;
    h->pages = hugetlb ? FXT_SHM_PAGES_HUGETLB : 0;
    populate(m, size, data_off + (size_t)cs * (n < SYNC_CHUNKS ? n : SYNC_CHUNKS), hugetlb, shared);
    h->magic = FXT_SHM_MAGIC;
    h->version = FXT_SHM_VERSION;
    h->header_size = sizeof *h;
    h->chunk_size = cs;
    h->nchunks = n;
    h->chunks_offset = sizeof *h;
    h->data_offset = data_off;
    fxt_shm_chunk_t *d = (fxt_shm_chunk_t *)((uint8_t *)m + h->chunks_offset);
    for (uint32_t i = 0; i < n; i++) {
        chunks[i].data = (uint8_t *)m + data_off + (size_t)i * cs;
        chunks[i].sh = &d[i];
        chunks[i].cap = cs;
    }
    fxt__trace.hdr = h;
    fxt__trace.map_size = size;
    fxt__trace.mem = (uint8_t *)m + data_off;
    fxt__trace.chunks = chunks;
    fxt__trace.nchunks = n;
    fxt__trace.chunk_size = cs;
    return 0;
}

void fxt__trace_unmap_buffer(void) {
    fxt__trace_populate_join();
    if (fxt__trace.hdr != NULL) {
        munmap(fxt__trace.hdr, fxt__trace.map_size);
    }
    free(fxt__trace.chunks);
    fxt__trace.hdr = NULL;
    fxt__trace.mem = NULL;
    fxt__trace.chunks = NULL;
    fxt__trace.nchunks = 0;
    if (g_memfd >= 0) {
        close(g_memfd);
        g_memfd = -1;
    }
}

/* The process's name for the fixed 64-byte fields (shared header, HELLO): the name it gave
 * itself, else the provider's default; at most 63 bytes, cut where a UTF-8 character
 * starts (the process record in the stream keeps the whole name). Returns its length. */
static size_t short_name(char out[64]) {
    const char *n = __atomic_load_n(&fxt__trace.process_named, __ATOMIC_ACQUIRE) && fxt__trace.process_name[0]
                        ? fxt__trace.process_name
                        : fxt__trace.provider_name;
    size_t len = strlen(n);
    if (len > 63) {
        len = 63;
        while (len > 0 && ((unsigned char)n[len] & 0xC0u) == 0x80u) {
            len--; /* n[len] continues a character: cut before that character */
        }
    }
    memcpy(out, n, len);
    out[len] = '\0';
    return len;
}

void fxt__trace_header_name(void) {
    fxt_shm_header_t *h = fxt__trace.hdr;
    if (h == NULL) {
        return;
    }
    char nm[64];
    size_t len = short_name(nm);
    /* the manager may read the field at any moment (another process): byte 0 is 0 (no
     * name: it keeps the one it has) while the rest changes, and is stored last */
    __atomic_store_n(&h->name[0], '\0', __ATOMIC_RELEASE);
    for (size_t i = 1; i < sizeof h->name; i++) {
        __atomic_store_n(&h->name[i], i < len ? nm[i] : '\0', __ATOMIC_RELAXED);
    }
    __atomic_store_n(&h->name[0], nm[0], __ATOMIC_RELEASE);
}

#if defined(__linux__)
static int send_msg(int fd, const fxt_mgr_msg_t *msg, int extra_flags) {
    return send(fd, msg, sizeof *msg, MSG_NOSIGNAL | extra_flags) == (ssize_t)sizeof *msg ? 0 : -1;
}

#endif

/* The category list after the config: categories_len bytes in pieces, whole or nothing. */
#if defined(__linux__)
static char *recv_categories(int fd, uint32_t len, const char *path) {
    char *cats = malloc((size_t)len + 1);
    if (cats == NULL) {
        fxt__trace_warn("the trace manager at %s sent a %" PRIu32 "-byte category list: out of memory; "
                        "not tracing",
                        path, len);
        return NULL;
    }
    uint32_t got = 0;
    while (got < len) {
        ssize_t r = recv(fd, cats + got, len - got, 0);
        if (r <= 0) {
            fxt__trace_warn("the trace manager at %s sent %" PRIu32 " of %" PRIu32
                            " bytes of the category list (%s); not tracing",
                            path, got, len, r < 0 ? strerror(errno) : "connection closed");
            free(cats);
            return NULL;
        }
        got += (uint32_t)r;
    }
    cats[len] = '\0';
    return cats;
}
#endif

int fxt__trace_mgr_connect(fxt_mgr_config_t *cfg, char **cats) {
    *cats = NULL;
#if defined(__linux__)
    const char *path = getenv(FXT_MANAGER_ENV);
    struct sockaddr_un a;
    memset(&a, 0, sizeof a);
    a.sun_family = AF_UNIX;
    if (strlen(path) >= sizeof a.sun_path) {
        fxt__trace_warn("%s=%s: path too long for a socket; not tracing", FXT_MANAGER_ENV, path);
        return -1;
    }
    memcpy(a.sun_path, path, strlen(path) + 1);
    int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        fxt__trace_warn("cannot reach the trace manager at %s=%s (%s); not tracing", FXT_MANAGER_ENV, path,
                        strerror(errno));
        if (fd >= 0) {
            close(fd);
        }
        return -1;
    }
    /* a manager that stops answering must not hang the program */
    struct timeval tv = {5, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    fxt_mgr_msg_t hello;
    memset(&hello, 0, sizeof hello);
    hello.magic = FXT_MGR_MAGIC;
    hello.type = FXT_MSG_HELLO;
    hello.pid = (uint64_t)getpid();
    hello.ppid = (uint64_t)getppid();
    short_name(hello.name); /* the name it gave itself, if any, from the first message on */
    ssize_t r = -1;
    if (send_msg(fd, &hello, 0) == 0) {
        r = recv(fd, cfg, sizeof *cfg, MSG_TRUNC);
    }
    if (r != (ssize_t)sizeof *cfg || cfg->magic != FXT_MGR_MAGIC || cfg->mode > FXT_MODE_STREAMING) {
        fxt__trace_warn("the trace manager at %s did not answer (%s); not tracing", path,
                        r < 0    ? strerror(errno)
                        : r == 0 ? "connection closed: another protocol version?"
                                 : "bad reply");
        close(fd);
        return -1;
    }
    if (cfg->categories_len > 0 && (*cats = recv_categories(fd, cfg->categories_len, path)) == NULL) {
        close(fd);
        return -1;
    }
    return fd;
#else
    (void)cfg;
    fxt__trace_warn("%s is set but the trace manager needs Linux; not tracing", FXT_MANAGER_ENV);
    return -1;
#endif
}

#if defined(__linux__)
int fxt__trace_mgr_send_buffer(void) {
    fxt__mgr_packet_t pk;
    fxt__mgr_packet_init(&pk, 1);
    fxt_mgr_msg_t *msg = &pk.msg;
    msg->magic = FXT_MGR_MAGIC;
    msg->type = FXT_MSG_BUFFER;
    msg->pid = (uint64_t)getpid();
    struct cmsghdr *c = CMSG_FIRSTHDR(&pk.mh);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &g_memfd, sizeof(int));
    int ok = sendmsg(fxt__trace.mgr_fd, &pk.mh, MSG_NOSIGNAL) == (ssize_t)sizeof *msg;
    if (!ok) {
        fxt__trace_warn("cannot hand the trace buffer to the manager (%s); not tracing", strerror(errno));
        return -1;
    }
    close(g_memfd); /* the mapping stays; the manager holds its own fd */
    g_memfd = -1;
    return 0;
}

void fxt__trace_mgr_notify_full(void) {
    int fd = __atomic_load_n(&fxt__trace.mgr_fd, __ATOMIC_RELAXED);
    if (fd < 0) {
        return;
    }
    fxt_mgr_msg_t m;
    memset(&m, 0, sizeof m);
    m.magic = FXT_MGR_MAGIC;
    m.type = FXT_MSG_CHUNK_FULL;
    /* never blocks: a lost wakeup only delays the drain to the manager's next poll */
    (void)send_msg(fd, &m, MSG_DONTWAIT);
}

/* ALERT: the name and, in `records`, its time in ticks. Non-blocking like a wakeup: a
 * manager hundreds of messages behind loses it (the instant stays in the trace). */
void fxt__trace_mgr_alert(const char *name, uint64_t ts) {
    int fd = __atomic_load_n(&fxt__trace.mgr_fd, __ATOMIC_RELAXED);
    if (fd < 0) {
        return;
    }
    fxt_mgr_msg_t m;
    memset(&m, 0, sizeof m);
    m.magic = FXT_MGR_MAGIC;
    m.type = FXT_MSG_ALERT;
    m.pid = fxt__trace.pid;
    m.records = ts;
    snprintf(m.name, sizeof m.name, "%s", name);
    (void)send_msg(fd, &m, MSG_DONTWAIT);
}

void fxt__trace_mgr_bye(const fxt_session_stats_t *s) {
    fxt_mgr_msg_t m;
    memset(&m, 0, sizeof m);
    m.magic = FXT_MGR_MAGIC;
    m.type = FXT_MSG_BYE;
    m.pid = (uint64_t)getpid();
    m.records = s->records;
    m.dropped = s->dropped;
    m.overwritten = s->overwritten;
    (void)send_msg(fxt__trace.mgr_fd, &m, 0);
    close(fxt__trace.mgr_fd);
    __atomic_store_n(&fxt__trace.mgr_fd, -1, __ATOMIC_RELAXED);
}
#else /* the manager protocol needs Linux (fxt__trace_mgr_connect() already refused) */
int fxt__trace_mgr_send_buffer(void) { return -1; }
void fxt__trace_mgr_notify_full(void) {}
void fxt__trace_mgr_alert(const char *name, uint64_t ts) { (void)name, (void)ts; }
void fxt__trace_mgr_bye(const fxt_session_stats_t *s) { (void)s; }
#endif
