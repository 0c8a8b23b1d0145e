/* SPDX-License-Identifier: MIT */
/* Input for the fxt command: files or stdin ("-"), read in chunks. */
#ifndef FXT_CLI_IO_H
#define FXT_CLI_IO_H

#include <stddef.h>
#include <stdint.h>

typedef struct cli_input cli_input_t;

/*
 * Open `path` ("-" or NULL for stdin). Returns 0, or -1 with a message in err.
 * Compressed inputs (gzip, zstd) are decompressed transparently when support
 * is compiled in.
 */
int cli_input_open(const char *path, cli_input_t **out, char *err, size_t errlen);
/*
 * The next chunk of input: 1 with *data and *len set (valid until the next call),
 * 0 at end of input, -1 on a read error (message in err).
 */
int cli_input_read(cli_input_t *in, const uint8_t **data, size_t *len, char *err, size_t errlen);
/* Bytes delivered so far. */
uint64_t cli_input_bytes(const cli_input_t *in);
/* Name for messages ("<stdin>" for stdin). */
const char *cli_input_name(const cli_input_t *in);
void cli_input_close(cli_input_t *in);
/*
 * Before a command creates its output: 0 when `path` can be opened (stdin
 * always can), else CLI_EXIT_IO after "fxt CMD: PATH: reason" on stderr, so a
 * missing input leaves no output file or partial document behind.
 */
int cli_input_check(const char *cmd, const char *path);

#include <fxt/writer.h>

/*
 * Output of the commands that write a file (-o): a file or "-"/NULL (stdout).
 * `format` is "gzip", "zstd", "none", or NULL to choose from the name (.gz,
 * .zst, .zstd). Returns 0, or a CLI exit code with a message in err:
 * CLI_EXIT_USAGE for an unknown format or compression this build lacks
 * (decided before the file is created), CLI_EXIT_IO when the file cannot be
 * created, CLI_EXIT_LIMIT when out of memory. Bytes go through
 * cli_output_sink(); cli_output_close() finishes the compressed stream.
 */
typedef struct cli_output cli_output_t;
int cli_output_open(const char *path, const char *format, cli_output_t **out, char *err, size_t errlen);
fxt_sink_t cli_output_sink(cli_output_t *o);
/* Finish compression and close; returns -1 on a write error. `failed` skips the trailer. */
int cli_output_close(cli_output_t *o, int failed);

#endif /* FXT_CLI_IO_H */
