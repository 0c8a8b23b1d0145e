/* SPDX-License-Identifier: MIT */
/* JSON output helpers: UTF-8-repairing string literals and round-trip doubles. */
#include "cli_json.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char hexdig[] = "0123456789abcdef";

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
    int n = 0;
    /* The shortest of 15..17 significant digits that reads back to the same binary64;
     * 17 always does, so the output round-trips. */
    for (int prec = 15; prec <= 17; prec++) {
        n = snprintf(buf, CLI_JSON_DOUBLE_MAX, "%.*g", prec, v);
        if (prec == 17 || strtod(buf, NULL) == v) {
            break;
        }
    }
    return (size_t)n;
}

void cli_json_double(FILE *f, double v) {
    char buf[CLI_JSON_DOUBLE_MAX];
    fwrite(buf, 1, cli_json_double_fmt(buf, v), f);
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

/* The first failed write makes the error sticky: later writes are dropped, the caller reports it. */
void cli_jb_write(cli_jbuf_t *b, const void *p, size_t n) {
    if (!b->err && b->sink.write(b->sink.ctx, p, n) != FXT_OK) {
        b->err = 1;
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
        b->err = 1;
        return 0;
    }
    b->p = np;
    b->cap = ncap;
    return 1;
}

static void cli_jb_put(void *b, const char *p, size_t n) { cli_jb_mem(b, p, n); }

/* Plain text is copied directly; anything needing escapes or U+FFFD replacement
 * goes through json_str (the one definition of the rules). */
void cli_jb_str(cli_jbuf_t *b, const char *s, size_t len) {
    int high = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == '"' || c == '\\' || c == 0x7f) {
            goto slow;
        }
        high |= c & 0x80;
    }
    /* Bytes >= 0x80 are validated once for the whole string, only when present. */
    if (high && !cli_utf8_valid(s, len)) {
        goto slow;
    }
    if (len + 2 <= CLI_JB_CAP && cli_jb_room(b, len + 2)) {
        b->p[b->n++] = '"';
        memcpy(b->p + b->n, s, len);
        b->n += len;
        b->p[b->n++] = '"';
        return;
    }
slow:
    cli_json_str_to(cli_jb_put, b, s, len);
}
