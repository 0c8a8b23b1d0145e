/* SPDX-License-Identifier: MIT */
/*
 * The trace manager in-process: a manager thread serves this process, which
 * registers as a provider (FXT_TRACE_MANAGER) and traces from 8 threads, in
 * each mode. Every thread's events are in the archive, counted exactly:
 * kept + reported drops = emitted (oneshot, streaming); circular keeps each
 * thread's newest events without gaps. Runs under TSan (label threads).
 */
#define _GNU_SOURCE 1 /* memfd_create (the fake provider) */
#include <fxt/manager.h>
#include <fxt/reader.h>
#include <fxt/trace.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#endif

#include "mgr_thread.h"
#include "test.h"

#define NT 8
#define MAX_SEEN 64

static long g_n;
static int g_pace; /* streaming: pause now and then, so that the manager drains while threads trace */

static void *emitter(void *arg) {
    long j = (long)(intptr_t)arg;
    for (long i = 0; i < g_n; i++) {
        if (i == 100) { /* renamed after its first chunk: the archive has the new name */
            char name[32];
            snprintf(name, sizeof name, "renamed-%ld", j);
            fxt_set_thread_name(name);
        }
        FXT_INSTANT("stress", "ev", FXT_I64("thread", j), FXT_I64("seq", i));
        if (g_pace && i % 250 == 249) {
            struct timespec d = {0, 1000000};
            nanosleep(&d, NULL);
        }
    }
    return NULL;
}

typedef struct seen {
    long n[NT], first[NT], last[NT], gaps;
    uint64_t dropped_reported;
    int providers, errors;
    int renamed[NT];
} seen_t;

static void read_archive(const fxt_membuf_t *mem, seen_t *s) {
    memset(s, 0, sizeof *s);
    for (int j = 0; j < NT; j++) {
        s->first[j] = -1;
        s->last[j] = -1;
    }
    fxt_reader_t *r;
    fxt_reader_create(NULL, &r);
    fxt_in_buffer_t in = {mem->data, mem->len, 0};
    fxt_record_t rec;
    for (;;) {
        fxt_status st = fxt_reader_next(r, &in, &rec);
        if (st == FXT_NEED_INPUT || st == FXT_END) {
            break;
        }
        if (st != FXT_OK) {
            s->errors++;
            continue;
        }
        if (rec.kind == FXT_KIND_PROVIDER_INFO) {
            s->providers++;
        }
        const fxt_str_t *kn = &rec.u.kernel_object.name;
        if (rec.kind == FXT_KIND_KERNEL_OBJECT && kn->len == 9 && memcmp(kn->ptr, "renamed-", 8) == 0 &&
            kn->ptr[8] >= '0' && kn->ptr[8] < '0' + NT) {
            s->renamed[kn->ptr[8] - '0'] = 1;
        }
        if (rec.kind != FXT_KIND_EVENT) {
            continue;
        }
        if (rec.u.event.name.len == 15 && memcmp(rec.u.event.name.ptr, "records_dropped", 15) == 0) {
            s->dropped_reported += rec.args[0].v.u64;
        }
        if (rec.nargs != 2 || rec.args[0].v.i64 < 0 || rec.args[0].v.i64 >= NT) {
            continue;
        }
        long j = (long)rec.args[0].v.i64, i = (long)rec.args[1].v.i64;
        if (s->last[j] >= 0 && i != s->last[j] + 1) {
            s->gaps++; /* oneshot and circular keep a thread's events without gaps */
        }
        if (s->first[j] < 0) {
            s->first[j] = i;
        }
        s->last[j] = i;
        s->n[j]++;
    }
    fxt_reader_destroy(r);
}

