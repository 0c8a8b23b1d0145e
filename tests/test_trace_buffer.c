/* SPDX-License-Identifier: MIT */
/*
 * The session's buffer is populated off the hot path, on huge pages where the
 * system allows them (issue 27, docs/trace.md "Buffers"): after the start, a
 * helper thread makes every page resident, and the shared header's `pages`
 * field says so and counts the 2 MiB huge pages, as /proc/self/smaps does.
 * In-process (private mapping) and under a manager (a shared memfd, which had
 * only 4 KiB pages before: shmem_enabled is often "never", and MADV_COLLAPSE
 * still gets huge pages there, for all but the first 2 MiB). A fork while the helper runs stops it and the
 * parent resumes it.
 */
#define _GNU_SOURCE 1
#include <fxt/manager.h>
#include <fxt/trace.h>

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#endif

#include "mgr_thread.h"
#include "test.h"
#include "trace_internal.h"

#if defined(__linux__)

#define HUGE ((size_t)2u << 20)
/* sanitizers fault in their shadow of the buffer on first access: no fault count then */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

static fxt_status null_sink(void *ctx, const void *data, size_t len) {
    (void)ctx, (void)data, (void)len;
    return FXT_OK;
}

/* kB of huge pages of the mapping that starts at p, from /proc/self/smaps */
static uint64_t smaps_huge_kb(const void *p) {
    FILE *f = fopen("/proc/self/smaps", "r");
    if (f == NULL) {
        return 0;
    }
    char line[256];
    int in = 0;
    uint64_t kb = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        unsigned long lo, hi;
        unsigned long long v;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) {
            in = lo == (unsigned long)(uintptr_t)p;
        } else if (in && (sscanf(line, "AnonHugePages: %llu", &v) == 1 ||
                          sscanf(line, "ShmemPmdMapped: %llu", &v) == 1 ||
                          sscanf(line, "Shared_Hugetlb: %llu", &v) == 1 ||
                          sscanf(line, "Private_Hugetlb: %llu", &v) == 1)) {
            kb += v;
        }
    }
    fclose(f);
    return kb;
}

/* Whether this system gives huge pages to 2 MiB of shared (memfd) or private memory as the
 * engine asks for them (MADV_HUGEPAGE, a touch, MADV_COLLAPSE): the probe the test trusts. */
