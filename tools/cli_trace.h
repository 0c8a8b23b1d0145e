/* Shared trace-reading loop and time helpers for the fxt subcommands. */
#ifndef FXT_CLI_TRACE_H
#define FXT_CLI_TRACE_H

#include <fxt/reader.h>

#include <stdint.h>
#include <stdio.h>

/* Called for each decoded record; return non-zero to stop reading. */
typedef int (*cli_record_fn)(void *ctx, fxt_reader_t *r, const fxt_record_t *rec);
/* Called for each damaged record, truncation or fatal error (diag says which). */
typedef void (*cli_error_fn)(void *ctx, fxt_reader_t *r, const fxt_diag_t *d);

/*
 * Read a trace from path ("-" or NULL = stdin) in chunks and call back.
 * Returns 0, or a CLI exit code (I/O error, out of memory) after printing a
 * message prefixed with `cmd`. *bytes_read gets the input size.
 */
int cli_read_trace(const char *cmd, const char *path, const fxt_reader_options_t *opt,
                   cli_record_fn on_record, cli_error_fn on_error, void *ctx, uint64_t *bytes_read);

/* Ticks to nanoseconds, exact (rounded down) for any rate; saturates at UINT64_MAX. */
uint64_t cli_ticks_to_ns(uint64_t ticks, uint64_t ticks_per_second);
/* Print nanoseconds as decimal microseconds with 3 decimals ("1234.567"). */
void cli_print_us(FILE *f, uint64_t ns);
/* Print a signed nanosecond count as microseconds. */
void cli_print_us_signed(FILE *f, int64_t ns);

#endif
