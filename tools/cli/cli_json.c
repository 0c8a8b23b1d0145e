/* SPDX-License-Identifier: MIT */
/* JSON output helpers: UTF-8-repairing string literals, round-trip doubles, 128-bit and
 * microsecond numbers, base64. */
#include "cli_json.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char hexdig[] = "0123456789abcdef";

const char cli_digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

const uint64_t cli_pow10_u64[20] = {1ull,
                                    10ull,
                                    100ull,
                                    1000ull,
                                    10000ull,
                                    100000ull,
                                    1000000ull,
                                    10000000ull,
                                    100000000ull,
                                    1000000000ull,
                                    10000000000ull,
                                    100000000000ull,
                                    1000000000000ull,
                                    10000000000000ull,
                                    100000000000000ull,
                                    1000000000000000ull,
                                    10000000000000000ull,
                                    100000000000000000ull,
                                    1000000000000000000ull,
                                    10000000000000000000ull};

/*
 * Length of the well-formed UTF-8 sequence at s[0..n), or, when ill-formed,
 * minus the length of its maximal subpart (at least 1): Unicode ch. 3,
 * table 3-7 and "U+FFFD Substitution of Maximal Subparts".
 */
static long utf8_seq(const unsigned char *s, size_t n) {
    unsigned char c = s[0];
    int need;
    unsigned char lo = 0x80, hi = 0xbf; /* allowed range of the second byte */
    if (c < 0x80) {
        return 1;
        /* C0 and C1 would only start overlong 2-byte forms. */
    } else if (c >= 0xc2 && c <= 0xdf) {
        need = 1;
    } else if (c >= 0xe0 && c <= 0xef) {
        need = 2;
        /* E0 needs A0..BF next (no overlong 3-byte forms); ED needs 80..9F (no UTF-16 surrogates). */
        if (c == 0xe0) {
            lo = 0xa0;
        } else if (c == 0xed) {
            hi = 0x9f;
        }
    } else if (c >= 0xf0 && c <= 0xf4) {
        need = 3;
        /* F0 needs 90..BF next (no overlong 4-byte forms); F4 needs 80..8F (nothing above U+10FFFF). */
        if (c == 0xf0) {
            lo = 0x90;
        } else if (c == 0xf4) {
            hi = 0x8f;
        }
    } else {
        return -1; /* 80..C1, F5..FF: never a lead byte */
    }
    size_t i = 1;
    for (int k = 0; k < need; k++, i++) {
        if (i >= n) {
            /* Cut short by the end of the string: the bytes so far are one maximal subpart. */
            return -(long)i;
        }
        unsigned char b = s[i];
        unsigned char l = k == 0 ? lo : 0x80, h = k == 0 ? hi : 0xbf;
        if (b < l || b > h) {
            return -(long)i;
        }
    }
    return (long)i;
}

/*
 * The one definition of the string rules, writing through `put`. static
 * inline so each wrapper below gets its own copy with `put` known: fxt dump
 * calls this for every string and must not pay an indirect call per piece.
 */
static inline void json_str(cli_json_put_fn put, void *ctx, const char *str, size_t len) {
    /* Plain bytes accumulate in a run written with one put, instead of one put per byte. */
    const unsigned char *s = (const unsigned char *)str;
    size_t i = 0, run = 0; /* s[run..i) is plain text not yet written */
    put(ctx, "\"", 1);
    while (i < len) {
        unsigned char c = s[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
            i++;
            continue;
        }
        if (c >= 0x80) {
            long l = utf8_seq(s + i, len - i);
            if (l > 0) {
                i += (size_t)l;
                continue;
            }
            put(ctx, str + run, i - run);
            /* One replacement per maximal subpart, as the dump contract asks (docs/dump.md). */
            put(ctx, "\xef\xbf\xbd", 3); /* U+FFFD */
            i += (size_t)(-l);
            run = i;
            continue;
        }
        put(ctx, str + run, i - run);
        switch (c) {
        case '"':
            put(ctx, "\\\"", 2);
            break;
        case '\\':
            put(ctx, "\\\\", 2);
            break;
        case '\n':
            put(ctx, "\\n", 2);
            break;
        case '\t':
            put(ctx, "\\t", 2);
            break;
        case '\r':
            put(ctx, "\\r", 2);
            break;
        case '\b':
            put(ctx, "\\b", 2);
            break;
        case '\f':
            put(ctx, "\\f", 2);
            break;
        default: {
            /* Other control characters (and DEL) have no short escape in JSON: \u00XX. */
            char e[6] = {'\\', 'u', '0', '0', hexdig[c >> 4], hexdig[c & 15]};
            put(ctx, e, sizeof e);
            break;
        }
        }
        i++;
        run = i;
    }
    put(ctx, str + run, i - run);
    put(ctx, "\"", 1);
}

