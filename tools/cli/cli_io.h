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
/*
 * For a command that reads its input twice (a first read finds the earliest event): `in`
 * itself when it names a regular file, else (standard input for "-"/NULL, a pipe or FIFO, a
 * device) its bytes copied to an unlinked temporary file in $TMPDIR (else /tmp). Returns 0
 * with `path` set to what to read (the copy: "/dev/fd/N") and *fd the copy's descriptor (-1
 * when none; the caller closes it at the end), or CLI_EXIT_IO after one line on stderr.
 */
int cli_input_spool(const char *cmd, const char *in, char *path, size_t cap, int *fd);
/*
 * Before a command creates its output: 0, or CLI_EXIT_USAGE after one line on
 * stderr when the output `out` ("-"/NULL: stdout) is the same file (device and
 * inode: also through a symlink, a hard link or another name) as one of the
 * inputs `ins` ("-"/NULL: stdin), which writing it would destroy.
 */
int cli_output_check(const char *cmd, const char *out, const char *const *ins, size_t nins);
/* Test hook: called after each chunk read from a file, with the input's name. */
extern void (*cli_input_read_hook)(const char *name);

#include <fxt/writer.h>

/*
 * Output of the commands that write a file (-o): a file or "-"/NULL (stdout).
 * A regular file (new or existing) is written to a temporary file beside it
 * (".NAME.XXXXXX", the existing file's mode, else 0644 minus the umask) that
 * cli_output_close() renames over it on success and removes on failure (also
 * on SIGINT, SIGTERM, SIGHUP meanwhile), so a failed run never leaves a
 * half-written file, and an existing one stays as it was. Outputs that are not
 * regular files (stdout, a pipe or FIFO, /dev/null) are written directly, as
 * is a file in a directory where no new file can be created.
 * `format` is "gzip", "zstd", "none", or NULL to choose from the name (.gz,
 * .zst, .zstd). Returns 0, or a CLI exit code with a message in err:
 * CLI_EXIT_USAGE for an unknown format or compression this build lacks
 * (decided before the file is created), CLI_EXIT_IO when the file cannot be
 * created, CLI_EXIT_LIMIT when out of memory. Bytes go through
 * cli_output_sink(); cli_output_close() finishes the compressed stream.
 */
typedef struct cli_output cli_output_t;
int cli_output_open(const char *path, const char *format, cli_output_t **out, char *err, size_t errlen);
/* CLI_OUTPUT_IN_PLACE: write the file itself, truncated first (fxt record: an archive that grows
 * while the program runs and must survive fxt being killed). */
#define CLI_OUTPUT_IN_PLACE 1
int cli_output_open_flags(const char *path, const char *format, int flags, cli_output_t **out, char *err,
                          size_t errlen);
fxt_sink_t cli_output_sink(cli_output_t *o);
/* "fxt CMD: error writing output: strerror(err)" on stderr; nothing for EPIPE (a closed pipe). */
void cli_output_error(const char *cmd, int err);
/* Removes the temporary file of the output being written, if any (async-signal-safe: for a
 * signal handler that ends the process). */
void cli_output_abandon(void);
/* Why the output failed: the errno of the first failed write (ENOSPC: "No space left on
 * device"), EIO when none was recorded. For cli_output_error(). */
int cli_output_errno(const cli_output_t *o);
/* The temporary file a regular-file output is written to (renamed by cli_output_close), for a
 * writer that opens it by name (fxt sql --db: SQLite); NULL when the output is written directly. */
const char *cli_output_tmp_path(const cli_output_t *o);

/* Flushes stdout (the tools that print to it: dump, stats, check); 0, or says on stderr why the
 * output failed and returns CLI_EXIT_IO. FAILED: an earlier write to it failed (1, or its errno). */
int cli_stdout_finish(const char *cmd, int failed);
/*
 * Finish compression and close, then rename the temporary file over the output.
 * `failed` (the command failed) skips the trailer and removes the temporary file.
 * Returns -1 when the trailer, close or rename fails (the output is then removed too).
 * Leaves errno set to the first write, close or rename error (EIO when none), for the message.
 */
int cli_output_close(cli_output_t *o, int failed);

#endif /* FXT_CLI_IO_H */
