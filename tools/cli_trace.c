/* Shared trace-reading loop and time helpers for the fxt subcommands. */
#include "cli_trace.h"

#include <inttypes.h>
#include <stdio.h>

#include "cli.h"
#include "cli_io.h"

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
                stop = 2;
                break;
            } else {
                on_error(ctx, r, fxt_reader_diag(r));
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
    } else if (stop != 1 && fxt_reader_end(r) != FXT_OK) {
        on_error(ctx, r, fxt_reader_diag(r));
    }
    if (bytes_read) {
        *bytes_read = cli_input_bytes(in);
    }
    fxt_reader_destroy(r);
    cli_input_close(in);
    return rc;
}

uint64_t cli_ticks_to_ns(uint64_t ticks, uint64_t tps) {
    if (tps == 1000000000u || tps == 0) {
        return ticks;
    }
    __extension__ typedef unsigned __int128 u128;
    u128 ns = (u128)ticks * 1000000000u / tps;
    return ns > UINT64_MAX ? UINT64_MAX : (uint64_t)ns; /* saturate: beyond 584 years */
}

void cli_print_us(FILE *f, uint64_t ns) {
    fprintf(f, "%" PRIu64 ".%03u", ns / 1000u, (unsigned)(ns % 1000u));
}

void cli_print_us_signed(FILE *f, int64_t ns) {
    if (ns < 0) {
        putc('-', f);
        cli_print_us(f, (uint64_t)0 - (uint64_t)ns);
    } else {
        cli_print_us(f, (uint64_t)ns);
    }
}
