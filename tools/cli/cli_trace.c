/* SPDX-License-Identifier: MIT */
/* Shared trace-reading loop and time helpers for the fxt subcommands. */
#include "cli_trace.h"

#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_io.h"

/* The read loop of check, cut, json and stats: each chunk is decoded to its end, damaged
 * records go to on_error and reading goes on. 0, or an exit status for I/O or memory failures. */
int cli_read_trace(const char *cmd, const char *path, const fxt_reader_options_t *opt,
                   cli_record_fn on_record, cli_error_fn on_error, void *ctx, uint64_t *bytes_read) {
    char err[512];
    cli_input_t *in;
    if (cli_input_open(path, &in, err, sizeof err) != 0) {
        fprintf(stderr, "fxt %s: %s\n", cmd, err);
        return CLI_EXIT_IO;
    }
    fxt_reader_t *r;
    if (fxt_reader_create(opt, &r) != FXT_OK) {
        cli_input_close(in);
        fprintf(stderr, "fxt %s: out of memory\n", cmd);
        return CLI_EXIT_LIMIT;
    }
    fxt_record_t rec;
    int rc = 0, stop = 0, got;
    const uint8_t *data;
    size_t len;
    while (!stop && (got = cli_input_read(in, &data, &len, err, sizeof err)) > 0) {
        fxt_in_buffer_t buf = {data, len, 0};
        for (;;) {
            fxt_status st = fxt_reader_next(r, &buf, &rec);
            if (st == FXT_OK) {
                if (on_record(ctx, r, &rec) != 0) {
                    stop = 1;
                    break;
                }
            } else if (st == FXT_NEED_INPUT) {
                break;
            } else if (st == FXT_END) {
                /* FXT_END comes after a fatal error (size 0): nothing more can be read. */
                stop = 2;
                break;
            } else {
                on_error(ctx, r, fxt_reader_diag(r));
                /* Out of memory stops reading; other statuses are reported and the reader goes on. */
                if (st == FXT_E_NOMEM) {
                    fprintf(stderr, "fxt %s: out of memory\n", cmd);
                    rc = CLI_EXIT_LIMIT;
                    stop = 1;
                    break;
                }
            }
        }
    }
    if (!stop && got < 0) {
        fprintf(stderr, "fxt %s: %s\n", cmd, err);
        rc = CLI_EXIT_IO;
        /* Not after a stop by the command or out of memory: the input was not read to its end. */
    } else if (stop != 1 && fxt_reader_finish(r) != FXT_OK) {
        on_error(ctx, r, fxt_reader_diag(r));
    }
    if (bytes_read) {
        *bytes_read = cli_input_bytes(in);
    }
    fxt_reader_destroy(r);
    cli_input_close(in);
    return rc;
}

uint64_t cli_ticks_to_ns_slow(uint64_t ticks, uint64_t tps) {
    if (tps == 0) {
        return ticks; /* as cli_ticks_to_ns: no division by zero, whoever calls */
    }
    __extension__ typedef unsigned __int128 u128;
    /* Multiply before dividing, in 128 bits: exact for any rate, and ticks * 1e9 cannot overflow. */
    u128 ns = (u128)ticks * 1000000000u / tps;
    return ns > UINT64_MAX ? UINT64_MAX : (uint64_t)ns; /* saturate: beyond 584 years */
}

/* Microseconds with exactly three decimals: integer arithmetic, no rounding through a double. */
void cli_print_us(FILE *f, uint64_t ns) {
    fprintf(f, "%" PRIu64 ".%03u", ns / 1000u, (unsigned)(ns % 1000u));
}

void cli_print_us_signed(FILE *f, int64_t ns) {
    if (ns < 0) {
        putc('-', f);
        /* Negated in unsigned arithmetic: -INT64_MIN overflows int64_t. */
        cli_print_us(f, (uint64_t)0 - (uint64_t)ns);
    } else {
        cli_print_us(f, (uint64_t)ns);
    }
}

/* ---- event selection ---------------------------------------------------------------- */

/* "1500", "1.5us", "2ms", "0.25s": exact decimal arithmetic, like cli_parse_size. */
int cli_parse_ns(const char *s, uint64_t *out) {
    uint64_t ip = 0, frac = 0, fscale = 1;
    const char *p = s;
    int digits = 0;
    for (; *p >= '0' && *p <= '9'; p++, digits++) {
        uint64_t d = (uint64_t)(*p - '0');
        if (ip > (UINT64_MAX - d) / 10) { /* exact: accepts UINT64_MAX itself */
            return -1;
        }
        ip = ip * 10 + d;
    }
    if (*p == '.') {
        for (p++; *p >= '0' && *p <= '9'; p++, digits++) {
            if (fscale < UINT64_C(1000000000)) { /* 9 fraction digits are enough for any unit */
                frac = frac * 10 + (uint64_t)(*p - '0');
                fscale *= 10;
            }
        }
    }
    if (digits == 0) {
        return -1;
    }
    uint64_t mul = strcmp(p, "us") == 0   ? 1000
                   : strcmp(p, "ms") == 0 ? 1000000
                   : strcmp(p, "s") == 0  ? 1000000000
                                          : 1;
    /* Any suffix other than ns/us/ms/s is an error, not ignored. */
    if (*p && strcmp(p, "ns") != 0 && mul == 1) {
        return -1;
    }
    /* frac * mul cannot overflow: frac < 10^9 and mul <= 10^9. */
    if (ip > UINT64_MAX / mul || ip * mul > UINT64_MAX - frac * mul / fscale) {
        return -1;
    }
    *out = ip * mul + frac * mul / fscale;
    return 0;
}

void cli_select_init(cli_select_t *sel, const cli_filter_t *f) {
    sel->f = *f;
    sel->have_base = 0;
    sel->base_ns = 0;
}

/* Glob match against any of PATS (none = everything matches). */
int cli_select_match(cli_select_t *sel, const char *const *pats, unsigned n, fxt_str_t s) {
    if (n == 0) {
        return 1;
    }
    size_t len = s.ptr ? s.len : 0;
    /* fnmatch needs a C string: scratch holds any length a string ref can express;
     * an embedded NUL ends the string early. */
    if (len > sizeof sel->scratch - 1) {
        len = sizeof sel->scratch - 1;
    }
    if (len) {
        memcpy(sel->scratch, s.ptr, len);
    }
    sel->scratch[len] = '\0';
    for (unsigned i = 0; i < n; i++) {
        if (fnmatch(pats[i], sel->scratch, 0) == 0) {
            return 1;
        }
    }
    return 0;
}

/* Times are relative to the first event seen unless --absolute: that event sets the base. */
int cli_select_time(cli_select_t *sel, uint64_t ns) {
    if (!sel->have_base) {
        sel->have_base = 1;
        sel->base_ns = ns;
    }
    uint64_t rel = sel->f.absolute ? ns : (ns >= sel->base_ns ? ns - sel->base_ns : 0);
    return !(sel->f.has_from && rel < sel->f.from_ns) && !(sel->f.has_to && rel > sel->f.to_ns);
}

/* The window's end in absolute ns, saturated rather than wrapped. */
uint64_t cli_select_end_ns(const cli_select_t *sel) {
    if (sel->f.absolute) {
        return sel->f.to_ns;
    }
    return sel->f.to_ns > UINT64_MAX - sel->base_ns ? UINT64_MAX : sel->base_ns + sel->f.to_ns;
}