/* putc for single bytes: cheaper than fwrite for the quotes and escapes. */
static inline void put_file(void *f, const char *p, size_t n) {
    if (n == 1) {
        putc(*p, (FILE *)f);
    } else if (n > 0) {
        fwrite(p, 1, n, (FILE *)f);
    }
}

void cli_json_str(FILE *f, const char *s, size_t len) { json_str(put_file, f, s, len); }

void cli_json_str_to(cli_json_put_fn put, void *ctx, const char *s, size_t len) {
    json_str(put, ctx, s, len);
}

/*
 * %.{15,16,17}g without a printf per precision: v's 17 significant digits come
 * as one integer (correctly rounded), the shorter precisions are rounded from
 * it in integer arithmetic, and a candidate's round trip is checked with exact
 * double arithmetic where that is exact. Same bytes as the printf loop it
 * replaces (unit.cli_json compares them), faster.
 */
typedef struct dec17 {
    uint64_t q; /* the 17 significant digits: 10^16 <= q < 10^17 */
    int exp;    /* decimal exponent of the first digit */
    int neg;
} dec17_t;

__extension__ typedef unsigned __int128 u128;

/* The 17 digits exactly, without printf, for 1e-6 <= |v| < 1e16 (JSON's common range):
 * v * 10^k = m * 2^e * 10^k is an integer times a power of two that fits 128 bits, so
 * its integer part and remainder are exact and the rounding is printf's (half to even).
 * 0 outside that range. */
static int dec17_exact(double v, dec17_t *x) {
    double a = fabs(v);
    if (!(a >= 1e-6 && a < 1e16)) {
        return 0;
    }
    uint64_t bits;
    memcpy(&bits, &a, sizeof bits);
    int be = (int)(bits >> 52) - 1023; /* a is normal here: a = m * 2^e with a 53-bit m */
    uint64_t m = (bits & ((1ull << 52) - 1)) | (1ull << 52);
    int e = be - 52;
    /* floor(be * log10(2)) (78913 / 2^18), floored for negative be too: log10(a) is in
     * [be, be + 1) * log10(2), so the exponent is this or one more; the loop corrects it. */
    int t = be * 78913;
    int exp = t >= 0 ? t / (1 << 18) : -((-t + (1 << 18) - 1) / (1 << 18));
    const u128 lo = cli_pow10_u64[16], hi = cli_pow10_u64[17];
    for (int tries = 0; tries < 3; tries++) {
        int k = 16 - exp;
        if (k < 0 || k > 22) {
            return 0;
        }
        u128 p10 = k <= 19 ? (u128)cli_pow10_u64[k] : (u128)cli_pow10_u64[k - 19] * cli_pow10_u64[19];
        u128 num = (u128)m * p10, q, rem = 0, half = 0;
        if (e >= 0) {
            q = num << e; /* a >= 2^52 here, so k <= 1: no overflow */
        } else {
            q = num >> -e;
            rem = num & (((u128)1 << -e) - 1);
            half = (u128)1 << (-e - 1);
        }
        if (q < lo) {
            exp--;
            continue;
        }
        if (q >= hi) {
            exp++;
            continue;
        }
        if (rem > half || (rem == half && rem != 0 && (q & 1))) {
            q++;
            if (q == hi) {
                q = lo;
                exp++;
            }
        }
        x->q = (uint64_t)q;
        x->exp = exp;
        x->neg = v < 0;
        return 1;
    }
    return 0;
}

