/*
 * Minimal test harness: CHECK macros that report the expression and both
 * values, and RUN() to run a test function. A test executable returns
 * non-zero when any check failed. Include once per executable.
 */
#ifndef FXT_TEST_H
#define FXT_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int fxt_test_failures;
static int fxt_test_checks;

#define CHECK(cond)                                                                      \
    do {                                                                                 \
        fxt_test_checks++;                                                               \
        if (!(cond)) {                                                                   \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);     \
            fxt_test_failures++;                                                         \
        }                                                                                \
    } while (0)

#define CHECK_EQ_U64(a, b)                                                               \
    do {                                                                                 \
        uint64_t va_ = (uint64_t)(a), vb_ = (uint64_t)(b);                               \
        fxt_test_checks++;                                                               \
        if (va_ != vb_) {                                                                \
            fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %s (0x%" PRIx64 " vs 0x%" PRIx64 \
                    ", %" PRIu64 " vs %" PRIu64 ")\n",                                   \
                    __FILE__, __LINE__, #a, #b, va_, vb_, va_, vb_);                     \
            fxt_test_failures++;                                                         \
        }                                                                                \
    } while (0)

#define CHECK_EQ_I64(a, b)                                                               \
    do {                                                                                 \
        int64_t va_ = (int64_t)(a), vb_ = (int64_t)(b);                                  \
        fxt_test_checks++;                                                               \
        if (va_ != vb_) {                                                                \
            fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %s (%" PRId64 " vs %" PRId64 ")\n", \
                    __FILE__, __LINE__, #a, #b, va_, vb_);                               \
            fxt_test_failures++;                                                         \
        }                                                                                \
    } while (0)

/* Compare a (ptr, len) view with a C string. */
#define CHECK_MEM_STR(ptr, len, cstr)                                                    \
    do {                                                                                 \
        const char *vp_ = (const char *)(ptr);                                           \
        size_t vl_ = (size_t)(len);                                                      \
        const char *ve_ = (cstr);                                                        \
        fxt_test_checks++;                                                               \
        if (!vp_ || vl_ != strlen(ve_) || memcmp(vp_, ve_, vl_) != 0) {                  \
            fprintf(stderr, "%s:%d: CHECK_STR failed: %s == \"%s\" (got \"%.*s\")\n",    \
                    __FILE__, __LINE__, #ptr, ve_, vp_ ? (int)vl_ : 6, vp_ ? vp_ : "(null)"); \
            fxt_test_failures++;                                                         \
        }                                                                                \
    } while (0)

/* Compare an fxt_str_t with a C string. */
#define CHECK_STR(s, cstr) CHECK_MEM_STR((s).ptr, (s).len, cstr)

#define RUN(fn)                                                                          \
    do {                                                                                 \
        int before_ = fxt_test_failures;                                                 \
        fn();                                                                            \
        printf("%s %s\n", fxt_test_failures == before_ ? "ok  " : "FAIL", #fn);          \
    } while (0)

/* End of main(): summary line and exit status. */
#define TEST_EXIT()                                                                      \
    (printf("%d checks, %d failed\n", fxt_test_checks, fxt_test_failures),               \
     (fxt_test_failures ? 1 : (fxt_test_checks ? 0 : 1)))

#endif /* FXT_TEST_H */
