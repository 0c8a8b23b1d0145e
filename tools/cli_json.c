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
    } else if (c >= 0xc2 && c <= 0xdf) {
        need = 1;
    } else if (c >= 0xe0 && c <= 0xef) {
        need = 2;
        if (c == 0xe0) {
            lo = 0xa0;
        } else if (c == 0xed) {
            hi = 0x9f;
        }
    } else if (c >= 0xf0 && c <= 0xf4) {
        need = 3;
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

void cli_json_str(FILE *f, const char *str, size_t len) {
    const unsigned char *s = (const unsigned char *)str;
    size_t i = 0, run = 0; /* s[run..i) is plain text not yet written */
    putc('"', f);
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
            fwrite(s + run, 1, i - run, f);
            fputs("\xef\xbf\xbd", f); /* U+FFFD */
            i += (size_t)(-l);
            run = i;
            continue;
        }
        fwrite(s + run, 1, i - run, f);
        switch (c) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\t': fputs("\\t", f); break;
        case '\r': fputs("\\r", f); break;
        case '\b': fputs("\\b", f); break;
        case '\f': fputs("\\f", f); break;
        default: {
            char e[7] = {'\\', 'u', '0', '0', hexdig[c >> 4], hexdig[c & 15], 0};
            fputs(e, f);
            break;
        }
        }
        i++;
        run = i;
    }
    fwrite(s + run, 1, i - run, f);
    putc('"', f);
}

void cli_json_double(FILE *f, double v) {
    if (isnan(v)) {
        fputs("\"NaN\"", f);
        return;
    }
    if (isinf(v)) {
        fputs(v > 0 ? "\"Infinity\"" : "\"-Infinity\"", f);
        return;
    }
    char buf[40];
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (prec == 17 || strtod(buf, NULL) == v) {
            break;
        }
    }
    fputs(buf, f);
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
