/* SPDX-License-Identifier: MIT */
/*
 * The trace manager (include/fxt/manager.h, docs/manager.md): serves the
 * providers that connect to its socket, maps each provider's shared buffer,
 * drains streaming chunks while the providers run, and writes one archive:
 * per provider its provider info, initialization, process (with the clock
 * anchor), its records, and what was lost or how it ended. Linux only.
 */
#define _GNU_SOURCE 1 /* accept4, SO_PEERCRED, mkdtemp */
#include <fxt/manager.h>

#if defined(__linux__)

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mgr_msg.h"
#include "options.h"
#include "provider_records.h"
#include "trace_clock.h"

#define LOST_GRACE_NS 300000000u /* EOF without BYE: wait this long for the exit status */

typedef struct prov {
    int fd; /* the connection; -1 once closed */
    int done;
    int bye, has_status, wstatus;
    uint64_t eof_ns;   /* when the connection ended without BYE (0: not yet) */
    uint64_t hello_ns; /* when it connected */
    uint32_t id;
    uint64_t pid, ppid;
    char name[64];
    uint8_t *map;
    size_t map_size;
    const fxt_shm_header_t *h;
    fxt_shm_chunk_t *d;
    int started; /* provider info written */
    fxt_mgr_msg_t byemsg;
    uint64_t events, bytes;
    uint64_t dropped, overwritten; /* final counts, once collected (the mapping is gone) */
    int keep;       /* died by a signal under on_crash: mapped after collect, until the next snapshot */
    uint32_t pages; /* the header's `pages`, once collected */
} prov_t;

typedef struct exit_note {
    uint64_t pid;
    int wstatus;
    uint64_t ns; /* when it was noted: a pid reused later is another process */
} exit_note_t;

struct fxt_manager {
    int lfd;
    char dir[PATH_MAX - 64], path[PATH_MAX];
    fxt_writer_t *w;
    fxt_mgr_config_t reply;
    char *cats; /* the category list, whole: reply.categories_len bytes sent after the reply */
    int tsc;
    uint64_t tps;
    prov_t *p;
    size_t np, cap;
    exit_note_t *exits;
    size_t nexits, capexits;
    uint32_t section; /* provider whose section the archive is in (0: none) */
    uint32_t next_id;
    uint8_t *scratch; /* one chunk, copied before it is written */
    size_t scratch_cap;
    int stopped;
    /* kernel objects (process, thread) the providers' sections named: a source appended
     * after them (the kernel's scheduling) must not rename them (fxt_manager_object_named) */
    struct named_obj *named; /* open addressing, a power of two of slots */
    size_t nnamed, named_cap;
    int named_oom; /* the set could not grow: every object counts as named */
    /* triggers (fxt_manager_add_trigger): alert names and actions; raised, not yet taken */
    struct trig_rule *rules;
    size_t nrules;
    int on_crash;
    int hold;                   /* a snapshot is due: providers that end meanwhile stay mapped for it */
    fxt_snapshot_source_fn src; /* another section of every snapshot (fxt_manager_set_snapshot_source) */
    void *src_ctx;
    fxt_manager_trigger_t pending[64];
    size_t npending;
    uint64_t triggers_lost; /* raised while 64 were pending: dropped, counted */
    uint8_t *snap;          /* snapshot copies of every chunk, kept between snapshots */
    size_t snap_cap;
};

static uint64_t mgr_now(const fxt_manager_t *m) {
#if defined(__x86_64__)
    if (m->tsc) {
        return __builtin_ia32_rdtsc();
    }
#else
    (void)m;
#endif
    return fxt__trace_mono_ns();
}

/* ---- archive --------------------------------------------------------------------------------- */

typedef struct named_obj {
    uint64_t koid;
    uint32_t type; /* enum fxt_obj_type; 0 = empty slot */
    uint32_t pad;
} named_obj_t;

static size_t named_slot(const named_obj_t *tab, size_t cap, uint32_t type, uint64_t koid) {
    uint64_t h = (koid ^ (uint64_t)type << 56) * UINT64_C(0x9e3779b97f4a7c15);
    size_t i = (size_t)(h >> 32) & (cap - 1);
    while (tab[i].type != 0 && (tab[i].type != type || tab[i].koid != koid)) {
        i = (i + 1) & (cap - 1);
    }
    return i;
}

/* Note that a provider named kernel object (type, koid): once per chunk, not per record. */
static void note_named(fxt_manager_t *m, uint32_t type, uint64_t koid) {
    if (type == 0 || m->named_oom) {
        return;
    }
    if ((m->nnamed + 1) * 2 > m->named_cap) {
        size_t cap = m->named_cap ? m->named_cap * 2 : 256;
        named_obj_t *t = calloc(cap, sizeof *t);
        if (t == NULL) {
            m->named_oom = 1; /* err on the side of the program's names */
            return;
        }
        for (size_t i = 0; i < m->named_cap; i++) {
            if (m->named[i].type != 0) {
                t[named_slot(t, cap, m->named[i].type, m->named[i].koid)] = m->named[i];
            }
        }
        free(m->named);
        m->named = t;
        m->named_cap = cap;
    }
    named_obj_t *e = &m->named[named_slot(m->named, m->named_cap, type, koid)];
    if (e->type == 0) {
        e->type = type;
        e->koid = koid;
        m->nnamed++;
    }
}

/*
 * The process name the program gives itself, from its shared header (NUL-terminated
 * there by contract, not trusted: copied and cut): it names the provider when it
 * differs from HELLO's default (argv0). 1 when p->name changed.
 */
static int take_header_name(prov_t *p) {
    char name[sizeof p->name];
    if (p->h == NULL) {
        return 0;
    }
    /* byte 0 first: the provider clears it while it rewrites the rest (manager.h) */
    name[0] = __atomic_load_n(&p->h->name[0], __ATOMIC_ACQUIRE);
    for (size_t i = 1; i < sizeof name && i < sizeof p->h->name; i++) {
        name[i] = __atomic_load_n(&p->h->name[i], __ATOMIC_RELAXED);
    }
    name[sizeof name - 1] = '\0';
    if (name[0] == '\0' || strcmp(name, p->name) == 0) {
        return 0;
    }
    memcpy(p->name, name, sizeof name);
    return 1;
}

/* Enter p's section: provider info ("name (pid)"), initialization and process the first time. */
static void enter_section(fxt_manager_t *m, prov_t *p) {
    if (m->section == p->id) {
        return;
    }
    m->section = p->id;
    if (p->started) {
        fxt_write_provider_section(m->w, p->id);
        return;
    }
    p->started = 1;
    take_header_name(p);
    char label[96];
    snprintf(label, sizeof label, "%s (%" PRIu64 ")", p->name, p->pid);
    fxt_write_provider_info(m->w, p->id, fxt_str_inline(fxt_cstr(label)));
    fxt_write_init(m->w, m->tps);
    note_named(m, FXT_OBJ_PROCESS, p->pid);
    if (p->h != NULL) {
        fxt__write_process_clock(m->w, p->pid, p->name, p->h->anchor_ticks, m->tps, p->h->anchor_mono_ns,
                                 p->h->anchor_realtime_ns);
    } else {
        fxt_write_kernel_object(m->w, p->pid, FXT_OBJ_PROCESS, fxt_str_inline(fxt_cstr(p->name)), NULL, 0);
    }
}

