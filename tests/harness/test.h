/* SPDX-License-Identifier: MIT */
/*
 * Minimal test harness: CHECK macros that report the expression and both
 * values, and RUN() to run a test case. A test executable returns non-zero
 * when any check failed. Include once per executable.
 */
#ifndef FXT_TEST_H
#define FXT_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int fxt_test_failures;
static int fxt_test_checks;

/*
 * TEST_SANITIZED: 1 in a build with AddressSanitizer or ThreadSanitizer, where
 * every operation costs 5-15 times as much. A stress case sized for the count of
 * its result (millions of events) runs TEST_SAN_SCALE(n) iterations: n in the
 * plain build, which checks the result at full size, n / 8 under the sanitizers,
 * which need the concurrent paths, not the count (docs/testing.md).
 */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define TEST_SANITIZED 1
#endif
#endif
#ifndef TEST_SANITIZED
#define TEST_SANITIZED 0
#endif
#define TEST_SAN_SCALE(n) (TEST_SANITIZED ? (n) / 8 : (n))

#define CHECK(cond)                                                                                          \
    do {                                                                                                     \
        fxt_test_checks++;                                                                                   \
        if (!(cond)) {                                                                                       \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);                         \
            fxt_test_failures++;                                                                             \
        }                                                                                                    \
    } while (0)

#define CHECK_EQ_U64(a, b)                                                                                   \
    do {                                                                                                     \
        uint64_t va_ = (uint64_t)(a), vb_ = (uint64_t)(b);                                                   \
        fxt_test_checks++;                                                                                   \
        if (va_ != vb_) {                                                                                    \
            fprintf(stderr,                                                                                  \
                    "%s:%d: CHECK_EQ failed: %s == %s (0x%" PRIx64 " vs 0x%" PRIx64 ", %" PRIu64             \
                    " vs %" PRIu64 ")\n",                                                                    \
                    __FILE__, __LINE__, #a, #b, va_, vb_, va_, vb_);                                         \
            fxt_test_failures++;                                                                             \
        }                                                                                                    \
    } while (0)

#define CHECK_EQ_I64(a, b)                                                                                   \
    do {                                                                                                     \
        int64_t va_ = (int64_t)(a), vb_ = (int64_t)(b);                                                      \
        fxt_test_checks++;                                                                                   \
        if (va_ != vb_) {                                                                                    \
            fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %s (%" PRId64 " vs %" PRId64 ")\n", __FILE__,     \
                    __LINE__, #a, #b, va_, vb_);                                                             \
            fxt_test_failures++;                                                                             \
        }                                                                                                    \
    } while (0)

/* Compare a (ptr, len) view with a C string. */
#define CHECK_MEM_STR(ptr, len, cstr)                                                                        \
    do {                                                                                                     \
        const char *vp_ = (const char *)(ptr);                                                               \
        size_t vl_ = (size_t)(len);                                                                          \
        const char *ve_ = (cstr);                                                                            \
        fxt_test_checks++;                                                                                   \
        if (!vp_ || vl_ != strlen(ve_) || memcmp(vp_, ve_, vl_) != 0) {                                      \
            fprintf(stderr, "%s:%d: CHECK_STR failed: %s == \"%s\" (got \"%.*s\")\n", __FILE__, __LINE__,    \
                    #ptr, ve_, vp_ ? (int)vl_ : 6, vp_ ? vp_ : "(null)");                                    \
            fxt_test_failures++;                                                                             \
        }                                                                                                    \
    } while (0)

/* Compare an fxt_str_t with a C string. */
#define CHECK_STR(s, cstr) CHECK_MEM_STR((s).ptr, (s).len, cstr)

/*
 * Cases. main(argc, argv) starts with TEST_INIT(argc, argv); each case is a
 * void function run by RUN(fn). With no argument every case runs; with a case
 * name as argv[1] only that one does (CMake registers one ctest entry per
 * RUN line, see fxt_add_unit_test). A case that cannot run here (a sample file
 * absent, a library not built) calls TEST_SKIP(reason) and returns: run alone
 * it exits 77, which ctest reports as skipped with the reason printed.
 */
static const char *fxt_test_only;
static int fxt_test_ran;
static int fxt_test_skips;
static int fxt_test_skipped_now;

#define TEST_INIT(argc, argv) (fxt_test_only = (argc) > 1 ? (argv)[1] : NULL)

#define TEST_SKIP(...)                                                                                       \
    do {                                                                                                     \
        printf("SKIP: ");                                                                                    \
        printf(__VA_ARGS__);                                                                                 \
        printf("\n");                                                                                        \
        fxt_test_skipped_now = 1;                                                                            \
    } while (0)

#define RUN(fn)                                                                                              \
    do {                                                                                                     \
        if (fxt_test_only != NULL && strcmp(fxt_test_only, #fn) != 0) {                                      \
            break;                                                                                           \
        }                                                                                                    \
        int before_ = fxt_test_failures;                                                                     \
        fxt_test_ran++;                                                                                      \
        fxt_test_skipped_now = 0;                                                                            \
        fn();                                                                                                \
        fxt_test_skips += fxt_test_skipped_now && fxt_test_failures == before_;                              \
        printf("%s %s\n",                                                                                    \
               fxt_test_failures != before_ ? "FAIL"                                                         \
               : fxt_test_skipped_now       ? "skip"                                                         \
                                            : "ok  ",                                                              \
               #fn);                                                                                         \
        fflush(stdout);                                                                                      \
    } while (0)

/*
 * End of main(): summary line and exit status. A run that checked nothing
 * fails (a test that cannot fail is a defect) unless its one case skipped.
 */
static inline int fxt_test_exit(void) {
    printf("%d checks, %d failed\n", fxt_test_checks, fxt_test_failures);
    if (fxt_test_only != NULL && fxt_test_ran == 0) {
        printf("no case named '%s'\n", fxt_test_only);
        return 1;
    }
    if (fxt_test_failures) {
        return 1;
    }
    if (fxt_test_ran > 0 && fxt_test_skips == fxt_test_ran) {
        return 77;
    }
    return fxt_test_checks ? 0 : 1;
}
#define TEST_EXIT() fxt_test_exit()

#endif /* FXT_TEST_H */