static void dec17(double v, dec17_t *x) {
    if (dec17_exact(v, x)) {
        return;
    }
    char t[40];
    snprintf(t, sizeof t, "%.16e", v); /* [-]d.dddddddddddddddde[+-]XX */
    const char *p = t;
    x->neg = *p == '-';
    p += x->neg;
    uint64_t q = (uint64_t)(p[0] - '0');
    for (int i = 2; i < 18; i++) {
        q = q * 10 + (uint64_t)(p[i] - '0');
    }
    x->q = q;
    x->exp = atoi(p + 19);
}

/* x's digits rounded to p (< 17) digits into *q; 0 when the dropped digits look like an exact
 * tie (5 then zeros): rounding the already-rounded digits could then differ from rounding v. */
static int round_digits(const dec17_t *x, int p, uint64_t *q, int *exp) {
    uint64_t div = cli_pow10_u64[17 - p], r = x->q % div, half = div / 2;
    if (r == half) {
        return 0;
    }
    uint64_t y = x->q / div + (r > half);
    *exp = x->exp;
    if (y == cli_pow10_u64[p]) {
        y = cli_pow10_u64[p - 1]; /* 99..9 rounded up: one more decimal place */
        (*exp)++;
    }
    *q = y;
    return 1;
}

/* The %.{p}g spelling of the p digits of q at exponent exp into buf; returns the length. */
static size_t g_spell(char *buf, int neg, uint64_t q, int p, int exp) {
    char d[20];
    int last = p; /* d[0..last) without trailing zeros (%g drops them): 8, 4, 2 then 1 at a time */
    for (int k = 8; k > 0; k /= 2) {
        while (last > k && q % cli_pow10_u64[k] == 0) {
            q /= cli_pow10_u64[k];
            last -= k;
        }
    }
    size_t n = 0;
    if (neg) {
        buf[n++] = '-';
    }
    if (exp < 0 && exp >= -4) {
        /* 0.000ddd (the common case of values below 1): the digits written in place */
        buf[n++] = '0';
        buf[n++] = '.';
        for (int i = -1; i > exp; i--) {
            buf[n++] = '0';
        }
        n += cli_u64_put(buf + n, q);
        buf[n] = '\0';
        return n;
    }
    cli_u64_put(d, q); /* exactly `last` digits: the first is not 0 */
    if (exp < -4 || exp >= p) {
        buf[n++] = d[0];
        if (last > 1) {
            buf[n++] = '.';
            memcpy(buf + n, d + 1, (size_t)last - 1);
            n += (size_t)last - 1;
        }
        buf[n++] = 'e';
        buf[n++] = exp < 0 ? '-' : '+';
        unsigned e = (unsigned)(exp < 0 ? -exp : exp);
        if (e >= 100) {
            buf[n++] = (char)('0' + e / 100);
        }
        buf[n++] = (char)('0' + e / 10 % 10);
        buf[n++] = (char)('0' + e % 10);
    } else {
        /* the integer part, zero-padded when the digits end before the point */
        for (int i = 0; i <= exp; i++) {
            buf[n++] = i < last ? d[i] : '0';
        }
        if (last > exp + 1) {
            buf[n++] = '.';
            memcpy(buf + n, d + exp + 1, (size_t)(last - exp - 1));
            n += (size_t)(last - exp - 1);
        }
    }
    buf[n] = '\0';
    return n;
}

#if FLT_EVAL_METHOD == 0
/* Powers of ten exact as doubles: one multiplication or division by them is correctly rounded,
 * strtod's result for the decimal (Clinger's fast path). */
