/* SPDX-License-Identifier: MIT */
/* tools/cli_json.c: UTF-8 repair (maximal subparts), escaping, round-trip doubles. */
#include "cli_json.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>

static char out[4096];

static const char *str_json(const char *s, size_t len) {
    FILE *f = fmemopen(out, sizeof out, "w");
    cli_json_str(f, s, len);
    fclose(f);
    return out;
}

static const char *dbl_json(double v) {
    FILE *f = fmemopen(out, sizeof out, "w");
    cli_json_double(f, v);
    fclose(f);
    return out;
}

#define R "\xef\xbf\xbd" /* U+FFFD */
#define S(lit) str_json(lit, sizeof(lit) - 1)

static void test_escapes(void) {
    CHECK(strcmp(S("plain"), "\"plain\"") == 0);
    CHECK(strcmp(S("q\"b\\"), "\"q\\\"b\\\\\"") == 0);
    CHECK(strcmp(S("\n\t\r\b\f"), "\"\\n\\t\\r\\b\\f\"") == 0);
    CHECK(strcmp(S("\x01\x1f\x7f"), "\"\\u0001\\u001f\\u007f\"") == 0);
    CHECK(strcmp(str_json("a\0b", 3), "\"a\\u0000b\"") == 0);
    CHECK(strcmp(S(""), "\"\"") == 0);
}

static void test_valid_utf8_kept(void) {
    CHECK(strcmp(S("\xc3\xa9"), "\"\xc3\xa9\"") == 0);                 /* é */
    CHECK(strcmp(S("\xe2\x82\xac"), "\"\xe2\x82\xac\"") == 0);         /* € */
    CHECK(strcmp(S("\xf0\x9f\x98\x80"), "\"\xf0\x9f\x98\x80\"") == 0); /* 😀 */
    CHECK(strcmp(S("\xed\x9f\xbf"), "\"\xed\x9f\xbf\"") == 0);         /* U+D7FF */
    CHECK(strcmp(S("\xf4\x8f\xbf\xbf"), "\"\xf4\x8f\xbf\xbf\"") == 0); /* U+10FFFF */
}

/* Unicode ch. 3, "U+FFFD Substitution of Maximal Subparts". */
static void test_maximal_subparts(void) {
    CHECK(strcmp(S("\xe0\x80"), "\"" R R "\"") == 0);             /* E0 80: 80 not allowed after E0 */
    CHECK(strcmp(S("\xf0\x9f\x98"), "\"" R "\"") == 0);           /* truncated 4-byte: one */
    CHECK(strcmp(S("\xed\xa0\x80"), "\"" R R R "\"") == 0);       /* surrogate: three */
    CHECK(strcmp(S("\xc0\xaf"), "\"" R R "\"") == 0);             /* overlong: two */
    CHECK(strcmp(S("\xf5\xff"), "\"" R R "\"") == 0);             /* never lead bytes */
    CHECK(strcmp(S("\x80x"), "\"" R "x\"") == 0);                 /* lone continuation */
    CHECK(strcmp(S("\xe2\x82x"), "\"" R "x\"") == 0);             /* cut 3-byte then ASCII */
    CHECK(strcmp(S("\xf4\x90\x80\x80"), "\"" R R R R "\"") == 0); /* above U+10FFFF */
    /* the standard's example: 61 F1 80 80 E1 80 C2 62 80 63 80 BF 64 */
    CHECK(strcmp(S("a\xf1\x80\x80\xe1\x80\xc2"
                   "b\x80"
                   "c\x80\xbf"
                   "d"),
                 "\"a" R R R "b" R "c" R R "d\"") == 0);
}

static void test_doubles(void) {
    CHECK(strcmp(dbl_json(1.5), "1.5") == 0);
    CHECK(strcmp(dbl_json(0.1), "0.1") == 0);
    /* "-0" reads back as the integer 0: the sign of zero needs a fraction */
    CHECK(strcmp(dbl_json(-0.0), "-0.0") == 0);
    CHECK(strcmp(dbl_json(0.0), "0") == 0);
    CHECK(strcmp(dbl_json(NAN), "\"NaN\"") == 0);
    CHECK(strcmp(dbl_json(INFINITY), "\"Infinity\"") == 0);
    CHECK(strcmp(dbl_json(-INFINITY), "\"-Infinity\"") == 0);
    uint64_t s = 99;
    int bad = 0;
    for (int i = 0; i < 100000; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        double v;
        memcpy(&v, &s, sizeof v);
        if (!isfinite(v)) {
            continue;
        }
        const char *j = dbl_json(v);
        if (strtod(j, NULL) != v || strchr(j, 'n') || strchr(j, 'i')) {
            bad++;
        }
    }
    CHECK_EQ_U64(bad, 0);
}

int main(int argc, char **argv) {
    TEST_INIT(argc, argv);
    RUN(test_escapes);
    RUN(test_valid_utf8_kept);
    RUN(test_maximal_subparts);
    RUN(test_doubles);
    return TEST_EXIT();
}
