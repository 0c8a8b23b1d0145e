/* SPDX-License-Identifier: MIT */
/* JSON output helpers shared by the fxt subcommands. */
#ifndef FXT_CLI_JSON_H
#define FXT_CLI_JSON_H

#include <fxt/writer.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/*
 * Write s[0..len) as a JSON string literal, quotes included. Bytes that are
 * not well-formed UTF-8 become U+FFFD, one per maximal subpart of an
 * ill-formed sequence (Unicode ch. 3); control characters are escaped.
 */
void cli_json_str(FILE *f, const char *s, size_t len);
/* The same through a writer callback (for outputs that are not a FILE). */
typedef void (*cli_json_put_fn)(void *ctx, const char *p, size_t n);
void cli_json_str_to(cli_json_put_fn put, void *ctx, const char *s, size_t len);
/*
 * Write a double so that it reads back to the same binary64 value.
 * NaN and infinities are written as the strings "NaN", "Infinity", "-Infinity".
 */
void cli_json_double(FILE *f, double v);
/* The same into buf (CLI_JSON_DOUBLE_MAX bytes, NUL-terminated); returns the length. */
#define CLI_JSON_DOUBLE_MAX 40
size_t cli_json_double_fmt(char *buf, double v);
/* %.15g when it reads back to v, else %.17g (fxt json's spelling; v finite); returns the length. */
size_t cli_json_double_g15_17(char *buf, double v);
/* 1 when s[0..len) is well-formed UTF-8. */
int cli_utf8_valid(const char *s, size_t len);

/*
 * Buffered output into a sink, with inline number and string formatting: the
 * per-record writers of fxt json and fxt dump --json (no printf per field).
 * A buffer either flushes to its sink when full (cap 0, CLI_JB_CAP bytes at p)
 * or, with grow set, is memory only and grows.
 */
typedef struct cli_jbuf {
    fxt_sink_t sink;
    char *p;
    size_t n;
    size_t cap; /* 0: CLI_JB_CAP, flushed to the sink when full */
    int grow;   /* a memory-only buffer (fxt json: a thread's open begins): grows instead of flushing */
    int err;    /* a write failed (or, growing, out of memory): later output is dropped */
} cli_jbuf_t;

/* 1 MiB per buffer: few sink writes per MB of JSON, still constant memory. */
#define CLI_JB_CAP (1u << 20)

/* Writes straight to the sink (a sticky error on failure). */
void cli_jb_write(cli_jbuf_t *b, const void *p, size_t n);
/* Hands the buffered bytes to the sink; called when full and at the end. */
void cli_jb_flush(cli_jbuf_t *b);
/* Grows a memory-only buffer to hold `need` more bytes; 0 when out of memory (sticky). */
int cli_jb_grow(cli_jbuf_t *b, size_t need);
/* A JSON string literal with cli_json_str's rules; plain text is copied in one piece. */
void cli_jb_str(cli_jbuf_t *b, const char *s, size_t len);

/* Make room for `need` bytes (need <= CLI_JB_CAP); 0 only for a growing buffer out of memory. */
static inline int cli_jb_room(cli_jbuf_t *b, size_t need) {
    if (b->grow) {
        return b->cap - b->n >= need || cli_jb_grow(b, need);
    }
    if (CLI_JB_CAP - b->n < need) {
        cli_jb_flush(b);
    }
    return 1;
}

static inline void cli_jb_putc(cli_jbuf_t *b, char c) {
    if (cli_jb_room(b, 1)) {
        b->p[b->n++] = c;
    }
}

static inline void cli_jb_mem(cli_jbuf_t *b, const void *s, size_t len) {
    /* Larger than the buffer (a big blob or string): written straight to the sink after a flush. */
    if (len > CLI_JB_CAP && !b->grow) {
        cli_jb_flush(b);
        cli_jb_write(b, s, len);
        return;
    }
    if (cli_jb_room(b, len)) {
        memcpy(b->p + b->n, s, len);
        b->n += len;
    }
}

#define CLI_JB_LIT(b, lit) cli_jb_mem((b), (lit), sizeof(lit) - 1)

/* "00" .. "99": two digits per division when formatting integers. */
extern const char cli_digit_pairs[201];

/* 10^0 .. 10^19. */
extern const uint64_t cli_pow10_u64[20];

/* Decimal digits of v (1..20): from its bit length (log10(2) ~ 1233 / 4096), then one compare. */
static inline unsigned cli_u64_len(uint64_t v) {
    if (v < 10) {
        return 1;
    }
    unsigned t = ((64u - (unsigned)__builtin_clzll(v)) * 1233u) >> 12;
    return t + (v >= cli_pow10_u64[t]);
}

