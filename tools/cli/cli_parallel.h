/* SPDX-License-Identifier: MIT */
/*
 * Parallel decoding of one trace file: the input is split into ranges at
 * record boundaries by a fast pre-scan of record headers, which also lists the
 * records that change decoding state (strings, threads, providers, tick rates,
 * objects). Each thread keeps one reader from range to range: before a range
 * it replays the listed records between its previous range and this one
 * (fxt_reader_rebase then sets the offset), so it starts with the state a
 * sequential read has there. The per-range results are merged in range order.
 *
 * A command provides per-range state (range_new), the usual record and error
 * callbacks (called with that state, on a worker thread) and range_merge
 * (called once per range, in order, one at a time). Results are identical to
 * a sequential read when the merge is exact; a merge that cannot be exact
 * (e.g. a limit depends on where ranges start) returns CLI_PAR_RERUN and the
 * command reads again with jobs = 1.
 *
 * Regular uncompressed files are mapped whole, and the pre-scan and the ranges
 * read the mapping (no copy of each byte; also with jobs = 1, so every -j
 * decodes the same way). The pages are mapped 16 MiB at a time ahead of the
 * reads (MADV_POPULATE_READ: one call instead of a fault per 64 KiB) and
 * unmapped again 16 MiB at a time behind them (they stay in the page cache), so
 * the mapped part of the file is at most the ranges in flight plus 32 MiB; ranges
 * of a mapped file are at most 32 MiB. A file truncated meanwhile ends early
 * where it ends now: each 1 MiB step of a range checks the size first, and pages
 * past the new end, which fault with SIGBUS, are replaced with zeros by a
 * handler, so a reader there sees a record of size 0 (the pre-scan stops as at
 * a damaged record; a range, finding the file shorter, as at its end). Every
 * record before the new end is delivered; only a cut made while a step is
 * being decoded can make the record it cuts read zeros for its missing bytes.
 * Where the file cannot be mapped (address space), it is read with pread
 * instead: the pre-scan in 256 KiB windows, each range in 256 KiB chunks into
 * its thread's buffer. Ranges shrink toward the end of the file and the first
 * is short, so the threads start soon and finish together. Stdin and
 * compressed input are read sequentially in chunks (cli_read_trace). Memory:
 * at most jobs + 2 ranges are in flight (published, not merged), each holding
 * the command's per-range state; per thread one reader (and a 256 KiB buffer
 * when reading with pread); and the state log: a copy of the input's
 * state-changing records (strings, threads, providers, objects).
 */
#ifndef FXT_CLI_PARALLEL_H
#define FXT_CLI_PARALLEL_H

#include <stddef.h>
#include <stdint.h>

#include "cli_opts.h"
#include "cli_trace.h"

typedef struct cli_par_ops {
    /* New per-range state for range `index` (thread-safe: called on workers); NULL = out of memory. */
    void *(*range_new)(void *ctx, size_t index);
    /* Called with the range state. on_record returns 0, or a CLI exit code that ends the read
     * (e.g. the output failed): no later range is decoded or merged, the read answers it. */
    cli_record_fn on_record;
    cli_error_fn on_error;
    /* Merge a range into ctx (in range order, never concurrently) and free it: 0, CLI_PAR_RERUN,
     * or a CLI exit code. */
    int (*range_merge)(void *ctx, void *range);
    /* Free a range that will not be merged (after an error). */
    void (*range_free)(void *ctx, void *range);
} cli_par_ops_t;

/* range_merge's and cli_read_parallel's answer: read again with jobs = 1. */
#define CLI_PAR_RERUN (-1)

/* The -j, --jobs N option of a command reading with cli_read_parallel (unsigned field f of T). */
#define CLI_PAR_JOBS_OPT(T, f)                                                                               \
    {                                                                                                        \
        .name = "jobs", .short_name = 'j', .kind = CLI_OPT_UINT, CLI_FIELD(T, f, unsigned), .min = 0,        \
        .max = 256, .value_name = "N",                                                                       \
        .help = "threads decoding ranges of the input (default 0: one per core); output is the same for "    \
                "any N"                                                                                      \
    }

/* Default -j: the number of online processors (1 if unknown). */
unsigned cli_par_default_jobs(void);

/*
 * Read `path` ("-" or NULL = stdin) with `jobs` threads. Ranges are at least
 * `min_range` bytes (0 = default 4 MiB; env FXT_RANGE_BYTES overrides it, so
 * tests can split small inputs). Returns 0, a CLI exit code after a message
 * prefixed with `cmd`, or CLI_PAR_RERUN. *bytes_read gets the input size.
 */
int cli_read_parallel(const char *cmd, const char *path, const fxt_reader_options_t *opt, unsigned jobs,
                      uint64_t min_range, const cli_par_ops_t *ops, void *ctx, uint64_t *bytes_read);

/*
 * The same, with ranges at most `max_range` bytes (0 = no limit; FXT_RANGE_BYTES
 * still wins): for commands whose per-range state grows with the range (fxt
 * dump's buffered output), so that in-flight memory stays bounded on any input.
 */
int cli_read_parallel_max(const char *cmd, const char *path, const fxt_reader_options_t *opt, unsigned jobs,
                          uint64_t min_range, uint64_t max_range, const cli_par_ops_t *ops, void *ctx,
                          uint64_t *bytes_read);

/*
 * The bases of relative times, found by a read before a command's own (fxt cut's and fxt json's
 * windows, json's --time-base=trace-start): file order is not time order (an archive's
 * providers, threads' chunks), so the earliest time needs the whole input. ev: the earliest
 * event in ns (stats' first_ns); all: the earliest record with a time of any kind (events,
 * logs, scheduling records, large blobs with metadata), as its ticks and tick rate so that a
 * caller converts it its own way. Damaged records are left to the command's own read.
 */
typedef struct cli_bases {
    int have_ev, have_all;
    uint64_t ev_ns;
    uint64_t all_ticks, all_tps;
} cli_bases_t;
/* Reads `path` (a file: a pipe cannot be read twice, see cli_input_spool) for its bases: 0, or a
 * CLI exit code after a message prefixed with `cmd`. */
int cli_read_bases(const char *cmd, const char *path, const fxt_reader_options_t *opt, unsigned jobs,
                   cli_bases_t *out);

/* Test hook: when set, files are read with pread, as where they cannot be mapped. */
extern int cli_par_no_map;

#endif