/* The size in words of the record at b + off (its header in *h), or 0 when it does not fit
 * in the first `used` bytes (a dead or hostile provider's bytes are not trusted). */
static uint64_t record_words(const uint8_t *b, size_t off, size_t used, uint64_t *h) {
    if (off + 8 > used) {
        return 0;
    }
    memcpy(h, b + off, 8);
    uint64_t type = fxt_get_rec_type(*h);
    uint64_t words = type == FXT_RECORD_LARGE ? fxt_get_large_size(*h) : fxt_get_rec_size(*h);
    return words <= (used - off) / 8 ? words : 0;
}

static int is_event_record(uint64_t type) {
    return type == FXT_RECORD_EVENT || type == FXT_RECORD_LOG || type == FXT_RECORD_BLOB ||
           type == FXT_RECORD_LARGE;
}

/* Write the whole records among the first `used` bytes of a chunk, one by one (a
 * dead or hostile provider's bytes are not trusted: a record must fit). */
static void write_records(fxt_manager_t *m, prov_t *p, const uint8_t *b, size_t used) {
    size_t off = 0;
    uint64_t h, words;
    while ((words = record_words(b, off, used, &h)) != 0) {
        uint64_t type = fxt_get_rec_type(h);
        if (off == 0) {
            enter_section(m, p);
        }
        if (type == FXT_RECORD_KERNEL_OBJECT && words >= 2) {
            uint64_t name = fxt_get_kobj_name(h), koid;
            if (name != 0 && name != 0x8000u) { /* 0, or inline of length 0: no name */
                memcpy(&koid, b + off + 8, 8);
                note_named(m, (uint32_t)fxt_get_kobj_type(h), koid);
            }
        }
        if (fxt_write_raw(m->w, b + off, (size_t)words * 8) != FXT_OK) {
            break;
        }
        p->events += is_event_record(type);
        p->bytes += words * 8;
        off += (size_t)words * 8;
    }
}

/* Copy chunk i's committed records and write them; 0 if the chunk changed
 * owner while it was read (a live circular provider reused it: skipped). */
static int write_chunk(fxt_manager_t *m, prov_t *p, uint32_t i) {
    const fxt_shm_header_t *h = p->h;
    fxt_shm_chunk_t *d = &p->d[i];
    uint64_t seq = __atomic_load_n(&d->seq, __ATOMIC_ACQUIRE);
    uint32_t used = __atomic_load_n(&d->used, __ATOMIC_ACQUIRE);
    if (used > h->chunk_size) {
        used = h->chunk_size;
    }
    memcpy(m->scratch, p->map + h->data_offset + (size_t)i * h->chunk_size, used);
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (__atomic_load_n(&d->seq, __ATOMIC_RELAXED) != seq) {
        return 0;
    }
    write_records(m, p, m->scratch, used);
    return 1;
}

typedef struct ck {
    uint64_t tid, seq;
    uint32_t i;
} ck_t;