static void run_mode(fxt_buffer_mode mode, size_t buffer, long n) {
    fxt_membuf_t mem = {0};
    fxt_manager_config_t mc = FXT_MANAGER_CONFIG_INIT;
    mc.sink = fxt_sink_membuf(&mem);
    mc.mode = mode;
    mc.buffer_size = buffer;
    mc.categories = "stress";
    mc.clock = FXT_CLOCK_MONOTONIC;
    mgr_thread_t x = {NULL, 0, 0};
    CHECK(fxt_manager_create(&mc, &x.m) == FXT_OK);
    if (x.m == NULL) {
        return;
    }
    struct stat st;
    CHECK(stat(fxt_manager_socket_path(x.m), &st) == 0 && (st.st_mode & 0777) == 0600);
    CHECK(pthread_create(&x.th, NULL, serve, &x) == 0);
    setenv(FXT_MANAGER_ENV, fxt_manager_socket_path(x.m), 1);
    /* under a manager the manager's configuration wins: no output needed */
    fxt_session_config_t c = FXT_SESSION_CONFIG_INIT;
    CHECK(fxt_session_start(&c) == FXT_OK);
    g_n = n;
    g_pace = mode == FXT_MODE_STREAMING;
    pthread_t th[NT];
    for (long j = 0; j < NT; j++) {
        pthread_create(&th[j], NULL, emitter, (void *)(intptr_t)j);
    }
    for (long j = 0; j < NT; j++) {
        pthread_join(th[j], NULL);
    }
    CHECK(fxt_session_stop() == FXT_OK);
    fxt_session_stats_t ss;
    fxt_session_get_stats(&ss);
    unsetenv(FXT_MANAGER_ENV);
    __atomic_store_n(&x.stop, 1, __ATOMIC_RELEASE);
    pthread_join(x.th, NULL);
    CHECK(fxt_manager_finish(x.m) == FXT_OK);
    fxt_manager_provider_t p;
    CHECK_EQ_U64(fxt_manager_provider_count(x.m), 1);
    fxt_manager_get_provider(x.m, 0, &p);
    CHECK(p.end == FXT_PROVIDER_CLEAN);
    CHECK_EQ_U64(p.pid, (uint64_t)getpid());
    fxt_manager_destroy(x.m);

    seen_t s;
    read_archive(&mem, &s);
    CHECK_EQ_I64(s.errors, 0);
    CHECK_EQ_I64(s.providers, 1);
    long kept = 0;
    for (int j = 0; j < NT; j++) {
        kept += s.n[j];
        CHECK(s.renamed[j] || s.last[j] < 100); /* a thread with events after the rename */
        if (mode == FXT_MODE_CIRCULAR) {
            CHECK(s.n[j] > 0 && s.last[j] == n - 1); /* the newest, up to the last */
        } else if (mode == FXT_MODE_ONESHOT && s.n[j] > 0) {
            CHECK_EQ_I64(s.first[j], 0); /* the first ones */
        }
    }
    printf("mode %d: %ld kept, %llu dropped\n", (int)mode, kept, (unsigned long long)s.dropped_reported);
    CHECK(kept > 0);
    if (mode == FXT_MODE_STREAMING) {
        /* more than the buffer holds (~21.8k of these events in 1 MiB): drained while tracing */
        CHECK(kept > 22000);
    }
    if (mode != FXT_MODE_STREAMING) {
        CHECK_EQ_I64(s.gaps, 0);
    }
    if (mode != FXT_MODE_CIRCULAR) {
        /* every emitted event is kept or reported dropped, per the archive and the summary */
        CHECK_EQ_U64((uint64_t)kept + s.dropped_reported, (uint64_t)NT * (uint64_t)n);
        CHECK_EQ_U64(p.dropped, ss.dropped);
        CHECK_EQ_U64(p.events, (uint64_t)kept);
    }
    fxt_membuf_free(&mem);
}

static void test_stress_oneshot(void) { run_mode(FXT_MODE_ONESHOT, 1u << 20, 20000); }
static void test_stress_circular(void) { run_mode(FXT_MODE_CIRCULAR, 1u << 20, 20000); }
static void test_stress_streaming(void) { run_mode(FXT_MODE_STREAMING, 1u << 20, 20000); }

#if defined(__linux__)
/* Poll m until cond(fd) holds (at most ~2 s): the fake provider and the manager share a thread. */
static int pump_recv(fxt_manager_t *m, int fd, void *buf, size_t len) {
    for (int i = 0; i < 1000; i++) {
        fxt_manager_poll(m, 2);
        ssize_t r = recv(fd, buf, len, MSG_DONTWAIT);
        if (r >= 0) {
            return (int)r;
        }
    }
    return -1;
}

