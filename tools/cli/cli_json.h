/* SPDX-License-Identifier: MIT */
/* JSON output helpers shared by the fxt subcommands. */
#ifndef FXT_CLI_JSON_H
#define FXT_CLI_JSON_H

#include <fxt/writer.h>

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli.h" /* CLI_INLINE */

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

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The 8 hex digits of x, the first at the lowest address (little-endian words). */
static inline uint64_t cli_hex8(uint32_t x) {
    uint64_t w = x;
    w = (w | w << 16) & UINT64_C(0x0000ffff0000ffff);
    w = (w | w << 8) & UINT64_C(0x00ff00ff00ff00ff);
    w = (w | w << 4) & UINT64_C(0x0f0f0f0f0f0f0f0f); /* nibble i in byte i */
    uint64_t letters = ((w + UINT64_C(0x0606060606060606)) >> 4) & UINT64_C(0x0101010101010101);
    return __builtin_bswap64(w + UINT64_C(0x3030303030303030) + letters * ('a' - '0' - 10));
}
#endif

/* 0x-prefixed lower-case hex at p, the spelling of ids and pointers in docs/json.md; returns the
 * length. Writes 18 bytes (the caller has room for them): no loop per digit. */
static inline size_t cli_hex_put(char *p, uint64_t v) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    size_t nd = (64u - (unsigned)__builtin_clzll(v | 1u) + 3u) / 4u; /* digits: 1..16 */
    uint64_t w[4] = {cli_hex8((uint32_t)(v >> 32)), cli_hex8((uint32_t)v), 0, 0};
    memcpy(p, "0x", 2);
    memcpy(p + 2, (const char *)w + 16 - nd, 16);
    return 2 + nd;
#else
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
#endif
}

static inline void cli_jb_hex(cli_jbuf_t *b, uint64_t v) {
    if (cli_jb_room(b, 18)) {
        b->n += cli_hex_put(b->p + b->n, v);
    }
}

/* Unsigned 128 bits: nanoseconds converted from ticks can pass 2^64 (ticks * 1e9 / tps). */
__extension__ typedef unsigned __int128 cli_u128;

/* v in decimal (128-bit values past 2^64 out of line). */
void cli_jb_u128(cli_jbuf_t *b, cli_u128 v);

/* The fraction of ns as microseconds after the n integer digits at p; returns the new length.
 * Its 4 bytes are stored whole and its trailing zeros dropped by the length. */
CLI_INLINE size_t cli_us_frac_put(char *p, size_t n, uint64_t ns) {
    unsigned frac = (unsigned)(ns % 1000u);
    if (frac) {
        p[n] = '.';
        p[n + 1] = (char)('0' + frac / 100u);
        memcpy(p + n + 2, cli_digit_pairs + 2 * (frac % 100u), 2);
        n += frac % 100u == 0 ? 2 : frac % 10u == 0 ? 3 : 4;
    }
    return n;
}

/* ns as decimal microseconds at p (at most 24 bytes) with only the needed fraction digits
 * (1234.5, 7, 0.001); returns the length. */
static inline size_t cli_us_put(char *p, uint64_t ns) {
    /* 64-bit division by a constant is a multiply */
    uint64_t us = ns / 1000u;
    if (us < 100u) {
        /* most durations: both digits of the pair copied (the second scratch below 10) */
        memcpy(p, cli_digit_pairs + 2 * us + (us < 10u), 2);
        return cli_us_frac_put(p, 2 - (us < 10u), ns);
    }
    return cli_us_frac_put(p, cli_u64_put(p, us), ns);
}

/* cli_us_put for ns past 2^64 (128-bit division is a libgcc call: kept out of line). */
void cli_jb_us_wide(cli_jbuf_t *b, cli_u128 ns);

/* Nanoseconds as decimal microseconds, like cli_us_put, for any 128-bit ns. */
static inline void cli_jb_us(cli_jbuf_t *b, cli_u128 ns) {
    if (ns > UINT64_MAX) {
        cli_jb_us_wide(b, ns);
        return;
    }
    if (cli_jb_room(b, 24)) {
        b->n += cli_us_put(b->p + b->n, (uint64_t)ns);
    }
}

