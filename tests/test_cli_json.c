/* SPDX-License-Identifier: MIT */
/* tools/cli/cli_json.c: UTF-8 repair (maximal subparts), escaping, round-trip doubles, the output buffer. */
#include "cli_json.h"
#include "test.h"

#include <inttypes.h>
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

/* The printf loop the fast formatter replaces: the shortest of %.15g, (%.16g,) %.17g that
 * reads back. Its bytes are the output contract of fxt dump --json and fxt json. */
static size_t printf_g(char *buf, double v, int with16) {
    int n = 0;
    for (int prec = 15; prec <= 17; prec += (with16 || prec == 16) ? 1 : 2) {
        n = snprintf(buf, CLI_JSON_DOUBLE_MAX, "%.*g", prec, v);
        if (prec == 17 || strtod(buf, NULL) == v) {
            break;
        }
    }
    return (size_t)n;
}

static uint64_t xorshift(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void test_doubles_same_as_printf(void) {
    uint64_t s = 7;
    int bad = 0, n = 0;
    for (int i = 0; i < 72000; i++) {
        uint64_t r = xorshift(&s);
        double v;
        switch (i % 6) {
        case 0: /* any bits */
            memcpy(&v, &r, sizeof v);
            break;
        case 1: /* [0, 1) with every bit significant, as fxt synth writes */
            v = (double)(r >> 11) / 9007199254740992.0;
            break;
        case 2: /* values people write */
            v = (double)(int64_t)(r % 2000001 - 1000000) / 100.0;
            break;
        case 3: /* next to powers of ten, where the exponent changes when rounding */
            v = nextafter(pow(10, (int)(r % 60) - 30), (r >> 40) & 1 ? 0 : INFINITY);
            break;
        case 4: /* 18-digit decimals that are exact ties at 17 digits */
            v = 123456789012345.0 + (double)(r % 100000) * 0.25;
            break;
        default: { /* 1 to 16 digits with 0 to 5 decimals, or a neighbour (the few-decimals path) */
            uint64_t m = (r >> 8) % (uint64_t)pow(10, (double)(r % 16 + 1));
            v = (double)m / pow(10, (double)((r >> 4) % 6));
            v = (r >> 60) == 1 ? nextafter(v, INFINITY) : (r >> 60) == 2 ? nextafter(v, 0) : v;
            v = (r >> 59) & 1 ? -v : v;
            break;
        }
        }
        if (!isfinite(v) || v == 0) {
            continue;
        }
        char a[CLI_JSON_DOUBLE_MAX], b[CLI_JSON_DOUBLE_MAX];
        size_t la = printf_g(a, v, 1), lb = cli_json_double_fmt(b, v);
        bad += la != lb || strcmp(a, b) != 0;
        la = printf_g(a, v, 0);
        lb = cli_json_double_g15_17(b, v);
        bad += la != lb || strcmp(a, b) != 0;
        n++;
    }
    CHECK(n > 60000);
    CHECK_EQ_U64(bad, 0);
}

/* cli_hex_put (18 bytes written, the length returned) spells what printf's "0x%" PRIx64 does:
 * every digit count, 0, all ones, random values. */
static void test_hex_same_as_printf(void) {
    uint64_t s = 11;
    int bad = 0;
    for (int i = 0; i < 20000; i++) {
        uint64_t r = xorshift(&s);
        uint64_t v = i < 65 ? (i == 64 ? UINT64_MAX : UINT64_C(1) << i) : r >> (r % 64);
        if (i == 0) {
            v = 0;
        }
        char got[32], want[32];
        memset(got, '#', sizeof got);
        size_t n = cli_hex_put(got, v);
        int wn = snprintf(want, sizeof want, "0x%" PRIx64, v);
        if (n != (size_t)wn || memcmp(got, want, n) != 0 || got[18] != '#') {
            bad++;
        }
    }
    CHECK_EQ_I64(bad, 0);
}

static void test_jbuf_same_as_stdio(void) {
    uint64_t s = 11;
    int bad = 0;
    static const char alpha[] = "aZ \"\\\x1f\x7f~\x80\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xff\n";
    for (int i = 0; i < 20000; i++) {
        char str[40];
        size_t len = xorshift(&s) % sizeof str;
        for (size_t k = 0; k < len; k++) {
            uint64_t r = xorshift(&s);
            str[k] = i % 3 == 0 ? (char)r : r % 8 ? (char)('a' + r % 26) : alpha[r % (sizeof alpha - 1)];
        }
        uint64_t u = xorshift(&s) >> (xorshift(&s) % 64);
        cli_jbuf_t b;
        memset(&b, 0, sizeof b);
        b.grow = 1; /* memory only */
        cli_jb_str(&b, str, len);
        cli_jb_u64(&b, u);
        cli_jb_i64(&b, (int64_t)u);
        FILE *f = fmemopen(out, sizeof out, "w");
        cli_json_str(f, str, len);
        fprintf(f, "%" PRIu64 "%" PRId64, u, (int64_t)u);
        long n = ftell(f);
        fclose(f);
        bad += b.err || (long)b.n != n || memcmp(b.p, out, b.n) != 0;
        free(b.p);
    }
    CHECK_EQ_U64(bad, 0);
}

/* The formatters fxt json uses: base64 (RFC 4648's vectors), 128-bit decimals, microseconds. */
static void test_base64_u128_us(void) {
    static const char *const in[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
    static const char *const want[] = {"\"\"",         "\"Zg==\"",     "\"Zm8=\"",    "\"Zm9v\"",
                                       "\"Zm9vYg==\"", "\"Zm9vYmE=\"", "\"Zm9vYmFy\""};
    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
        cli_jbuf_t b;
        memset(&b, 0, sizeof b);
        b.grow = 1;
        cli_jb_base64(&b, (const uint8_t *)in[i], strlen(in[i]));
        CHECK(b.n == strlen(want[i]) && memcmp(b.p, want[i], b.n) == 0);
        free(b.p);
    }
    cli_jbuf_t b;
    memset(&b, 0, sizeof b);
    b.grow = 1;
    cli_u128 big = (cli_u128)UINT64_MAX * 1000u + 5u; /* 18446744073709551615005 ns */
    cli_jb_u128(&b, big);
    cli_jb_putc(&b, ' ');
    cli_jb_us(&b, big);
    cli_jb_putc(&b, ' ');
    cli_jb_us(&b, 1234500);
    cli_jb_putc(&b, ' ');
    cli_jb_us(&b, 7000);
    cli_jb_putc(&b, ' ');
    cli_jb_us(&b, 1);
    static const char w[] = "18446744073709551615005 18446744073709551615.005 1234.5 7 0.001";
    CHECK(b.n == sizeof w - 1 && memcmp(b.p, w, b.n) == 0);
    free(b.p);
}

int main(int argc, char **argv) {
    TEST_INIT(argc, argv);
    RUN(test_escapes);
    RUN(test_valid_utf8_kept);
    RUN(test_maximal_subparts);
    RUN(test_doubles);
    RUN(test_doubles_same_as_printf);
    RUN(test_jbuf_same_as_stdio);
    RUN(test_hex_same_as_printf);
    RUN(test_base64_u128_us);
    return TEST_EXIT();
}
