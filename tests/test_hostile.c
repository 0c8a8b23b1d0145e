/* SPDX-License-Identifier: MIT */
/*
 * Every fxt subcommand on hostile bytes, in-process (fuzz/tools_driver.c):
 * the reader's fuzz corpus, the foreign samples (other writers, some damaged)
 * and seeded mutants of synth traces holding every record kind, in both byte
 * orders. Each run must exit 0 or 1 and print valid JSON where it prints JSON;
 * under the ASan/UBSan build the same cases catch memory errors and leaks.
 */
#include "test.h"

#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "tools_driver.h"

static char scratch[1024];

/* Run the tools on one input; returns fxt check's exit status (-1 when a run failed). */
static int feed(const char *label, const uint8_t *data, size_t len) {
    fxt_tools_result_t res;
    char why[512];
    int rc = fxt_tools_driver_run(scratch, data, len, &res, why, sizeof why);
    if (rc != 0) {
        fprintf(stderr, "%s: %s\n", label, why);
    }
    CHECK(rc == 0);
#ifdef FXT_HAVE_SQLITE
    CHECK(res.runs == 10); /* and fxt sql, in one of three output formats (by the input's size) */
#else
    CHECK(res.runs == 9);
#endif
    return rc == 0 ? res.check_rc : -1;
}

/* Feed every regular file of dir; returns how many. */
static int feed_dir(const char *dir, const char *suffix) {
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    if (d == NULL) {
        return 0;
    }
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t nl = strlen(e->d_name), sl = strlen(suffix);
        if (e->d_name[0] == '.' || nl < sl || strcmp(e->d_name + nl - sl, suffix) != 0) {
            continue;
        }
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len = 0;
        uint8_t *p = (uint8_t *)fxt_tools_read_file(path, &len);
        CHECK(p != NULL);
        if (p != NULL) {
            feed(path, p, len);
            n++;
        }
        free(p);
    }
    closedir(d);
    return n;
}

static void test_fuzz_corpus(void) {
    int n = feed_dir(FXT_SOURCE_DIR "/fuzz/corpus/reader", "");
    CHECK(n >= 100);
}

static void test_foreign_samples(void) {
    struct stat st;
    if (stat(FXT_SHARED_DIR "/samples/foreign", &st) != 0) {
        TEST_SKIP("%s/samples/foreign absent (the shared data is not part of the repo)", FXT_SHARED_DIR);
        return;
    }
    int n = feed_dir(FXT_SHARED_DIR "/samples/foreign", ".fxt");
    CHECK(n >= 5);
}

/* xorshift64*: the same mutants on every machine */
static uint64_t rng_state;
static uint64_t rnd(uint64_t bound) {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return ((rng_state * 0x2545F4914F6CDD1DULL) >> 11) % (bound ? bound : 1);
}