static int system_gives_huge(int shared) {
    int fd = -1;
    if (shared) {
        fd = memfd_create("probe", MFD_CLOEXEC);
        if (fd < 0 || ftruncate(fd, (off_t)HUGE) != 0) {
            return 0;
        }
    }
    uint8_t *r = mmap(NULL, 2 * HUGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    uint8_t *a = (uint8_t *)(((uintptr_t)r + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
    void *m = shared ? mmap(a, HUGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0)
                     : mmap(a, HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    int got = 0;
    if (m != MAP_FAILED) {
        madvise(m, HUGE, MADV_HUGEPAGE);
        ((volatile uint8_t *)m)[0] = 1;
        madvise(m, HUGE, MADV_COLLAPSE);
        got = smaps_huge_kb(m) >= 2048;
    }
    munmap(r, 2 * HUGE);
    if (fd >= 0) {
        close(fd);
    }
    return got;
}

/* Wait (at most 60 s: a loaded machine) until the helper is done with the buffer. */
static uint32_t wait_done(void) {
    for (int i = 0; i < 6000; i++) {
        uint32_t pg = __atomic_load_n(&fxt__trace.hdr->pages, __ATOMIC_ACQUIRE);
        if (pg & FXT_SHM_PAGES_DONE) {
            return pg;
        }
        struct timespec d = {0, 10000000};
        nanosleep(&d, NULL);
    }
    return 0;
}

/* Every page of the session's mapping resident; huge pages as smaps counts them. */
static void check_buffer(int shared) {
    uint32_t pg = wait_done();
    CHECK(pg & FXT_SHM_PAGES_DONE);
    CHECK(pg & FXT_SHM_PAGES_RESIDENT);
    uint8_t *m = (uint8_t *)fxt__trace.hdr;
    size_t size = fxt__trace.map_size, pages = (size + 4095) / 4096, missing = 0;
    unsigned char *v = malloc(pages);
    CHECK(v != NULL && mincore(m, size, v) == 0);
    for (size_t i = 0; v != NULL && i < pages; i++) {
        missing += !(v[i] & 1);
    }
    free(v);
    CHECK_EQ_U64(missing, 0);
    uint64_t huge = pg >> FXT_SHM_PAGES_HUGE_SHIFT;
    CHECK_EQ_U64(huge, smaps_huge_kb(m) / 2048);
    if (system_gives_huge(shared)) {
        /* every 2 MiB of it, but for the first where THP does not come by fault (the start
         * does not collapse: MADV_COLLAPSE costs ms even on huge pages) */
        CHECK(huge + 1 >= size / HUGE);
        CHECK(huge <= size / HUGE);
    } else {
        printf("note: no huge pages for %s memory here; 4 KiB pages\n", shared ? "shared" : "private");
    }
    /* the hot path takes no page fault: write the whole buffer through (circular); under the
     * sanitizers, which fault in their shadow (no count checked), an eighth of it */
    long n = TEST_SAN_SCALE((long)(size / 32) + 1000);
    struct rusage r0, r1;
    getrusage(RUSAGE_THREAD, &r0);
    for (long i = 0; i < n; i++) {
        FXT_INSTANT("buf", "fill", FXT_I64("i", i));
    }
    getrusage(RUSAGE_THREAD, &r1);
    printf("page faults while writing %ld events (%zu-byte buffer): %ld\n", n, size,
           r1.ru_minflt - r0.ru_minflt);
    /* a few on the heap (the thread's chunk list grows; after a fork, its state is copied
     * on write: 9 here); the buffer's own are one per 4 KiB page when it is not populated,
     * one per 2 MiB page after a fork without MADV_WIPEONFORK (25 in all here) */
    CHECK(SANITIZED || r1.ru_minflt - r0.ru_minflt <= 16);
}

static void test_resident_in_process(void) {
    fxt_session_config_t c = FXT_SESSION_CONFIG_INIT;
    c.sink.write = null_sink;
    c.mode = FXT_MODE_CIRCULAR;
    c.buffer_size = 16u << 20;
    CHECK(fxt_session_start(&c) == FXT_OK);
    FXT_INSTANT("buf", "first");
    check_buffer(0);
    CHECK(fxt_session_stop() == FXT_OK);
}

static void test_resident_managed(void) {
    mgr_thread_t x;
    memset(&x, 0, sizeof x);
    fxt_manager_config_t mc = FXT_MANAGER_CONFIG_INIT;
    mc.sink.write = null_sink;
    mc.mode = FXT_MODE_CIRCULAR;
    mc.buffer_size = 16u << 20;
    CHECK(fxt_manager_create(&mc, &x.m) == FXT_OK);
    CHECK(pthread_create(&x.th, NULL, serve, &x) == 0);
    setenv(FXT_MANAGER_ENV, fxt_manager_socket_path(x.m), 1);
    fxt_session_config_t c = FXT_SESSION_CONFIG_INIT;
    CHECK(fxt_session_start(&c) == FXT_OK);
    FXT_INSTANT("buf", "first");
    check_buffer(1);
    uint32_t pages = __atomic_load_n(&fxt__trace.hdr->pages, __ATOMIC_ACQUIRE);
    uint64_t bytes = fxt__trace.map_size;
    CHECK(fxt_session_stop() == FXT_OK);
    unsetenv(FXT_MANAGER_ENV);
    __atomic_store_n(&x.stop, 1, __ATOMIC_RELEASE);
    pthread_join(x.th, NULL);
    /* the manager (used by one thread at a time) reports what the provider obtained */
    fxt_manager_provider_t p;
    fxt_manager_get_provider(x.m, 0, &p);
    CHECK_EQ_U64(p.buffer_pages, pages);
    CHECK_EQ_U64(p.buffer_bytes, bytes);
    CHECK(fxt_manager_finish(x.m) == FXT_OK);
    fxt_manager_destroy(x.m);
}

/* A fork right after the start stops the helper (the child must not inherit it); the
 * parent's helper goes on where it stopped and finishes; and the fork does not make the
 * parent's buffer copy-on-write (MADV_WIPEONFORK: 1,395 faults on writing 64 MiB after a
 * fork without it in a plain program, 16 in this test). */
static void test_fork_resumes(void) {
    fxt_session_config_t c = FXT_SESSION_CONFIG_INIT;
    c.sink.write = null_sink;
    c.mode = FXT_MODE_CIRCULAR;
    c.buffer_size = 64u << 20;
    CHECK(fxt_session_start(&c) == FXT_OK);
    FXT_INSTANT("buf", "first"); /* this thread's state exists (its pages are not the buffer's) */
    pid_t pid = fork();
    if (pid == 0) {
        _exit(0);
    }
    CHECK(pid > 0);
    int st = -1;
    CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0);
    check_buffer(0);
    CHECK(fxt_session_stop() == FXT_OK);
}

#else
static void test_resident_in_process(void) { TEST_SKIP("Linux only (mincore, smaps)"); }
static void test_resident_managed(void) { TEST_SKIP("the manager is Linux only"); }
static void test_fork_resumes(void) { TEST_SKIP("Linux only"); }
#endif

int main(int argc, char **argv) {
    TEST_INIT(argc, argv);
    RUN(test_resident_in_process);
    RUN(test_resident_managed);
    RUN(test_fork_resumes);
    return TEST_EXIT();
}