static int cmp_tid_seq(const void *a, const void *b) {
    const ck_t *x = a, *y = b;
    if (x->tid != y->tid) {
        return x->tid < y->tid ? -1 : 1;
    }
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_seq_only(const void *a, const void *b) {
    const ck_t *x = a, *y = b;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Write p's chunks: those FULL only (streaming, while it runs; freed for reuse), or
 * every used chunk (at the end), per thread in order (oneshot, circular) or in the
 * order they were taken (streaming). */
static void write_chunks(fxt_manager_t *m, prov_t *p, int full_only) {
    const fxt_shm_header_t *h = p->h;
    ck_t *v = malloc((size_t)h->nchunks * sizeof *v);
    if (v == NULL) {
        return;
    }
    size_t n = 0;
    for (uint32_t i = 0; i < h->nchunks; i++) {
        uint32_t st = __atomic_load_n(&p->d[i].state, __ATOMIC_ACQUIRE);
        uint64_t seq = __atomic_load_n(&p->d[i].seq, __ATOMIC_ACQUIRE);
        if (seq == 0 || st == FXT_CHUNK_FREE || (full_only && st != FXT_CHUNK_FULL)) {
            continue;
        }
        v[n].tid = __atomic_load_n(&p->d[i].tid, __ATOMIC_RELAXED);
        v[n].seq = seq;
        v[n].i = i;
        n++;
    }
    qsort(v, n, sizeof *v, h->mode == FXT_MODE_STREAMING ? cmp_seq_only : cmp_tid_seq);
    for (size_t k = 0; k < n; k++) {
        write_chunk(m, p, v[k].i);
        if (h->mode == FXT_MODE_STREAMING) {
            /* drained: the provider may take it again */
            __atomic_store_n(&p->d[v[k].i].state, FXT_CHUNK_FREE, __ATOMIC_RELEASE);
        }
    }
    free(v);
}

/* Drops: the shared header counts those for lack of a chunk (known even after a crash);
 * BYE also counts records too large for a chunk. */
static uint64_t prov_dropped(const prov_t *p) {
    uint64_t d = p->h ? __atomic_load_n(&((fxt_shm_header_t *)p->h)->dropped, __ATOMIC_RELAXED) : p->dropped;
    return p->bye && p->byemsg.dropped > d ? p->byemsg.dropped : d;
}

/* What backs the provider's buffer (fxt_shm_header_t.pages): set by the provider as it populates. */
static uint32_t prov_pages(const prov_t *p) {
    return p->h ? __atomic_load_n(&((fxt_shm_header_t *)p->h)->pages, __ATOMIC_ACQUIRE) : p->pages;
}

static uint64_t prov_overwritten(const prov_t *p) {
    return p->h ? __atomic_load_n(&((fxt_shm_header_t *)p->h)->overwritten, __ATOMIC_RELAXED)
                : p->overwritten;
}

/* How p ended, if abnormally: an instant on its main thread, after its last records. */
static void write_end(const fxt_manager_t *m, fxt_writer_t *w, const prov_t *p, uint64_t ts) {
    fxt_manager_provider_t info;
    fxt_manager_get_provider(m, (size_t)(p - m->p), &info);
    fxt_provider_end end = info.end;
    int status = info.status;
    if (end == FXT_PROVIDER_SIGNALED || end == FXT_PROVIDER_LOST || end == FXT_PROVIDER_EXITED) {
        fxt_arg_t a =
            fxt_arg_int32(fxt_str_inline(fxt_cstr("signal")), end == FXT_PROVIDER_SIGNALED ? status : 0);
        fxt_arg_t b =
            fxt_arg_int32(fxt_str_inline(fxt_cstr("exit_status")), end == FXT_PROVIDER_EXITED ? status : -1);
        fxt_arg_t args[2] = {a, b};
        const char *what = end == FXT_PROVIDER_SIGNALED ? "provider_killed"
                           : end == FXT_PROVIDER_EXITED ? "provider_exited_without_stop"
                                                        : "provider_lost";
        fxt_write_instant(w, ts, fxt_thread_inline(p->pid, p->pid), fxt_str_inline(fxt_cstr("fxt")),
                          fxt_str_inline(fxt_cstr(what)), args, 2);
    }
}

/* The end of a provider (exit, crash, or recording stopped): everything committed. */
static void collect(fxt_manager_t *m, prov_t *p) {
    if (p->done) {
        return;
    }
    p->done = 1;
    if (p->h != NULL) {
        enter_section(m, p);
        if (p->h->mode == FXT_MODE_CIRCULAR) {
            /* before the kept chunks: they may start with ends whose begins are gone */
            fxt__write_loss_report(m->w, p->id, p->pid, mgr_now(m), "chunks_overwritten",
                                   prov_overwritten(p));
        }
        write_chunks(m, p, 0);
        if (take_header_name(p)) {
            /* renamed since its section started (streaming): the program's name is the last word */
            fxt_write_kernel_object(m->w, p->pid, FXT_OBJ_PROCESS, fxt_str_inline(fxt_cstr(p->name)), NULL,
                                    0);
        }
        fxt__write_loss_report(m->w, p->id, p->pid, mgr_now(m), "records_dropped", prov_dropped(p));
        write_end(m, m->w, p, mgr_now(m));
        fxt_writer_reset_tables(m->w);
        /* a long recording of many processes keeps only the live ones' buffers mapped */
        p->dropped = prov_dropped(p);
        p->overwritten = prov_overwritten(p);
        p->pages = prov_pages(p);
        p->keep |= m->hold;
        if (!p->keep) { /* a crashed one stays for the snapshot it triggered, all for one due */
            munmap(p->map, p->map_size);
            p->map = NULL;
            p->h = NULL;
            p->d = NULL;
        }
    }
    if (p->fd >= 0) {
        close(p->fd);
        p->fd = -1;
    }
}

/* ---- providers -------------------------------------------------------------------------------- */

/* How provider p's process ended, if known (noted after it connected). */
static const exit_note_t *find_exit(const fxt_manager_t *m, const prov_t *p) {
    for (size_t i = m->nexits; i-- > 0;) {
        if (m->exits[i].pid == p->pid && m->exits[i].ns >= p->hello_ns) {
            return &m->exits[i];
        }
    }
    return NULL;
}

static void map_buffer(prov_t *p, int fd) {
    struct stat st;
    if (fstat(fd, &st) != 0 || (size_t)st.st_size < sizeof(fxt_shm_header_t)) {
        return;
    }
    size_t size = (size_t)st.st_size;
    void *map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) {
        return;
    }
    const fxt_shm_header_t *h = map;
    /* the layout is checked once: chunk positions are then in bounds whatever the provider does */
    int ok = h->magic == FXT_SHM_MAGIC && h->version == FXT_SHM_VERSION && h->chunk_size >= 64 &&
             h->chunk_size % 8 == 0 && h->chunks_offset >= sizeof *h && h->mode <= FXT_MODE_STREAMING &&
             h->chunks_offset + (uint64_t)h->nchunks * sizeof(fxt_shm_chunk_t) <= h->data_offset &&
             h->data_offset <= size && (size - h->data_offset) / h->chunk_size >= h->nchunks;
    if (!ok) {
        munmap(map, size);
        return;
    }
    p->map = map;
    p->map_size = size;
    p->h = h;
    p->d = (fxt_shm_chunk_t *)(p->map + h->chunks_offset);
}

/* Send all of a message on the non-blocking socket fd, waiting for room until deadline_ns. */
static int send_all(int fd, const void *b, size_t n, uint64_t deadline_ns) {
    for (;;) {
        ssize_t r = send(fd, b, n, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (r == (ssize_t)n) {
            return 0;
        }
        uint64_t now = fxt__trace_mono_ns();
        if (r >= 0 || (errno != EAGAIN && errno != EINTR) || now >= deadline_ns) {
            return -1;
        }
        struct pollfd pf = {fd, POLLOUT, 0};
        uint64_t left_ms = (deadline_ns - now) / 1000000u + 1u;
        (void)poll(&pf, 1, (int)(left_ms < 1000u ? left_ms : 1000u));
    }
}

/* The reply to HELLO: the config, then the category list whole, in pieces (manager.h). A
 * provider that does not take it within 2 s is dropped (it has printed why by then). */
static int send_config(fxt_manager_t *m, int fd) {
    uint64_t deadline = fxt__trace_mono_ns() + 2000000000u;
    if (send_all(fd, &m->reply, sizeof m->reply, deadline) != 0) {
        return -1;
    }
    for (uint32_t off = 0; off < m->reply.categories_len;) {
        uint32_t k =
            m->reply.categories_len - off < FXT_MGR_PIECE ? m->reply.categories_len - off : FXT_MGR_PIECE;
        if (send_all(fd, m->cats + off, k, deadline) != 0) {
            return -1;
        }
        off += k;
    }
    return 0;
}

typedef struct trig_rule {
    char name[64];
    fxt_trigger_action action;
} trig_rule_t;

static void raise_trigger(fxt_manager_t *m, const fxt_manager_trigger_t *t) {
    if (m->npending < sizeof m->pending / sizeof m->pending[0]) {
        m->pending[m->npending++] = *t;
        m->hold |= t->action == FXT_TRIGGER_SNAPSHOT; /* until fxt_manager_snapshot or _hold(m, 0) */
    } else {
        m->triggers_lost++; /* the caller learns it: fxt_manager_triggers_lost */
    }
}

/* An ALERT from p (its name NUL-terminated by the caller): a trigger if a rule names it. */
static void alert(fxt_manager_t *m, const prov_t *p, const char *name, uint64_t ticks) {
    for (size_t i = 0; i < m->nrules; i++) {
        if (strcmp(m->rules[i].name, name) == 0) {
            fxt_manager_trigger_t t;
            memset(&t, 0, sizeof t);
            t.kind = FXT_TRIGGER_ALERT;
            t.action = m->rules[i].action;
            t.ticks = ticks;
            t.pid = p->pid;
            memcpy(t.name, m->rules[i].name, sizeof t.name);
            raise_trigger(m, &t);
            return;
        }
    }
}

/* One message (or EOF) from provider p. */
static void serve(fxt_manager_t *m, prov_t *p) {
    fxt__mgr_packet_t pk;
    fxt__mgr_packet_init(&pk, FXT__MGR_MAX_FDS);
    ssize_t r = recvmsg(p->fd, &pk.mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
    struct msghdr *mh = &pk.mh;
    fxt_mgr_msg_t msg = pk.msg;
    if (r < 0 && (errno == EAGAIN || errno == EINTR)) {
        return;
    }
    int fd = -1;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(mh); c != NULL; c = CMSG_NXTHDR(mh, c)) {
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
            size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
            for (size_t j = 0; j < k; j++) {
                int f;
                memcpy(&f, CMSG_DATA(c) + j * sizeof(int), sizeof f);
                if (fd < 0) {
                    fd = f;
                } else {
                    close(f);
                }
            }
        }
    }
    if (r <= 0) { /* EOF: the provider is gone */
        close(p->fd);
        p->fd = -1;
        if (fd >= 0) {
            close(fd);
        }
        if (p->bye || p->h == NULL) {
            collect(m, p);
        } else {
            p->eof_ns = fxt__trace_mono_ns(); /* collected once its exit status is known */
        }
        return;
    }
    if ((size_t)r != sizeof msg || msg.magic != FXT_MGR_MAGIC) {
        if (fd >= 0) {
            close(fd);
        }
        if (p->pid == 0 && p->h == NULL) {
            /* a first message of another protocol (an older libfxt): hang up at once, so it
             * says it is not traced now rather than after its wait for a reply */
            close(p->fd);
            p->fd = -1;
            p->done = 1;
        }
        return;
    }
    msg.name[sizeof msg.name - 1] = '\0';
    if (msg.type == FXT_MSG_HELLO) {
        p->pid = msg.pid;
        p->ppid = msg.ppid;
        memcpy(p->name, msg.name, sizeof p->name);
        if (send_config(m, p->fd) != 0) {
            close(p->fd);
            p->fd = -1;
            p->done = 1;
        }
    } else if (msg.type == FXT_MSG_BUFFER && fd >= 0 && p->h == NULL) {
        map_buffer(p, fd);
        if (p->h != NULL && p->h->chunk_size > m->scratch_cap) {
            uint8_t *s = realloc(m->scratch, p->h->chunk_size);
            if (s != NULL) {
                m->scratch = s;
                m->scratch_cap = p->h->chunk_size;
            } else {
                munmap(p->map, p->map_size);
                p->map = NULL;
                p->h = NULL;
            }
        }
    } else if (msg.type == FXT_MSG_BYE) {
        p->bye = 1;
        p->byemsg = msg;
    } else if (msg.type == FXT_MSG_ALERT && p->h != NULL) {
        alert(m, p, msg.name, msg.records);
    }
    if (fd >= 0) {
        close(fd);
    }
}

static void accept_all(fxt_manager_t *m) {
    for (;;) {
        int fd = accept4(m->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            return;
        }
        /* the socket is private (0600), and so is the recording: same user only */
        struct ucred cr;
        socklen_t cl = sizeof cr;
        if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &cl) != 0 || cr.uid != getuid()) {
            close(fd);
            continue;
        }
        if (m->np == m->cap) {
            size_t nc = m->cap ? m->cap * 2 : 16;
            prov_t *n = realloc(m->p, nc * sizeof *n);
            if (n == NULL) {
                close(fd);
                return;
            }
            m->p = n;
            m->cap = nc;
        }
        prov_t *p = &m->p[m->np++];
        memset(p, 0, sizeof *p);
        p->fd = fd;
        p->hello_ns = fxt__trace_mono_ns();
        p->id = m->next_id++;
        snprintf(p->name, sizeof p->name, "process");
    }
}

