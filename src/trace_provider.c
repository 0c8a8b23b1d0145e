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
 * Pages resident before the first event: on first touch, a fresh 32 MiB buffer
 * cost 77 ns per begin/end record (3.9 page faults per 1,000 events) against
 * 14 ns resident. Populating all of it at start took 10-18 ms at the program's
 * first macro (as long as the calibration sleep it replaced), so the start
 * populates the header and the first chunks (taken first: chunks are handed
 * out in index order) and a short-lived thread populates the rest with
 * MADV_POPULATE_WRITE, which faults pages in without touching their contents
 * (safe while threads already write into them). Kernels without it (< 5.14):
 * everything is touched at start.
 */
#define SYNC_CHUNKS 4u
#define POPULATE_STEP ((size_t)256u << 10)

/* The populating thread, joined before the buffer is unmapped and before
 * fork(): a child must not inherit a half-done job, nor sanitizers a thread
 * that is still running (LeakSanitizer then hung in forked children at exit,
 * when the thread had only announced that it was done). Joinable, not
 * detached, for that reason; one joiner takes it (the callers hold the
 * session lock, or run in a fork child where it was joined before). */
static pthread_t g_pop_thread;
static int g_pop_joinable;

void fxt__trace_populate_join(void) {
    if (__atomic_exchange_n(&g_pop_joinable, 0, __ATOMIC_ACQ_REL)) {
        pthread_join(g_pop_thread, NULL);
    }
}

typedef struct populate_job {
    uint8_t *p;
    size_t len;
} populate_job_t;

static int populate_range(uint8_t *p, size_t len) {
#if defined(MADV_POPULATE_WRITE)
    return madvise(p, len, MADV_POPULATE_WRITE);
#else
    (void)p, (void)len;
    errno = EINVAL;
    return -1;
#endif
}

static void *populate_main(void *arg) {
    populate_job_t job = *(populate_job_t *)arg;
    free(arg);
    /* 256 KiB at a time (each step holds the mmap lock: short steps keep the
     * program's own mmap calls from waiting), in chunk order */
    for (size_t off = 0; off < job.len; off += POPULATE_STEP) {
        size_t k = job.len - off < POPULATE_STEP ? job.len - off : POPULATE_STEP;
        if (populate_range(job.p + off, k) != 0) {
            break;
        }
    }
    return NULL;
}

static void populate(void *m, size_t size, size_t now) {
    uint8_t *b = m;
    if (now > size) {
        now = size;
    }
    if (populate_range(b, now) != 0) {
        /* no MADV_POPULATE_WRITE: write every page now, before any thread traces */
        for (size_t off = 0; off < size; off += 4096) {
            b[off] = 0;
        }
        return;
    }
    if (size == now) {
        return;
    }
    populate_job_t *job = malloc(sizeof *job);
    if (job != NULL) {
        job->p = b + now;
        job->len = size - now;
        fxt__trace_populate_join(); /* a previous session's */
        if (pthread_create(&g_pop_thread, NULL, populate_main, job) == 0) {
            __atomic_store_n(&g_pop_joinable, 1, __ATOMIC_RELEASE);
            job = NULL;
        }
    }
    if (job != NULL) {
        free(job);
        populate_range(b + now, size - now);
    }
}

int fxt__trace_map_buffer(size_t total, uint32_t cs, int shared) {
    uint32_t n = (uint32_t)(total / cs);
    size_t desc = sizeof(fxt_shm_header_t) + (size_t)n * sizeof(fxt_shm_chunk_t);
    size_t data_off = (desc + 4095u) & ~(size_t)4095u;
    size_t size = data_off + (size_t)n * cs;
    void *m = MAP_FAILED;
    if (shared) {
        g_memfd = make_memfd();
        if (g_memfd < 0) {
            fxt__trace_warn("cannot create the shared trace buffer (memfd_create: %s); not tracing",
                            strerror(errno));
            return -1;
        }
        if (ftruncate(g_memfd, (off_t)size) == 0) {
            m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, g_memfd, 0);
        }
    } else {
        m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
#if defined(MADV_HUGEPAGE)
        if (m != MAP_FAILED) {
            madvise(m, size, MADV_HUGEPAGE); /* fewer pages to fault in, where THP is on (not for memfds) */
        }
#endif
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
    populate(m, size, data_off + (size_t)cs * (n < SYNC_CHUNKS ? n : SYNC_CHUNKS));
    fxt_shm_header_t *h = m;
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