static const double pow10_dbl[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                     1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
#endif

/* Whether the p digits of q at exponent exp read back to v: 1 or 0, -1 when exact double
 * arithmetic cannot tell (strtod must). */
static int reads_back(int neg, uint64_t q, int p, int exp, double v) {
#if FLT_EVAL_METHOD == 0
    /* Exact integer times or over an exact power of ten: one correctly rounded operation, the
     * same result as strtod (Clinger's fast path), without parsing. */
    int e10 = exp - (p - 1);
    if (q <= (1ull << 53) && e10 >= -22 && e10 <= 22) {
        double r = e10 >= 0 ? (double)q * pow10_dbl[e10] : (double)q / pow10_dbl[-e10];
        return (neg ? -r : r) == v;
    }
#else
    (void)neg, (void)q, (void)p, (void)exp, (void)v;
#endif
    return -1;
}

/* A value with at most 3 decimals and 15 significant digits, as values written by people
 * often are (0.25, 53.7, 1234.125): m / 10^k read back to v proves %.15g spells v as that
 * decimal (any decimal of 15 digits or fewer survives a round trip through binary64), so the
 * digits of m are the output. 0 when v is not such a value. */
static size_t few_decimals(char *buf, double v) {
#if FLT_EVAL_METHOD == 0
    double a = fabs(v);
    if (!(a >= 1e-3 && a < 1e12)) {
        return 0; /* m < 10^15: 15 digits at most, and exact in a double */
    }
    if ((double)(uint64_t)(a * 1000) != a * 1000) {
        return 0; /* more decimals (a shortcut only: the general path gives the same bytes) */
    }
    for (int k = 0; k < 4; k++) {
        double md = a * pow10_dbl[k];
        uint64_t m = (uint64_t)md;
        /* an integer m whose quotient by 10^k (one correctly rounded division, as strtod's
         * result for the decimal) is v */
        if ((double)m != md || (double)m / pow10_dbl[k] != a) {
            continue;
        }
        size_t n = 0;
        if (v < 0) {
            buf[n++] = '-';
        }
        uint64_t ip = m / cli_pow10_u64[k], fp = m % cli_pow10_u64[k];
        n += cli_u64_put(buf + n, ip);
        if (fp) {
            buf[n++] = '.';
            for (int i = k - 1; i >= 0; i--) {
                buf[n + (size_t)i] = (char)('0' + fp % 10);
                fp /= 10;
            }
            n += (size_t)k;
            while (buf[n - 1] == '0') {
                n--; /* %g drops trailing zeros */
            }
        }
        buf[n] = '\0';
        return n;
    }
#else
    (void)buf, (void)v;
#endif
    return 0;
}

/* The shortest of %.15g, (%.16g when with16), %.17g that reads back to v (finite). */
static size_t double_g(char *buf, double v, int with16) {
    size_t fn = few_decimals(buf, v);
    if (fn > 0) {
        return fn;
    }
    dec17_t x;
    dec17(v, &x);
    for (int p = 15; p < 17; p += with16 ? 1 : 2) {
        uint64_t q;
        int exp;
        if (!round_digits(&x, p, &q, &exp)) {
            /* An apparent tie: only printf's own rounding of v decides. */
            int n = snprintf(buf, CLI_JSON_DOUBLE_MAX, "%.*g", p, v);
            if (strtod(buf, NULL) == v) {
                return (size_t)n;
            }
            continue;
        }
        int rb = reads_back(x.neg, q, p, exp, v);
        if (rb == 1) {
            return g_spell(buf, x.neg, q, p, exp);
        }
        if (rb < 0) {
            size_t n = g_spell(buf, x.neg, q, p, exp);
            if (strtod(buf, NULL) == v) {
                return n;
            }
        }
    }
    return g_spell(buf, x.neg, x.q, 17, x.exp);
}

size_t cli_json_double_g15_17(char *buf, double v) { return double_g(buf, v, 0); }

/* NaN and infinities are not JSON numbers: the contract spells them as strings (docs/dump.md). */
size_t cli_json_double_fmt(char *buf, double v) {
    if (isnan(v)) {
        memcpy(buf, "\"NaN\"", 6);
        return 5;
    }
    if (isinf(v)) {
        const char *t = v > 0 ? "\"Infinity\"" : "\"-Infinity\"";
        size_t n = strlen(t);
        memcpy(buf, t, n + 1);
        return n;
    }
    if (v == 0 && signbit(v)) {
        /* "-0" would read back as the integer 0, losing the sign */
        memcpy(buf, "-0.0", 5);
        return 4;
    }
    /* The shortest of 15..17 significant digits that reads back to the same binary64;
     * 17 always does, so the output round-trips. */
    return double_g(buf, v, 1);
}

void cli_json_double(FILE *f, double v) {
    char buf[CLI_JSON_DOUBLE_MAX];
    fwrite(buf, 1, cli_json_double_fmt(buf, v), f);
}

void cli_jb_u128(cli_jbuf_t *b, cli_u128 v) {
    if (v <= UINT64_MAX) {
        cli_jb_u64(b, (uint64_t)v);
        return;
    }
    char tmp[48];
    char *e = tmp + sizeof tmp, *q = e;
    do {
        *--q = (char)('0' + (unsigned)(v % 10u));
        v /= 10u;
    } while (v);
    cli_jb_mem(b, q, (size_t)(e - q));
}

void cli_jb_us_wide(cli_jbuf_t *b, cli_u128 ns) {
    cli_jb_u128(b, ns / 1000u);
    unsigned frac = (unsigned)(ns % 1000u);
    if (frac) {
        char t[4] = {'.', (char)('0' + frac / 100u), cli_digit_pairs[2 * (frac % 100u)],
                     cli_digit_pairs[2 * (frac % 100u) + 1]};
        cli_jb_mem(b, t, frac % 100u == 0 ? 2 : frac % 10u == 0 ? 3 : 4);
    }
}

void cli_jb_base64(cli_jbuf_t *b, const uint8_t *p, uint64_t n) {
    static const char tbl[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    cli_jb_putc(b, '"');
    for (uint64_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16;
        if (i + 1 < n) {
            v |= (uint32_t)p[i + 1] << 8;
        }
        if (i + 2 < n) {
            v |= p[i + 2];
        }
        char q[4] = {tbl[(v >> 18) & 63], tbl[(v >> 12) & 63], i + 1 < n ? tbl[(v >> 6) & 63] : '=',
                     i + 2 < n ? tbl[v & 63] : '='};
        cli_jb_mem(b, q, 4);
    }
    cli_jb_putc(b, '"');
}

int cli_utf8_valid(const char *str, size_t len) {
    const unsigned char *s = (const unsigned char *)str;
    size_t i = 0;
    while (i < len) {
        if (s[i] < 0x80) {
            i++;
            continue;
        }
        long l = utf8_seq(s + i, len - i);
        if (l < 0) {
            return 0;
        }
        i += (size_t)l;
    }
    return 1;
}

/* ---- cli_jbuf_t ---- */

/* The first failed write makes the error sticky: later writes are dropped, the caller reports it
 * (err keeps the write's errno where the sink left one, for the message). */
void cli_jb_write(cli_jbuf_t *b, const void *p, size_t n) {
    if (!b->err) {
        errno = 0;
        if (b->sink.write(b->sink.ctx, p, n) != FXT_OK) {
            b->err = errno != 0 ? errno : EIO;
        }
    }
}

/* Hands the buffered bytes to the sink; called when full and at the end. */
void cli_jb_flush(cli_jbuf_t *b) {
    if (b->n) {
        cli_jb_write(b, b->p, b->n);
        b->n = 0;
    }
}

/* Grows a memory-only buffer to hold `need` more bytes; 0 when out of memory (sticky). */
int cli_jb_grow(cli_jbuf_t *b, size_t need) {
    size_t ncap = b->cap ? b->cap * 2 : 256;
    while (ncap - b->n < need) {
        ncap *= 2;
    }
    char *np = realloc(b->p, ncap);
    if (np == NULL) {
        b->err = ENOMEM;
        return 0;
    }
    b->p = np;
    b->cap = ncap;
    return 1;
}

static void cli_jb_put(void *b, const char *p, size_t n) { cli_jb_mem(b, p, n); }

/* Plain text is copied directly; anything needing escapes or U+FFFD replacement
 * goes through json_str (the one definition of the rules). */
#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

/* Nonzero when some byte of x is below n (n <= 128; Bit Twiddling Hacks' hasless, exact as a test). */
static inline uint64_t has_less(uint64_t x, unsigned n) { return (x - ONES * n) & ~x & HIGHS; }

/* Nonzero when some byte of w needs an escape: a control character, '"', '\\' or DEL. */
static inline uint64_t needs_escape8(uint64_t w) {
    return has_less(w, 0x20) | has_less(w ^ (ONES * '"'), 1) | has_less(w ^ (ONES * '\\'), 1) |
           has_less(w ^ (ONES * 0x7f), 1);
}

void cli_jb_str(cli_jbuf_t *b, const char *s, size_t len) {
    /* Checked and copied eight bytes at a time straight into the output (no memcpy calls):
     * strings are most of the output and nearly always plain. Room for 8 bytes past the
     * string lets the word stores overrun; b->n moves only once the string is known plain. */
    if (len + 10 > CLI_JB_CAP || !cli_jb_room(b, len + 10)) {
        goto slow;
    }
    char *o = b->p + b->n + 1;
    uint64_t high = 0;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        if (needs_escape8(w)) {
            goto slow;
        }
        high |= w & HIGHS;
        memcpy(o + i, &w, 8);
    }
    for (; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == '"' || c == '\\' || c == 0x7f) {
            goto slow;
        }
        high |= c & 0x80u;
        o[i] = (char)c;
    }
    /* Bytes >= 0x80 are validated once for the whole string, only when present. */
    if (high && !cli_utf8_valid(s, len)) {
        goto slow;
    }
    o[-1] = '"';
    o[len] = '"';
    b->n += len + 2;
    return;
slow:
    cli_json_str_to(cli_jb_put, b, s, len);
}