/* ---- API -------------------------------------------------------------------------------------- */

/*
 * A manager killed with SIGKILL cannot remove its socket directory. The next
 * one removes those of dead managers: directories named fxt-record-PID-*,
 * owned by this user, whose PID no longer exists, holding at most the socket.
 * Anything unexpected is left alone.
 */
static void sweep_stale_dirs(const char *base) {
    DIR *d = opendir(base);
    if (d == NULL) {
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char *end;
        if (strncmp(e->d_name, "fxt-record-", 11) != 0) {
            continue;
        }
        long pid = strtol(e->d_name + 11, &end, 10);
        if (end == e->d_name + 11 || *end != '-' || pid <= 0 ||
            (kill((pid_t)pid, 0) == 0 || errno != ESRCH)) {
            continue;
        }
        char dir[PATH_MAX], sock[PATH_MAX + 16];
        struct stat sb;
        if (snprintf(dir, sizeof dir, "%s/%s", base, e->d_name) >= (int)sizeof dir || lstat(dir, &sb) != 0 ||
            !S_ISDIR(sb.st_mode) || sb.st_uid != getuid()) {
            continue;
        }
        snprintf(sock, sizeof sock, "%s/manager.sock", dir);
        if (lstat(sock, &sb) == 0 && S_ISSOCK(sb.st_mode)) {
            unlink(sock);
        }
        rmdir(dir); /* fails, harmlessly, if anything else is in it */
    }
    closedir(d);
}

fxt_status fxt_manager_create(const fxt_manager_config_t *cfg, fxt_manager_t **out) {
    fxt_manager_config_t c = FXT_MANAGER_CONFIG_INIT;
    if (out == NULL || cfg == NULL || fxt__options_read(&c, sizeof c, cfg) != FXT_OK ||
        c.sink.write == NULL || c.mode > FXT_MODE_STREAMING) {
        return FXT_E_INVALID_ARG;
    }
    *out = NULL;
    size_t ncats = c.categories != NULL ? strlen(c.categories) : 0;
    if (ncats > UINT32_MAX) { /* the protocol's length field */
        return FXT_E_INVALID_ARG;
    }
    fxt_manager_t *m = calloc(1, sizeof *m);
    if (m == NULL) {
        return FXT_E_NOMEM;
    }
    /* kept whole, as the user gave it (no fixed-size copy: issue #24.3) */
    m->cats = malloc(ncats + 1);
    if (m->cats == NULL) {
        free(m);
        return FXT_E_NOMEM;
    }
    memcpy(m->cats, ncats ? c.categories : "", ncats + 1);
    m->lfd = -1;
    m->next_id = 1;
    /* one clock for every provider: TSC calibrated once, here, or CLOCK_MONOTONIC */
    m->tps = 1000000000u;
    if (c.clock == FXT_CLOCK_TSC || (c.clock == FXT_CLOCK_AUTO && fxt__trace_tsc_invariant())) {
        uint64_t tps = fxt__trace_calibrate_tsc();
        if (tps > 0) {
            m->tsc = 1;
            m->tps = tps;
        }
    }
    m->reply.magic = FXT_MGR_MAGIC;
    m->reply.mode = (uint32_t)c.mode;
    m->reply.clock = m->tsc ? FXT_SHM_CLOCK_TSC : FXT_SHM_CLOCK_MONOTONIC;
    m->reply.buffer_size = c.buffer_size;
    m->reply.ticks_per_second = m->tps;
    m->reply.categories_len = (uint32_t)ncats;
    struct sockaddr_un a;
    memset(&a, 0, sizeof a);
    a.sun_family = AF_UNIX;
    if (c.socket_path != NULL) {
        snprintf(m->path, sizeof m->path, "%s", c.socket_path);
    } else {
        const char *base = getenv("XDG_RUNTIME_DIR");
        /* The socket path must fit sockaddr_un's sun_path: a base too deep for
         * "/fxt-record-PID-XXXXXX/manager.sock" is passed over for /tmp. */
        if (base == NULL || base[0] == '\0' || access(base, W_OK) != 0 ||
            strlen(base) + 48 > sizeof a.sun_path) {
            base = "/tmp";
        }
        sweep_stale_dirs(base);
        /* The pid in the name lets a later run see that this one is gone (sweep_stale_dirs). */
        snprintf(m->dir, sizeof m->dir, "%s/fxt-record-%ld-XXXXXX", base, (long)getpid());
        if (mkdtemp(m->dir) == NULL) { /* mode 0700 */
            m->dir[0] = '\0';
            fxt_manager_destroy(m);
            return FXT_E_IO;
        }
        snprintf(m->path, sizeof m->path, "%s/manager.sock", m->dir);
    }
    if (strlen(m->path) >= sizeof a.sun_path) {
        fxt_manager_destroy(m);
        return FXT_E_INVALID_ARG;
    }
    memcpy(a.sun_path, m->path, strlen(m->path) + 1);
    m->lfd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    mode_t old = umask(0177); /* the socket is created 0600 */
    int b = m->lfd >= 0 ? bind(m->lfd, (struct sockaddr *)&a, sizeof a) : -1;
    umask(old);
    if (b != 0 || listen(m->lfd, 64) != 0) {
        m->path[0] = '\0'; /* not ours: not removed */
        fxt_manager_destroy(m);
        return FXT_E_IO;
    }
    fxt_status st = fxt_writer_create(NULL, c.sink, &m->w);
    if (st != FXT_OK) {
        fxt_manager_destroy(m);
        return st;
    }
    fxt_write_magic(m->w);
    *out = m;
    return FXT_OK;
}

