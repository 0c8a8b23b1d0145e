/* SPDX-License-Identifier: MIT */
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

/* cli_ticks_to_ns for rates other than 1 tick = 1 ns (out of line: a 128-bit division). */
uint64_t cli_ticks_to_ns_slow(uint64_t ticks, uint64_t ticks_per_second);

/* Ticks to nanoseconds, exact (rounded down) for any rate; saturates at UINT64_MAX. Inline: the
 * tools convert every event's time, nearly always at 1 tick = 1 ns, where this is a compare. */
static inline uint64_t cli_ticks_to_ns(uint64_t ticks, uint64_t ticks_per_second) {
    /* 0 ticks per second cannot convert (fxt check reports it): the ticks are used as ns. */
    if (ticks_per_second == 1000000000u || ticks_per_second == 0) {
        return ticks;
    }
    return cli_ticks_to_ns_slow(ticks, ticks_per_second);
}
/* Print nanoseconds as decimal microseconds with 3 decimals ("1234.567"). */
void cli_print_us(FILE *f, uint64_t ns);
/* Print a signed nanosecond count as microseconds. */
void cli_print_us_signed(FILE *f, int64_t ns);

/*
 * Event selection shared by fxt json and fxt cut: category and name globs
 * (fnmatch, repeatable; an event passes when some pattern of each non-empty
 * list matches) and a time window in ns, relative to the first record asked
 * about unless `absolute`. cli_filter_t is what the command line asks for (it
 * lives in the commands' config structs); cli_select_t adds the state of a run.
 */
#define CLI_MAX_FILTERS 64
typedef struct cli_filter {
    const char *cats[CLI_MAX_FILTERS];
    unsigned ncats;
    const char *names[CLI_MAX_FILTERS];
    unsigned nnames;
    int has_from, has_to, absolute;
    uint64_t from_ns, to_ns;
} cli_filter_t;

typedef struct cli_select {
    cli_filter_t f;
    int have_base;
    uint64_t base_ns;
    char scratch[FXT_MAX_INLINE_STRING_LEN + 1]; /* NUL-terminated copy of a string for fnmatch */
} cli_select_t;

/* "1500", "1.5us", "2ms", "0.25s", "3ns": exact decimal (digits below 1 ns are
 * truncated). Returns 0, or -1 for a malformed or overflowing time. */
int cli_parse_ns(const char *s, uint64_t *out);
/* Start a run of the selection `f` (copied). */
void cli_select_init(cli_select_t *sel, const cli_filter_t *f);
/* Whether `s` matches one of the patterns (1 when there are none). */
int cli_select_match(cli_select_t *sel, const char *const *pats, unsigned n, fxt_str_t s);
/* Whether an event at `ns` is in the window (the first call fixes the base). */
int cli_select_time(cli_select_t *sel, uint64_t ns);
/* The window's end in absolute ns (valid once a time was asked about). */
uint64_t cli_select_end_ns(const cli_select_t *sel);

#endif