/* ---- interned strings' literals -------------------------------------------------------- */

static cli_slits_t slits_none;

cli_slits_t *cli_slits_new(void) {
    cli_slits_t *t = calloc(1, sizeof *t);
    return t != NULL ? t : &slits_none; /* no cache, the same output */
}

void cli_slits_free(cli_slits_t *t) {
    if (t != &slits_none) {
        free(t);
    }
}

void cli_slit_forget(cli_slitc_t *c, uint16_t index) {
    uint64_t key;
    cli_slit_t *e = cli_slit_slot(c, index, &key);
    if (e->key == key && c->t != &slits_none) { /* index 0 would match slits_none's zeros */
        e->stamp = 0;
    }
}

void cli_slit_drop_all(cli_slitc_t *c) {
    if (c->t != &slits_none) {
        c->t->base = c->t->next;
    }
}

void cli_slit_miss(cli_slitc_t *c, cli_jbuf_t *o, fxt_str_t s) {
    cli_slits_t *t = c->t;
    /* Escaped in place with room for the worst case (6 bytes per byte), so nothing is flushed
     * between here and the copy into the slot. */
    if (t == &slits_none || !fxt_strref_is_index(s.ref) || s.unresolved || s.len + 2 > CLI_SLIT_MAX ||
        !cli_jb_room(o, 6 * (size_t)s.len + 10)) {
        cli_jb_str(o, s.ptr ? s.ptr : "", s.ptr ? s.len : 0);
        return;
    }
    uint64_t key;
    cli_slit_t *e = cli_slit_slot(c, s.ref, &key);
    size_t at = o->n;
    cli_jb_str(o, s.ptr, s.len);
    size_t n = o->n - at;
    if (n <= CLI_SLIT_MAX && !o->err) {
        if (t->next == UINT32_MAX) {
            memset(t->e, 0, sizeof t->e); /* stamps wrapped: start over */
            t->base = t->next = 0;
        }
        e->key = key;
        e->stamp = ++t->next;
        e->len = (uint32_t)n;
        memcpy(e->lit, o->p + at, n);
    }
}