/* v < 10^8 in n digits at p (n = its length), two at a time from the end, in 32 bits. */
static inline void cli_u32_put_n(char *p, uint32_t v, size_t n) {
    char *q = p + n;
    while (v >= 100) {
        uint32_t t = v / 100u;
        q -= 2;
        memcpy(q, cli_digit_pairs + 2 * (v - t * 100u), 2);
        v = t;
    }
    if (v >= 10) {
        memcpy(q - 2, cli_digit_pairs + 2 * v, 2);
    } else {
        q[-1] = (char)('0' + v);
    }
}

/* v < 10^8 as exactly 8 digits at p (zero-padded). */
static inline void cli_u32_put8(char *p, uint32_t v) {
    uint32_t hi = v / 10000u, lo = v - hi * 10000u;
    memcpy(p, cli_digit_pairs + 2 * (hi / 100u), 2);
    memcpy(p + 2, cli_digit_pairs + 2 * (hi % 100u), 2);
    memcpy(p + 4, cli_digit_pairs + 2 * (lo / 100u), 2);
    memcpy(p + 6, cli_digit_pairs + 2 * (lo % 100u), 2);
}

/* v in decimal at p (cli_u64_len(v) bytes, at most 20); returns the length. Blocks of 8 digits
 * are split off with one 64-bit division each and written with 32-bit arithmetic. */
static inline size_t cli_u64_put(char *p, uint64_t v) {
    size_t n = cli_u64_len(v);
    if (v < 100000000u) {
        cli_u32_put_n(p, (uint32_t)v, n);
    } else if (v < 10000000000000000u) {
        uint64_t hi = v / 100000000u;
        cli_u32_put_n(p, (uint32_t)hi, n - 8);
        cli_u32_put8(p + n - 8, (uint32_t)(v - hi * 100000000u));
    } else {
        uint64_t hi = v / 10000000000000000u, mid = v % 10000000000000000u, m8 = mid / 100000000u;
        cli_u32_put_n(p, (uint32_t)hi, n - 16);
        cli_u32_put8(p + n - 16, (uint32_t)m8);
        cli_u32_put8(p + n - 8, (uint32_t)(mid - m8 * 100000000u));
    }
    return n;
}

/* Hand-rolled decimal, no printf: formatting is per event (docs/json.md, Performance). */
static inline void cli_jb_u64(cli_jbuf_t *b, uint64_t v) {
    if (cli_jb_room(b, 20)) {
        b->n += cli_u64_put(b->p + b->n, v);
    }
}

/* A NUL-terminated name (a key, kind or type name: short) copied without strlen and memcpy
 * calls, up to 32 bytes per check for room. */
static inline void cli_jb_name(cli_jbuf_t *b, const char *s) {
    while (*s) {
        if (!cli_jb_room(b, 32)) {
            return;
        }
        char *p = b->p + b->n;
        size_t i = 0;
        while (i < 32 && s[i]) {
            p[i] = s[i];
            i++;
        }
        b->n += i;
        s += i;
    }
}

/* v in decimal at p (at most 20 bytes); returns the length. */
static inline size_t cli_i64_put(char *p, int64_t v) {
    if (v < 0) {
        *p = '-';
        /* Negated in unsigned arithmetic: -INT64_MIN overflows int64_t. */
        return 1 + cli_u64_put(p + 1, (uint64_t)0 - (uint64_t)v);
    }
    return cli_u64_put(p, (uint64_t)v);
}

static inline void cli_jb_i64(cli_jbuf_t *b, int64_t v) {
    if (cli_jb_room(b, 20)) {
        b->n += cli_i64_put(b->p + b->n, v);
    }
}

/* 0x-prefixed lower-case hex at p (at most 18 bytes), the spelling of ids and pointers in
 * docs/json.md; returns the length. */
static inline size_t cli_hex_put(char *p, uint64_t v) {
    static const char hx[] = "0123456789abcdef";
    size_t n = 3;
    for (uint64_t t = v >> 4; t; t >>= 4) {
        n++;
    }
    char *q = p + n;
    do {
        *--q = hx[v & 15u];
        v >>= 4;
    } while (v);
    p[0] = '0';
    p[1] = 'x';
    return n;
}

static inline void cli_jb_hex(cli_jbuf_t *b, uint64_t v) {
    if (cli_jb_room(b, 18)) {
        b->n += cli_hex_put(b->p + b->n, v);
    }
}

#endif /* FXT_CLI_JSON_H */