const char *fxt_manager_socket_path(const fxt_manager_t *m) { return m ? m->path : NULL; }

uint64_t fxt_manager_ticks_per_second(const fxt_manager_t *m, int *is_tsc) {
    if (is_tsc != NULL) {
        *is_tsc = m->tsc;
    }
    return m->tps;
}

fxt_status fxt_manager_poll(fxt_manager_t *m, int timeout_ms) {
    if (m == NULL || m->stopped) {
        return FXT_E_STATE;
    }
    struct pollfd *pf = calloc(m->np + 1, sizeof *pf);
    size_t *who = calloc(m->np + 1, sizeof *who);
    if (pf == NULL || who == NULL) {
        free(pf);
        free(who);
        return FXT_E_NOMEM;
    }
    size_t n = 0;
    pf[n].fd = m->lfd;
    pf[n++].events = POLLIN;
    for (size_t i = 0; i < m->np; i++) {
        if (m->p[i].fd >= 0) {
            who[n] = i;
            pf[n].fd = m->p[i].fd;
            pf[n++].events = POLLIN;
        }
    }
    int r = poll(pf, (nfds_t)n, timeout_ms);
    if (r > 0) {
        for (size_t k = 1; k < n; k++) {
            if (pf[k].revents != 0) {
                /* a streaming provider may send many wakeups: read them all */
                for (int j = 0; j < 64 && m->p[who[k]].fd >= 0; j++) {
                    size_t before = m->p[who[k]].fd >= 0;
                    serve(m, &m->p[who[k]]);
                    struct pollfd one = {m->p[who[k]].fd, POLLIN, 0};
                    if (!before || m->p[who[k]].fd < 0 || poll(&one, 1, 0) <= 0) {
                        break;
                    }
                }
            }
        }
        if (pf[0].revents != 0) {
            accept_all(m);
        }
    }
    free(pf);
    free(who);
    uint64_t now = fxt__trace_mono_ns();
    for (size_t i = 0; i < m->np; i++) {
        prov_t *p = &m->p[i];
        if (p->done || p->h == NULL) {
            continue;
        }
        if (p->fd < 0 && (find_exit(m, p) != NULL || now - p->eof_ns > LOST_GRACE_NS)) {
            collect(m, p);
        } else if (p->h->mode == FXT_MODE_STREAMING) {
            write_chunks(m, p, 1);
        }
    }
    return fxt_writer_status(m->w);
}

void fxt_manager_note_exit(fxt_manager_t *m, uint64_t pid, int wait_status) {
    if (m == NULL) {
        return;
    }
    if (m->nexits == m->capexits) {
        size_t nc = m->capexits ? m->capexits * 2 : 16;
        exit_note_t *n = realloc(m->exits, nc * sizeof *n);
        if (n == NULL) {
            return;
        }
        m->exits = n;
        m->capexits = nc;
    }
    m->exits[m->nexits].pid = pid;
    m->exits[m->nexits].ns = fxt__trace_mono_ns();
    m->exits[m->nexits++].wstatus = wait_status;
    if (m->on_crash && WIFSIGNALED(wait_status)) {
        for (size_t i = m->np; i-- > 0;) {
            prov_t *p = &m->p[i];
            if (p->pid == pid && p->h != NULL && !p->bye) {
                p->keep = 1; /* its buffer, as it died, goes into the snapshot */
                fxt_manager_trigger_t t;
                memset(&t, 0, sizeof t);
                t.kind = FXT_TRIGGER_CRASH;
                t.action = FXT_TRIGGER_SNAPSHOT;
                t.ticks = mgr_now(m);
                t.pid = pid;
                t.signal = WTERMSIG(wait_status);
                memcpy(t.name, p->name, sizeof t.name);
                raise_trigger(m, &t);
                break;
            }
        }
    }
}

size_t fxt_manager_connected(const fxt_manager_t *m) {
    size_t n = 0;
    for (size_t i = 0; m != NULL && i < m->np; i++) {
        n += !m->p[i].done;
    }
    return n;
}

fxt_status fxt_manager_stop(fxt_manager_t *m) {
    if (m == NULL) {
        return FXT_E_INVALID_ARG;
    }
    if (!m->stopped) {
        /* last messages (BYE, buffers) already sent */
        for (size_t i = 0; i < m->np; i++) {
            for (int j = 0; j < 1024 && m->p[i].fd >= 0; j++) {
                struct pollfd one = {m->p[i].fd, POLLIN, 0};
                if (poll(&one, 1, 0) <= 0) {
                    break;
                }
                serve(m, &m->p[i]);
            }
        }
        for (size_t i = 0; i < m->np; i++) {
            collect(m, &m->p[i]);
        }
        m->stopped = 1;
        m->section = 0;
    }
    return fxt_writer_status(m->w);
}

fxt_writer_t *fxt_manager_writer(fxt_manager_t *m) { return m ? m->w : NULL; }

uint32_t fxt_manager_next_provider_id(fxt_manager_t *m) { return m ? m->next_id++ : 0; }

fxt_status fxt_manager_object_named(const fxt_manager_t *m, uint32_t obj_type, uint64_t koid, int *named) {
    if (m == NULL || named == NULL || obj_type > FXT_MAX_OBJ_TYPE) {
        return FXT_E_INVALID_ARG;
    }
    *named = m->named_oom || (obj_type != 0 && m->named_cap != 0 &&
                              m->named[named_slot(m->named, m->named_cap, obj_type, koid)].type != 0);
    return FXT_OK;
}

size_t fxt_manager_provider_count(const fxt_manager_t *m) { return m ? m->np : 0; }