/* Mutants of a synth trace: bit flips, random header-sized spans, cuts, splices. */
static void mutants(const char *synth_opt, uint64_t seed, int nmut) {
    char base[4096];
    snprintf(base, sizeof base, "%s/base.fxt", scratch);
    char *argv[] = {"fxt", "synth",         "--seed", "11", "--events",        "300", "--providers",
                    "2",   "--all-records", "-o",     base, (char *)synth_opt, NULL};
    int argc = synth_opt != NULL ? 12 : 11;
    CHECK_EQ_I64(cli_main(argc, argv), 0);
    size_t len = 0;
    uint8_t *orig = (uint8_t *)fxt_tools_read_file(base, &len);
    CHECK(orig != NULL && len > 1000);
    if (orig == NULL || len <= 1000) {
        free(orig);
        return;
    }
    CHECK_EQ_I64(feed("synth base", orig, len), 0); /* the unmutated trace is valid */
    uint8_t *b = malloc(2 * len);
    rng_state = seed;
    const int N = nmut;
    int damaged = 0;
    for (int k = 0; k < N; k++) {
        size_t n = len;
        memcpy(b, orig, len);
        switch (k % 4) {
        case 0: /* flip 1-20 random bits */
            for (uint64_t f = 1 + rnd(20); f > 0; f--) {
                b[rnd(n)] ^= (uint8_t)(1u << rnd(8));
            }
            break;
        case 1: { /* random bytes over a header-sized, aligned span */
            size_t at = rnd(n - 8) & ~(size_t)7;
            for (size_t i = 0; i < 8; i++) {
                b[at + i] = (uint8_t)rnd(256);
            }
            break;
        }
        case 2: /* cut anywhere */
            n = rnd(n);
            break;
        default: { /* drop or duplicate a random span */
            size_t i = rnd(n), j = rnd(n);
            if (i > j) {
                size_t t = i;
                i = j;
                j = t;
            }
            if (rnd(2)) {
                memmove(b + i, orig + j, len - j);
                n = len - (j - i);
            } else {
                memcpy(b + j, orig + i, j - i);
                memcpy(b + j + (j - i), orig + j, len - j);
                n = len + (j - i);
            }
            break;
        }
        }
        char label[64];
        snprintf(label, sizeof label, "mutant %d (seed %llu)", k, (unsigned long long)seed);
        damaged += feed(label, b, n) == 1;
    }
    /* the mutants really are hostile: most are reported as damaged */
    printf("  %d of %d mutants reported invalid by fxt check\n", damaged, N);
    CHECK(damaged >= N / 2);
    free(b);
    free(orig);
}

/* Half as many under sanitizers: the plain phase feeds them all, each sanitized mutant costs ~10x. */
static void test_mutants_le(void) { mutants(NULL, 20261122, TEST_SANITIZED ? 25 : 50); }
static void test_mutants_be(void) { mutants("--big-endian", 20261123, TEST_SANITIZED ? 25 : 50); }

/* The same kind of hostile bytes through the parallel reads (-j is one thread per core):
 * ranges of 256 bytes, many per mutant, so the pre-scan, the replay of its state log and
 * every command's merge meet damage inside ranges and at their edges. */
static void test_mutants_ranges(void) {
    setenv("FXT_RANGE_BYTES", "256", 1);
    mutants(NULL, 20261124, TEST_SANITIZED ? 15 : 30);
    unsetenv("FXT_RANGE_BYTES");
}

/* The validator itself: it must reject what it is there to catch. */
static void test_json_validator(void) {
    static const char *const good[] = {"{}", "[]", " {\"a\":[1,-2.5e+3,true,false,null,\"\\u00e9\\n\"]} ",
                                       "0", "\"\xc3\xa9\""};
    static const char *const bad[] = {"",        "{",   "[1,]",     "{\"a\" 1}",
                                      "01",      "1.",  "\"\x01\"", "\"\xc0\xaf\"",
                                      "[1] [2]", "NaN", "\"\\x\"",  "{1:2}"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        CHECK(fxt_json_valid(good[i], strlen(good[i])));
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (fxt_json_valid(bad[i], strlen(bad[i]))) {
            fprintf(stderr, "accepted: %s\n", bad[i]);
        }
        CHECK(!fxt_json_valid(bad[i], strlen(bad[i])));
    }
}

int main(int argc, char **argv) {
    TEST_INIT(argc, argv);
    if (fxt_tools_driver_init(scratch, sizeof scratch) != 0) {
        perror("scratch directory");
        return 1;
    }
    RUN(test_json_validator);
    RUN(test_fuzz_corpus);
    RUN(test_foreign_samples);
    RUN(test_mutants_le);
    RUN(test_mutants_be);
    RUN(test_mutants_ranges);
    char base[4096];
    snprintf(base, sizeof base, "%s/base.fxt", scratch);
    unlink(base);
    fxt_tools_driver_fini(scratch);
    return TEST_EXIT();
}