static void send_msg(int fd, uint32_t type, int pass_fd) {
    fxt_mgr_msg_t msg;
    memset(&msg, 0, sizeof msg);
    msg.magic = FXT_MGR_MAGIC;
    msg.type = type;
    msg.pid = 4000000001u; /* no such process: its end is "lost" or clean */
    msg.ppid = 1;
    snprintf(msg.name, sizeof msg.name, "argv0-name");
    struct iovec iov = {&msg, sizeof msg};
    union {
        char buf[CMSG_SPACE(sizeof(int))];
        size_t align;
    } ctl;
    struct msghdr mh;
    memset(&mh, 0, sizeof mh);
    mh.msg_iov = &iov;
    mh.msg_iovlen = 1;
    if (pass_fd >= 0) {
        memset(&ctl, 0, sizeof ctl);
        mh.msg_control = ctl.buf;
        mh.msg_controllen = sizeof ctl.buf;
        struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &pass_fd, sizeof(int));
    }
    CHECK(sendmsg(fd, &mh, MSG_NOSIGNAL) == (ssize_t)sizeof msg);
}

/*
 * A provider speaking the protocol by hand: HELLO as "argv0-name", a one-chunk buffer whose
 * chunk names thread 4000000002, then the program renames its process in its shared header
 * (a name of 64 bytes without NUL: cut, never read past) and says BYE. The archive names the
 * provider and the process after the program's name, and fxt_manager_object_named() knows
 * the process and the thread (issue #24.4, #24.5).
 */
