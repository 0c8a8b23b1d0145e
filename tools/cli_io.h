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

#endif /* FXT_CLI_IO_H */
