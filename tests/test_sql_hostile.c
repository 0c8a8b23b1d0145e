/* SPDX-License-Identifier: MIT */
/*
 * Damaged and hostile input through the SQLite extension (fuzz/fuzz_sqlite.c, included):
 * the reader's fuzz corpus, the foreign samples and seeded mutants of traces holding every
 * record kind. Every input must load (damaged records become rows of `error`) and every
 * column of every table must read back; run under ASan+UBSan by the sanitizer phase.
 */
#include "test.h"

#include "../fuzz/fuzz_sqlite.c"

#include <dirent.h>

static uint8_t *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *len = b ? (size_t)n : 0;
    return b;
}

/* Feed every file of dir (ending in suffix, or any with suffix NULL); returns how many. */
static int feed_dir(const char *dir, const char *suffix) {
    DIR *d = opendir(dir);
    if (!d) {
        return -1;
    }
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name), sl = suffix ? strlen(suffix) : 0;
        if (e->d_name[0] == '.' || (suffix && (l < sl || strcmp(e->d_name + l - sl, suffix) != 0))) {
            continue;
        }
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len = 0;
        uint8_t *b = read_file(path, &len);
        CHECK(b != NULL);
        if (b) {
            LLVMFuzzerTestOneInput(b, len);
            if (fuzz_sqlite_rows < 0) {
                fprintf(stderr, "%s: fxt_open failed\n", path);
            }
            CHECK(fuzz_sqlite_rows >= 0);
            CHECK(fuzz_sqlite_errors >= 0);
            n++;
        }
        free(b);
    }
    closedir(d);
    return n;
}

static void test_corpus(void) {
    int n = feed_dir(FXT_SOURCE_DIR "/fuzz/corpus/reader", NULL);
    printf("  %d corpus inputs\n", n);
    CHECK(n >= 100);
}

static void test_foreign(void) {
    DIR *d = opendir(FXT_SHARED_DIR "/samples/foreign");
    if (!d) {
        TEST_SKIP("no foreign samples in %s", FXT_SHARED_DIR "/samples/foreign");
        return;
    }
    closedir(d);
    CHECK(feed_dir(FXT_SHARED_DIR "/samples/foreign", ".fxt") >= 5);
}

/* xorshift64*: the same mutants on every machine */
static uint64_t rng_state;
static uint64_t rnd(uint64_t bound) {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return ((rng_state * 0x2545F4914F6CDD1DULL) >> 11) % (bound ? bound : 1);
}

/* Bit flips, random aligned words, cuts, dropped or duplicated spans of a valid trace. */
static void mutants(const char *base, uint64_t seed, int nmut) {
    size_t len = 0;
    uint8_t *orig = read_file(base, &len);
    CHECK(orig != NULL && len >= 64);
    if (!orig || len < 64) {
        free(orig);
        return;
    }
    LLVMFuzzerTestOneInput(orig, len);
    CHECK_EQ_I64(fuzz_sqlite_errors, 0); /* the base is valid */
    uint8_t *b = malloc(2 * len);
    rng_state = seed;
    int damaged = 0;
    for (int k = 0; k < nmut && b; k++) {
        size_t n = len;
        memcpy(b, orig, len);
        if (k % 4 == 0) {
            for (uint64_t f = 1 + rnd(20); f > 0; f--) {
                b[rnd(n)] ^= (uint8_t)(1u << rnd(8));
            }
        } else if (k % 4 == 1) {
            size_t at = rnd(n - 8) & ~(size_t)7;
            for (size_t i = 0; i < 8; i++) {
                b[at + i] = (uint8_t)rnd(256);
            }
        } else if (k % 4 == 2) {
            n = rnd(n);
        } else {
            size_t i = rnd(n), j = rnd(n);
            if (i > j) {
                size_t t = i;
                i = j;
                j = t;
            }
            memcpy(b + j, orig + i, j - i); /* duplicate [i, j) */
            memcpy(b + j + (j - i), orig + j, len - j);
            n = len + (j - i);
        }
        LLVMFuzzerTestOneInput(b, n);
        CHECK(fuzz_sqlite_rows >= 0);
        damaged += fuzz_sqlite_errors > 0;
    }
    printf("  %d of %d mutants of %s gave rows of error\n", damaged, nmut, base);
    CHECK(damaged > nmut / 4); /* they really are hostile */
    free(b);
    free(orig);
}

static void test_mutants(void) {
    mutants(FXT_SOURCE_DIR "/fuzz/corpus/reader/all_records_le.fxt", 20261128, 120);
    mutants(FXT_SOURCE_DIR "/fuzz/corpus/reader/all_records_be.fxt", 20261129, 60);
    mutants(FXT_SOURCE_DIR "/tests/data/sample.fxt", 20261130, 60);
}

int main(int argc, char **argv) {
    TEST_INIT(argc, argv);
    RUN(test_corpus);
    RUN(test_foreign);
    RUN(test_mutants);
    return TEST_EXIT();
}