void fxt_manager_get_provider(const fxt_manager_t *m, size_t i, fxt_manager_provider_t *out) {
    memset(out, 0, sizeof *out);
    if (m == NULL || i >= m->np) {
        return;
    }
    const prov_t *p = &m->p[i];
    out->id = p->id;
    out->pid = p->pid;
    memcpy(out->name, p->name, sizeof out->name);
    out->events = p->events;
    out->bytes = p->bytes;
    out->dropped = prov_dropped(p);
    out->overwritten = prov_overwritten(p);
    out->buffer_bytes = p->map_size;
    out->buffer_pages = prov_pages(p);
    const exit_note_t *e = find_exit(m, p);
    if (e != NULL && WIFSIGNALED(e->wstatus)) {
        out->end = FXT_PROVIDER_SIGNALED;
        out->status = WTERMSIG(e->wstatus);
    } else if (p->bye) {
        out->end = FXT_PROVIDER_CLEAN;
        out->status = e != NULL && WIFEXITED(e->wstatus) ? WEXITSTATUS(e->wstatus) : 0;
    } else if (e != NULL && WIFEXITED(e->wstatus)) {
        out->end = FXT_PROVIDER_EXITED;
        out->status = WEXITSTATUS(e->wstatus);
    } else {
        out->end = p->fd >= 0 || p->eof_ns == 0 ? FXT_PROVIDER_RUNNING : FXT_PROVIDER_LOST;
    }
}

fxt_status fxt_manager_finish(fxt_manager_t *m) {
    if (m == NULL) {
        return FXT_E_INVALID_ARG;
    }
    fxt_manager_stop(m);
    return fxt_writer_finish(m->w);
}

void fxt_manager_destroy(fxt_manager_t *m) {
    if (m == NULL) {
        return;
    }
    for (size_t i = 0; i < m->np; i++) {
        if (m->p[i].fd >= 0) {
            close(m->p[i].fd);
        }
        if (m->p[i].map != NULL) {
            munmap(m->p[i].map, m->p[i].map_size);
        }
    }
    if (m->lfd >= 0) {
        close(m->lfd);
    }
    if (m->path[0] != '\0' && m->lfd >= 0) {
        unlink(m->path);
    }
    if (m->dir[0] != '\0') {
        rmdir(m->dir);
    }
    fxt_writer_destroy(m->w);
    free(m->p);
    free(m->exits);
    free(m->scratch);
    free(m->named);
    free(m->cats);
    free(m->rules);
    free(m->snap);
    free(m);
}

/* ---- triggers and snapshots ------------------------------------------------------------------- */

fxt_status fxt_manager_add_trigger(fxt_manager_t *m, const char *name, fxt_trigger_action action) {
    size_t len = name != NULL ? strlen(name) : 0;
    if (m == NULL || len == 0 || len > 63 || (action != FXT_TRIGGER_SNAPSHOT && action != FXT_TRIGGER_STOP)) {
        return FXT_E_INVALID_ARG;
    }
    trig_rule_t *r = realloc(m->rules, (m->nrules + 1) * sizeof *r);
    if (r == NULL) {
        return FXT_E_NOMEM;
    }
    m->rules = r;
    memset(&r[m->nrules], 0, sizeof *r);
    memcpy(r[m->nrules].name, name, len);
    r[m->nrules++].action = action;
    return FXT_OK;
}

static void snap_release(fxt_manager_t *m, int force);

fxt_status fxt_manager_set_on_crash(fxt_manager_t *m, int on) {
    if (m == NULL) {
        return FXT_E_INVALID_ARG;
    }
    m->on_crash = on != 0;
    if (!on) {
        snap_release(m, 1); /* no snapshot will hold them */
    }
    return FXT_OK;
}

fxt_status fxt_manager_set_snapshot_source(fxt_manager_t *m, fxt_snapshot_source_fn fn, void *ctx) {
    if (m == NULL) {
        return FXT_E_INVALID_ARG;
    }
    m->src = fn;
    m->src_ctx = ctx;
    return FXT_OK;
}

fxt_status fxt_manager_hold(fxt_manager_t *m, int on) {
    if (m == NULL) {
        return FXT_E_INVALID_ARG;
    }
    if (on) {
        m->hold = 1;
    } else {
        snap_release(m, 1);
    }
    return FXT_OK;
}

fxt_status fxt_manager_take_trigger(fxt_manager_t *m, fxt_manager_trigger_t *out) {
    if (m == NULL || out == NULL) {
        return FXT_E_INVALID_ARG;
    }
    if (m->npending == 0) {
        return FXT_E_NOT_FOUND;
    }
    *out = m->pending[0];
    memmove(m->pending, m->pending + 1, (m->npending - 1) * sizeof m->pending[0]);
    m->npending--;
    return FXT_OK;
}

fxt_status fxt_manager_triggers_lost(const fxt_manager_t *m, uint64_t *out) {
    if (m == NULL || out == NULL) {
        return FXT_E_INVALID_ARG;
    }
    *out = m->triggers_lost;
    return FXT_OK;
}

uint64_t fxt_manager_now(const fxt_manager_t *m) { return m != NULL ? mgr_now(m) : 0; }

/* A chunk as a snapshot copied it. */
typedef struct snap_ck {
    uint64_t tid, seq;
    size_t off;    /* its bytes in m->snap */
    uint32_t prov; /* index in m->p */
    uint32_t i;    /* chunk index in the provider's buffer */
    uint32_t used;
    int torn; /* reused while it was copied: left out */
} snap_ck_t;