/* A double as a JSON number that reads back to the same binary64, fxt json's spelling
 * (docs/json.md, Arguments): integral values below 2^53 in magnitude as integers, else 15
 * significant digits when they read back exactly, else 17; NaN, infinities and -0.0 as
 * cli_json_double_fmt spells them. At p (CLI_JSON_DOUBLE_MAX bytes of room); returns the length. */
static inline size_t cli_json_double_put(char *p, double v) {
    /* NaN (v != v) or an infinity: JSON has no such numbers. */
    if (v != v || v > 1.7976931348623157e308 || v < -1.7976931348623157e308 || (v == 0 && signbit(v))) {
        return cli_json_double_fmt(p, v);
    }
    if (v > -9007199254740992.0 && v < 9007199254740992.0 && v == (double)(int64_t)v) {
        return cli_i64_put(p, (int64_t)v);
    }
    /* skipping the 16-digit attempt saves a format and a parse */
    return cli_json_double_g15_17(p, v);
}

/* n bytes at p as a JSON string of standard base64 with '=' padding (fxt json's fidl:blob). */
void cli_jb_base64(cli_jbuf_t *b, const uint8_t *p, uint64_t n);

/*
 * Interned strings' JSON literals, quotes included, by (provider, string index), for the
 * writers of JSON (fxt json, fxt dump --json): most strings written are interned (categories,
 * names, argument names, many values), so each is checked and escaped once, then copied. An
 * entry is valid while its stamp is above the table's base: a string record for its index
 * clears it (cli_slit_forget); what may change strings without one (a provider info record, a
 * damaged record, another reader) drops all by raising the base (cli_slit_drop_all). Fixed
 * size: strings beyond CLI_SLIT_MAX bytes or colliding are escaped as they come.
 */
#define CLI_SLIT_BITS 13
#define CLI_SLIT_MAX 48

typedef struct cli_slit {
    uint64_t key; /* has_provider, provider, index (cli_slit_slot) */
    uint32_t stamp;
    uint32_t len;
    char lit[CLI_SLIT_MAX];
} cli_slit_t;

typedef struct cli_slits {
    uint32_t base, next; /* valid entries have base < stamp <= next */
    cli_slit_t e[1u << CLI_SLIT_BITS];
} cli_slits_t;

/* A writer's table and the provider context of the record it writes (cli_slit_provider). */
typedef struct cli_slitc {
    cli_slits_t *t;
    uint64_t key;
    uint32_t mix;
} cli_slitc_t;

/* A table (0.5 MiB); without memory, a shared all-zero one that never hits and is never written,
 * so lookups need no test for it. */
cli_slits_t *cli_slits_new(void);
void cli_slits_free(cli_slits_t *t);
/* The entry of a string record's index, if cached, is stale. */
void cli_slit_forget(cli_slitc_t *c, uint16_t index);
void cli_slit_drop_all(cli_slitc_t *c);
/* s (a null pointer: the empty string) as a JSON literal; an interned string is also kept in
 * the table when it fits. */
void cli_slit_miss(cli_slitc_t *c, cli_jbuf_t *o, fxt_str_t s);

/* The record's provider context, in the keys and slots of what follows. */
static inline void cli_slit_provider(cli_slitc_t *c, int has_provider, uint32_t provider) {
    uint64_t key = (uint64_t)(has_provider != 0) << 48 | (uint64_t)provider << 16;
    if (key != c->key) {
        c->key = key;
        c->mix = provider * 2654435761u;
    }
}

static inline cli_slit_t *cli_slit_slot(const cli_slitc_t *c, uint16_t index, uint64_t *key) {
    *key = c->key | index;
    /* one provider's indices below 2^CLI_SLIT_BITS never collide */
    return &c->t->e[(index ^ c->mix) & ((1u << CLI_SLIT_BITS) - 1)];
}

/* The cached literal of s; NULL when it is not interned or not cached. */
static inline const cli_slit_t *cli_slit_hit(const cli_slitc_t *c, fxt_str_t s) {
    if (!fxt_strref_is_index(s.ref) || s.unresolved) {
        return NULL; /* index 0 (the empty string) and inline strings are not cached */
    }
    uint64_t key;
    const cli_slit_t *e = cli_slit_slot(c, s.ref, &key);
    return e->key == key && e->stamp > c->t->base ? e : NULL;
}

#endif /* FXT_CLI_JSON_H */