static void fake_provider(fxt_buffer_mode mode, int long_name) {
    fxt_membuf_t mem = {0};
    fxt_manager_config_t mc = FXT_MANAGER_CONFIG_INIT;
    mc.sink = fxt_sink_membuf(&mem);
    mc.mode = mode;
    mc.clock = FXT_CLOCK_MONOTONIC;
    fxt_manager_t *m = NULL;
    CHECK(fxt_manager_create(&mc, &m) == FXT_OK);
    if (m == NULL) {
        return;
    }
    int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    struct sockaddr_un a;
    memset(&a, 0, sizeof a);
    a.sun_family = AF_UNIX;
    snprintf(a.sun_path, sizeof a.sun_path, "%s", fxt_manager_socket_path(m));
    CHECK(connect(fd, (struct sockaddr *)&a, sizeof a) == 0);
    send_msg(fd, FXT_MSG_HELLO, -1);
    fxt_mgr_config_t cfg;
    CHECK(pump_recv(m, fd, &cfg, sizeof cfg) == (int)sizeof cfg);
    /* the buffer: header, one descriptor, one 4 KiB chunk at 4096 */
    size_t size = 8192;
    int mfd = memfd_create("fake-provider", MFD_CLOEXEC);
    CHECK(mfd >= 0 && ftruncate(mfd, (off_t)size) == 0);
    uint8_t *map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
    CHECK(map != MAP_FAILED);
    fxt_shm_header_t *h = (fxt_shm_header_t *)map;
    h->magic = FXT_SHM_MAGIC;
    h->version = FXT_SHM_VERSION;
    h->header_size = sizeof *h;
    h->mode = (uint32_t)mode;
    h->chunk_size = 4096;
    h->nchunks = 1;
    h->clock = FXT_SHM_CLOCK_MONOTONIC;
    h->ticks_per_second = 1000000000u;
    h->chunks_offset = sizeof *h;
    h->data_offset = 4096;
    h->pid = 4000000001u;
    snprintf(h->name, sizeof h->name, "argv0-name");
    fxt_membuf_t rec = {0};
    fxt_writer_t *w = NULL;
    CHECK(fxt_writer_create(NULL, fxt_sink_membuf(&rec), &w) == FXT_OK);
    fxt_arg_t arg = fxt_arg_koid(fxt_str_inline(fxt_cstr("process")), 4000000001u);
    CHECK(fxt_write_kernel_object(w, 4000000002u, FXT_OBJ_THREAD, fxt_str_inline(fxt_cstr("fake-thread")),
                                  &arg, 1) == FXT_OK);
    CHECK(fxt_writer_finish(w) == FXT_OK);
    fxt_writer_destroy(w);
    CHECK(rec.len > 0 && rec.len < 4096);
    fxt_shm_chunk_t *d = (fxt_shm_chunk_t *)(map + h->chunks_offset);
    memcpy(map + h->data_offset, rec.data, rec.len);
    d->tid = 4000000002u;
    d->used = (uint32_t)rec.len;
    d->seq = 1;
    d->state = mode == FXT_MODE_STREAMING ? FXT_CHUNK_FULL : FXT_CHUNK_OWNED;
    h->next_seq = 1;
    fxt_membuf_free(&rec);
    send_msg(fd, FXT_MSG_BUFFER, mfd);
    close(mfd);
    for (int i = 0; i < 20; i++) {
        fxt_manager_poll(m, 2); /* streaming: the full chunk is drained now */
    }
    /* the program names itself */
    if (long_name) {
        memset(h->name, 'x', sizeof h->name);
    } else {
        snprintf(h->name, sizeof h->name, "given-name");
    }
    h->closed = 1;
    send_msg(fd, FXT_MSG_BYE, -1);
    close(fd);
    for (int i = 0; i < 200 && fxt_manager_connected(m) > 0; i++) {
        fxt_manager_poll(m, 2);
    }
    CHECK_EQ_U64(fxt_manager_connected(m), 0);
    CHECK(fxt_manager_stop(m) == FXT_OK);
    int named = -1;
    CHECK(fxt_manager_object_named(m, FXT_OBJ_PROCESS, 4000000001u, &named) == FXT_OK && named == 1);
    CHECK(fxt_manager_object_named(m, FXT_OBJ_THREAD, 4000000002u, &named) == FXT_OK && named == 1);
    CHECK(fxt_manager_object_named(m, FXT_OBJ_THREAD, 4000000001u, &named) == FXT_OK && named == 0);
    CHECK(fxt_manager_object_named(m, FXT_OBJ_PROCESS, 4000000002u, &named) == FXT_OK && named == 0);
    CHECK(fxt_manager_object_named(m, FXT_OBJ_THREAD, 7, NULL) == FXT_E_INVALID_ARG);
    fxt_manager_provider_t p;
    fxt_manager_get_provider(m, 0, &p);
    char want[64];
    snprintf(want, sizeof want, "%.63s",
             long_name ? "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" : "given-name");
    CHECK(strcmp(p.name, want) == 0);
    CHECK(fxt_manager_finish(m) == FXT_OK);
    fxt_manager_destroy(m);
    munmap(map, size);
    /* the archive: the last process name and the provider's label are the program's */
    fxt_reader_t *r;
    fxt_reader_create(NULL, &r);
    fxt_in_buffer_t in = {mem.data, mem.len, 0};
    fxt_record_t x;
    char last_process[96] = "", label[96] = "", thread[96] = "";
    while (fxt_reader_next(r, &in, &x) == FXT_OK) {
        if (x.kind == FXT_KIND_PROVIDER_INFO) {
            snprintf(label, sizeof label, "%.*s", (int)x.u.provider_info.name.len,
                     x.u.provider_info.name.ptr);
        } else if (x.kind == FXT_KIND_KERNEL_OBJECT) {
            char *dst = x.u.kernel_object.obj_type == FXT_OBJ_PROCESS ? last_process : thread;
            snprintf(dst, 96, "%.*s", (int)x.u.kernel_object.name.len, x.u.kernel_object.name.ptr);
        }
    }
    fxt_reader_destroy(r);
    char want_label[96];
    snprintf(want_label, sizeof want_label, "%s (4000000001)", want);
    CHECK(strcmp(last_process, want) == 0);
    CHECK(strcmp(thread, "fake-thread") == 0);
    if (mode != FXT_MODE_STREAMING) { /* written whole at the end: labelled with the last name */
        CHECK(strcmp(label, want_label) == 0);
    } else { /* its section began while it still had HELLO's name */
        CHECK(strcmp(label, "argv0-name (4000000001)") == 0);
    }
    fxt_membuf_free(&mem);
}

static void test_named_oneshot(void) { fake_provider(FXT_MODE_ONESHOT, 0); }
static void test_named_streaming(void) { fake_provider(FXT_MODE_STREAMING, 0); }
static void test_named_unterminated(void) { fake_provider(FXT_MODE_ONESHOT, 1); }
#else
static void test_named_oneshot(void) { TEST_SKIP("the manager is Linux only"); }
static void test_named_streaming(void) { TEST_SKIP("the manager is Linux only"); }
static void test_named_unterminated(void) { TEST_SKIP("the manager is Linux only"); }
#endif

int main(int argc, char **argv) {
    TEST_INIT(argc, argv);
    RUN(test_stress_oneshot);
    RUN(test_stress_circular);
    RUN(test_stress_streaming);
    RUN(test_named_oneshot);
    RUN(test_named_streaming);
    RUN(test_named_unterminated);
    return TEST_EXIT();
}