static int cmp_snap(const void *a, const void *b) {
    const snap_ck_t *x = a, *y = b;
    if (x->prov != y->prov) {
        return x->prov < y->prov ? -1 : 1;
    }
    if (x->tid != y->tid) {
        return x->tid < y->tid ? -1 : 1;
    }
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* List every used chunk of every mapped provider (sequence, then committed length, both
 * acquired), in *nv entries of v (room for all chunks). The bytes listed, rounded to 8. */
static size_t snap_list(const fxt_manager_t *m, snap_ck_t *v, size_t *nv) {
    size_t n = 0, total = 0;
    for (size_t k = 0; k < m->np; k++) {
        const prov_t *p = &m->p[k];
        for (uint32_t i = 0; p->h != NULL && i < p->h->nchunks; i++) {
            uint64_t seq = __atomic_load_n(&p->d[i].seq, __ATOMIC_ACQUIRE);
            uint32_t st = __atomic_load_n(&p->d[i].state, __ATOMIC_ACQUIRE);
            uint32_t used = __atomic_load_n(&p->d[i].used, __ATOMIC_ACQUIRE);
            if (seq == 0 || st == FXT_CHUNK_FREE) {
                continue;
            }
            v[n].tid = __atomic_load_n(&p->d[i].tid, __ATOMIC_RELAXED);
            v[n].seq = seq;
            v[n].prov = (uint32_t)k;
            v[n].i = i;
            v[n].used = used > p->h->chunk_size ? p->h->chunk_size : used;
            v[n].used &= ~7u;
            v[n].off = total;
            v[n].torn = 0;
            total += v[n].used;
            n++;
        }
    }
    *nv = n;
    return total;
}

/*
 * Copy every provider's committed chunks at once, each then checked by its sequence number
 * again (a seqlock): a chunk a live circular provider took meanwhile may hold torn bytes and
 * is left out. A thread's chunks are reused oldest first and copied oldest first, so a torn
 * chunk has only older ones before it that were copied whole: those are left out too, and
 * what is kept of each thread stays gap-free. Copying everything first keeps the window
 * short (memory speed); writing the archive, slower, works on the copies.
 */
static fxt_status snap_copy(fxt_manager_t *m, snap_ck_t **out, size_t *nout) {
    size_t cap = 0;
    for (size_t k = 0; k < m->np; k++) {
        cap += m->p[k].h != NULL ? m->p[k].h->nchunks : 0;
    }
    snap_ck_t *v = malloc((cap ? cap : 1) * sizeof *v);
    if (v == NULL) {
        return FXT_E_NOMEM;
    }
    size_t n, total = snap_list(m, v, &n);
    if (total > m->snap_cap) {
        uint8_t *b = realloc(m->snap, total);
        if (b == NULL) {
            free(v);
            return FXT_E_NOMEM;
        }
        m->snap = b;
        m->snap_cap = total;
    }
    qsort(v, n, sizeof *v, cmp_snap);
    for (size_t j = 0; j < n; j++) {
        const prov_t *p = &m->p[v[j].prov];
        memcpy(m->snap + v[j].off, p->map + p->h->data_offset + (size_t)v[j].i * p->h->chunk_size, v[j].used);
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        v[j].torn = __atomic_load_n(&p->d[v[j].i].seq, __ATOMIC_RELAXED) != v[j].seq;
    }
    for (size_t j = n; j-- > 1;) {
        if (v[j].torn && v[j - 1].prov == v[j].prov && v[j - 1].tid == v[j].tid) {
            v[j - 1].torn = 1; /* older than a torn chunk of its thread: a gap otherwise */
        }
    }
    *out = v;
    *nout = n;
    return FXT_OK;
}

/* Where a snapshot goes: its writer, and the writer's sink for runs of copied records. */
typedef struct snap_out {
    fxt_writer_t *w;
    fxt_sink_t sink;
    fxt_status st; /* the first error of a direct write */
} snap_out_t;

/* A run of whole copied records, straight to the sink after what the writer holds (tens of
 * MiB: one write per run rather than a copy per record). */
static void snap_run(snap_out_t *so, const uint8_t *b, size_t len) {
    if (len == 0 || so->st != FXT_OK) {
        return;
    }
    so->st = fxt_writer_flush(so->w);
    if (so->st == FXT_OK) {
        so->st = so->sink.write(so->sink.ctx, b, len);
    }
}

/* A copied chunk's whole records stamped at or before `cut` (events, logs; the others
 * have no time and are kept), counted in *o. */
static void snap_records(snap_out_t *so, const uint8_t *b, size_t used, uint64_t cut,
                         fxt_snapshot_info_t *o) {
    size_t off = 0, run = 0;
    uint64_t h, words;
    for (; (words = record_words(b, off, used, &h)) != 0; off += (size_t)words * 8) {
        uint64_t type = fxt_get_rec_type(h);
        if ((type == FXT_RECORD_EVENT || type == FXT_RECORD_LOG) && words >= 2) {
            uint64_t ts;
            memcpy(&ts, b + off + 8, 8);
            if (ts > cut) { /* after the cut: the next snapshot's, or the final archive's */
                snap_run(so, b + run, off - run);
                run = off + (size_t)words * 8;
                continue;
            }
            o->first_ticks = o->first_ticks == 0 || ts < o->first_ticks ? ts : o->first_ticks;
            o->last_ticks = ts > o->last_ticks ? ts : o->last_ticks;
        }
        o->events += is_event_record(type);
        o->bytes += words * 8;
    }
    snap_run(so, b + run, off - run);
}

/* Provider p's section of a snapshot: the chunks v[0..n) (its own, in thread and sequence
 * order), what its buffer lost, and how it ended if it died. */
static void snap_provider(const fxt_manager_t *m, snap_out_t *so, const prov_t *p, const snap_ck_t *v,
                          size_t n, uint64_t cut, const fxt_manager_trigger_t *why, fxt_snapshot_info_t *o) {
    fxt_writer_t *w = so->w;
    char label[96];
    snprintf(label, sizeof label, "%s (%" PRIu64 ")", p->name, p->pid);
    fxt_write_provider_info(w, p->id, fxt_str_inline(fxt_cstr(label)));
    fxt_write_init(w, m->tps);
    fxt__write_process_clock(w, p->pid, p->name, p->h->anchor_ticks, m->tps, p->h->anchor_mono_ns,
                             p->h->anchor_realtime_ns);
    uint64_t torn = 0;
    for (size_t j = 0; j < n; j++) {
        torn += v[j].torn != 0;
    }
    /* before the kept chunks: they may start with ends whose begins are gone */
    uint64_t over = __atomic_load_n(&((fxt_shm_header_t *)p->h)->overwritten, __ATOMIC_RELAXED);
    uint64_t dropped = __atomic_load_n(&((fxt_shm_header_t *)p->h)->dropped, __ATOMIC_RELAXED);
    fxt__write_loss_report(w, p->id, p->pid, cut, "chunks_overwritten", over + torn);
    for (size_t j = 0; j < n; j++) {
        if (!v[j].torn) {
            snap_records(so, m->snap + v[j].off, v[j].used, cut, o);
        }
    }
    fxt__write_loss_report(w, p->id, p->pid, cut, "records_dropped", dropped);
    if (why != NULL && why->kind == FXT_TRIGGER_CRASH && why->pid == p->pid) {
        write_end(m, w, p, cut); /* the death that triggered it: how (a later one is after the cut) */
    }
    fxt_writer_reset_tables(w);
    o->providers++;
    o->overwritten += over;
    o->torn += torn;
    o->dropped += dropped;
}

/* The trigger, an instant fxt/trigger in a section of the recorder's own (id: `id`). */
static void snap_trigger(const fxt_manager_t *m, fxt_writer_t *w, uint32_t id,
                         const fxt_manager_trigger_t *why) {
    static const char *const kinds[] = {"", "alert", "signal", "crash"};
    uint64_t me = (uint64_t)getpid();
    char label[64];
    snprintf(label, sizeof label, "fxt record (%" PRIu64 ")", me);
    fxt_write_provider_info(w, id, fxt_str_inline(fxt_cstr(label)));
    fxt_write_init(w, m->tps);
    fxt_write_kernel_object(w, me, FXT_OBJ_PROCESS, fxt_str_inline(fxt_cstr("fxt record")), NULL, 0);
    const char *kind =
        why->kind >= FXT_TRIGGER_ALERT && why->kind <= FXT_TRIGGER_CRASH ? kinds[why->kind] : "";
    char name[sizeof why->name];
    memcpy(name, why->name, sizeof name);
    name[sizeof name - 1] = '\0';
    fxt_arg_t a[4] = {fxt_arg_string(fxt_str_inline(fxt_cstr("reason")), fxt_str_inline(fxt_cstr(kind))),
                      fxt_arg_string(fxt_str_inline(fxt_cstr("name")), fxt_str_inline(fxt_cstr(name))),
                      fxt_arg_uint64(fxt_str_inline(fxt_cstr("pid")), why->pid),
                      fxt_arg_int32(fxt_str_inline(fxt_cstr("signal")), why->signal)};
    fxt_write_instant(w, why->ticks, fxt_thread_inline(me, me), fxt_str_inline(fxt_cstr("fxt")),
                      fxt_str_inline(fxt_cstr("trigger")), a, 4);
}

/* Providers kept mapped for a snapshot are released once one was taken, unless another
 * snapshot trigger waits to be taken (or `force`: no snapshot will be taken). */
static void snap_release(fxt_manager_t *m, int force) {
    m->hold = 0;
    for (size_t k = 0; k < m->npending && !force; k++) {
        m->hold |= m->pending[k].action == FXT_TRIGGER_SNAPSHOT;
    }
    if (m->hold) {
        return;
    }
    for (size_t k = 0; k < m->np; k++) {
        prov_t *p = &m->p[k];
        if (p->done && p->keep && p->map != NULL) {
            munmap(p->map, p->map_size);
            p->map = NULL;
            p->h = NULL;
            p->d = NULL;
            p->keep = 0;
        }
    }
}

fxt_status fxt_manager_snapshot(fxt_manager_t *m, const fxt_manager_trigger_t *why, uint64_t cut,
                                fxt_sink_t sink, fxt_snapshot_info_t *out) {
    fxt_snapshot_info_t o;
    memset(&o, 0, sizeof o);
    if (out != NULL) {
        *out = o;
    }
    if (m == NULL || sink.write == NULL) {
        return FXT_E_INVALID_ARG;
    }
    if (m->stopped) {
        return FXT_E_STATE;
    }
    snap_ck_t *v;
    size_t n;
    uint64_t t0 = fxt__trace_mono_ns();
    fxt_status st = snap_copy(m, &v, &n);
    if (st != FXT_OK) {
        return st;
    }
    o.copy_ns = fxt__trace_mono_ns() - t0;
    fxt_writer_t *w;
    fxt_writer_options_t wo = FXT_WRITER_OPTIONS_INIT;
    wo.buffer_size = (size_t)1 << 20; /* tens of MiB of copies: fewer, larger writes */
    st = fxt_writer_create(&wo, sink, &w);
    if (st == FXT_OK) {
        snap_out_t so = {w, sink, FXT_OK};
        fxt_write_magic(w);
        for (size_t j = 0, k; j < n; j = k) {
            for (k = j; k < n && v[k].prov == v[j].prov; k++) {
            }
            snap_provider(m, &so, &m->p[v[j].prov], v + j, k - j, cut, why, &o);
        }
        uint32_t id = m->next_id; /* ids no provider of the archive uses */
        if (m->src != NULL && so.st == FXT_OK) {
            fxt_writer_flush(w);
            so.st = m->src(m->src_ctx, w, id++, o.first_ticks != 0 ? o.first_ticks : cut, cut);
            fxt_writer_reset_tables(w);
        }
        if (why != NULL) {
            snap_trigger(m, w, id, why);
        }
        st = fxt_writer_finish(w);
        st = so.st != FXT_OK ? so.st : st;
        fxt_writer_destroy(w);
    }
    free(v);
    snap_release(m, 0);
    if (out != NULL) {
        *out = o;
    }
    return st;
}

#else /* not Linux: the manager needs memfd, SCM_RIGHTS and SO_PEERCRED */

fxt_status fxt_manager_create(const fxt_manager_config_t *cfg, fxt_manager_t **out) {
    (void)cfg;
    if (out != NULL) {
        *out = NULL;
    }
    return FXT_E_UNSUPPORTED;
}
const char *fxt_manager_socket_path(const fxt_manager_t *m) { return (void)m, NULL; }
uint64_t fxt_manager_ticks_per_second(const fxt_manager_t *m, int *is_tsc) {
    return (void)m, (void)is_tsc, 0;
}
fxt_status fxt_manager_poll(fxt_manager_t *m, int timeout_ms) {
    return (void)m, (void)timeout_ms, FXT_E_UNSUPPORTED;
}
void fxt_manager_note_exit(fxt_manager_t *m, uint64_t pid, int wait_status) {
    (void)m, (void)pid, (void)wait_status;
}
size_t fxt_manager_connected(const fxt_manager_t *m) { return (void)m, 0; }
fxt_status fxt_manager_stop(fxt_manager_t *m) { return (void)m, FXT_E_UNSUPPORTED; }
fxt_writer_t *fxt_manager_writer(fxt_manager_t *m) { return (void)m, NULL; }
uint32_t fxt_manager_next_provider_id(fxt_manager_t *m) { return (void)m, 0; }
fxt_status fxt_manager_object_named(const fxt_manager_t *m, uint32_t obj_type, uint64_t koid, int *named) {
    (void)m, (void)obj_type, (void)koid;
    if (named != NULL) {
        *named = 0;
    }
    return FXT_E_UNSUPPORTED;
}
size_t fxt_manager_provider_count(const fxt_manager_t *m) { return (void)m, 0; }
void fxt_manager_get_provider(const fxt_manager_t *m, size_t i, fxt_manager_provider_t *out) {
    (void)m, (void)i;
    memset(out, 0, sizeof *out);
}
fxt_status fxt_manager_finish(fxt_manager_t *m) { return (void)m, FXT_E_UNSUPPORTED; }
void fxt_manager_destroy(fxt_manager_t *m) { (void)m; }
fxt_status fxt_manager_add_trigger(fxt_manager_t *m, const char *name, fxt_trigger_action action) {
    return (void)m, (void)name, (void)action, FXT_E_UNSUPPORTED;
}
fxt_status fxt_manager_set_on_crash(fxt_manager_t *m, int on) { return (void)m, (void)on, FXT_E_UNSUPPORTED; }
fxt_status fxt_manager_take_trigger(fxt_manager_t *m, fxt_manager_trigger_t *out) {
    return (void)m, (void)out, FXT_E_UNSUPPORTED;
}
fxt_status fxt_manager_triggers_lost(const fxt_manager_t *m, uint64_t *out) {
    return (void)m, (void)out, FXT_E_UNSUPPORTED;
}
uint64_t fxt_manager_now(const fxt_manager_t *m) { return (void)m, 0; }
fxt_status fxt_manager_hold(fxt_manager_t *m, int on) { return (void)m, (void)on, FXT_E_UNSUPPORTED; }
fxt_status fxt_manager_set_snapshot_source(fxt_manager_t *m, fxt_snapshot_source_fn fn, void *ctx) {
    return (void)m, (void)fn, (void)ctx, FXT_E_UNSUPPORTED;
}
fxt_status fxt_manager_snapshot(fxt_manager_t *m, const fxt_manager_trigger_t *why, uint64_t cut,
                                fxt_sink_t sink, fxt_snapshot_info_t *out) {
    (void)m, (void)why, (void)cut, (void)sink;
    if (out != NULL) {
        memset(out, 0, sizeof *out);
    }
    return FXT_E_UNSUPPORTED;
}

#endif
