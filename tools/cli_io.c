/* SPDX-License-Identifier: MIT */
/*
 * Input and output for the fxt command: files or stdin/stdout ("-"), read in
 * chunks; gzip and zstd inputs are recognised by their magic bytes and
 * decompressed on the fly (from files and pipes alike); outputs are
 * compressed when their name ends in .gz / .zst or a format is forced.
 */
#include "cli_io.h"

#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef FXT_HAVE_ZIO
#include <fxt/zio.h>
#endif

#define CLI_CHUNK (1u << 20) /* 1 MiB: big enough to amortise syscalls, small enough for the memory bound */

struct cli_input {
    int fd;
    int owns_fd;
    uint8_t *buf; /* what we hand out */
    uint8_t *raw; /* compressed bytes (compressed inputs only) */
    size_t raw_len, raw_pos;
    int raw_eof;
    int detected;
    uint64_t total; /* bytes delivered (decompressed) */
    uint64_t raw_total;
#ifdef FXT_HAVE_ZIO
    fxt_zdec_t *dec;
#endif
    char name[256];
};

/* Opens PATH, or standard input for NULL or "-"; compression is detected at the first read. */
int cli_input_open(const char *path, cli_input_t **out, char *err, size_t errlen) {
    cli_input_t *in = calloc(1, sizeof *in);
    if (!in) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    in->buf = malloc(CLI_CHUNK);
    if (!in->buf) {
        free(in);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (!path || strcmp(path, "-") == 0) {
        /* Not owned: stdin belongs to the process and is not closed here. */
        in->fd = 0;
        snprintf(in->name, sizeof in->name, "<stdin>");
    } else {
        in->fd = open(path, O_RDONLY);
        if (in->fd < 0) {
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
            free(in->buf);
            free(in);
            return -1;
        }
        in->owns_fd = 1;
        snprintf(in->name, sizeof in->name, "%s", path);
    }
    *out = in;
    return 0;
}

int cli_input_check(const char *cmd, const char *path) {
    if (!path || strcmp(path, "-") == 0) {
        return 0;
    }
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        fprintf(stderr, "fxt %s: %s: %s\n", cmd, path, strerror(errno));
        return CLI_EXIT_IO;
    }
    close(fd);
    return 0;
}

/* Fill dst with up to cap bytes from the fd (as far as the source allows). */
/* Loops on short reads: pipes deliver little at a time, and full chunks keep syscalls few. */
static ssize_t fill(cli_input_t *in, uint8_t *dst, size_t cap, char *err, size_t errlen) {
    size_t got = 0;
    while (got < cap) {
        ssize_t n = read(in->fd, dst + got, cap - got);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            snprintf(err, errlen, "%s: %s", in->name, strerror(errno));
            return -1;
        }
        if (n == 0) {
            break;
        }
        got += (size_t)n;
    }
    in->raw_total += got;
    return (ssize_t)got;
}

/* The next chunk of (decompressed) input: 1 with data, 0 at the end, -1 with err set. */
int cli_input_read(cli_input_t *in, const uint8_t **data, size_t *len, char *err, size_t errlen) {
#ifdef FXT_HAVE_ZIO
    if (in->dec != NULL) {
        size_t produced = 0;
        /* Decompress until the output chunk is full or the compressed input is exhausted. */
        while (produced < CLI_CHUNK) {
            if (in->raw_pos == in->raw_len && !in->raw_eof) {
                ssize_t n = fill(in, in->raw, CLI_CHUNK, err, errlen);
                if (n < 0) {
                    return -1;
                }
                in->raw_len = (size_t)n;
                in->raw_pos = 0;
                in->raw_eof = n == 0;
            }
            size_t got = 0;
            fxt_status st = fxt_zdec_run(in->dec, in->raw, in->raw_len, &in->raw_pos, in->buf + produced,
                                         CLI_CHUNK - produced, &got);
            if (st != FXT_OK) {
                snprintf(err, errlen, "%s: corrupt compressed data", in->name);
                return -1;
            }
            produced += got;
            /* No output and no more input: the decoder cannot make progress. */
            if (got == 0 && in->raw_eof) {
                break;
            }
        }
        if (produced == 0) {
            /* At the end, a stream not closed by its trailer is truncated input, which is reported. */
            if (fxt_zdec_finish(in->dec) != FXT_OK) {
                snprintf(err, errlen, "%s: compressed stream is cut short", in->name);
                return -1;
            }
            return 0;
        }
        in->total += produced;
        *data = in->buf;
        *len = produced;
        return 1;
    }
#endif
    ssize_t got = fill(in, in->buf, CLI_CHUNK, err, errlen);
    if (got < 0) {
        return -1;
    }
    if (got == 0) {
        return 0;
    }
    /* Detection by magic bytes on the first chunk works for pipes too (no file name needed). */
    if (!in->detected) {
        in->detected = 1;
#ifdef FXT_HAVE_ZIO
        fxt_zio_format fmt = fxt_zio_detect(in->buf, (size_t)got);
        if (fmt != FXT_ZIO_NONE) {
            /* compressed: the chunk we read becomes the first compressed input */
            if (fxt_zdec_create(fmt, &in->dec) != FXT_OK) {
                snprintf(err, errlen, "out of memory");
                return -1;
            }
            in->raw = in->buf;
            in->raw_len = (size_t)got;
            in->raw_pos = 0;
            in->raw_eof = 0;
            /* The first chunk was moved to raw without copying; a new output buffer takes its place. */
            in->buf = malloc(CLI_CHUNK);
            if (in->buf == NULL) {
                snprintf(err, errlen, "out of memory");
                return -1;
            }
            /* Recurses once: dec is set now, so the call takes the decompression path. */
            return cli_input_read(in, data, len, err, errlen);
        }
#else
        /* gzip (1f 8b) and zstd (28 b5 2f fd) magic: better a clear error than garbage records. */
        if (got >= 2 &&
            ((in->buf[0] == 0x1f && in->buf[1] == 0x8b) || (in->buf[0] == 0x28 && in->buf[1] == 0xb5))) {
            snprintf(err, errlen, "%s: compressed input, but this fxt was built without compression support",
                     in->name);
            return -1;
        }
#endif
    }
    in->total += (size_t)got;
    *data = in->buf;
    *len = (size_t)got;
    return 1;
}

uint64_t cli_input_bytes(const cli_input_t *in) { return in->total; }

const char *cli_input_name(const cli_input_t *in) { return in->name; }

void cli_input_close(cli_input_t *in) {
    if (!in) {
        return;
    }
    if (in->owns_fd) {
        close(in->fd);
    }
#ifdef FXT_HAVE_ZIO
    fxt_zdec_destroy(in->dec);
#endif
    free(in->raw);
    free(in->buf);
    free(in);
}

/* ---- output ------------------------------------------------------------------------- */

struct cli_output {
    int fd;
    int owns_fd;
    fxt_sink_t sink;
#ifdef FXT_HAVE_ZIO
    fxt_zsink_t *z;
#endif
    char name[256];
};

/* 0 none, 1 gzip, 2 zstd: forced by `format`, else from the name. -1 for an unknown format. */
static int output_format(const char *path, const char *format) {
    if (format != NULL) {
        return strcmp(format, "gzip") == 0   ? 1
               : strcmp(format, "zstd") == 0 ? 2
               : strcmp(format, "none") == 0 ? 0
                                             : -1;
    }
    size_t n = path != NULL ? strlen(path) : 0;
    if (n > 3 && strcmp(path + n - 3, ".gz") == 0) {
        return 1;
    }
    if ((n > 4 && strcmp(path + n - 4, ".zst") == 0) || (n > 5 && strcmp(path + n - 5, ".zstd") == 0)) {
        return 2;
    }
    return 0;
}

/* Opens PATH (or stdout for NULL or "-"), wrapped in a compressor when one is wanted. */
int cli_output_open(const char *path, const char *format, cli_output_t **out, char *err, size_t errlen) {
    /* the format is settled before the file is created, so a refused request leaves no empty file */
    int want = output_format(path, format);
    if (want < 0) {
        snprintf(err, errlen, "unknown compression '%s' (gzip, zstd, none)", format);
        return CLI_EXIT_USAGE;
    }
#ifndef FXT_HAVE_ZIO
    if (want) {
        snprintf(err, errlen,
                 "%s: %s output, but this fxt was built without compression support "
                 "(use another name or --compress none)",
                 path != NULL ? path : "<stdout>", want == 1 ? "gzip" : "zstd");
        return CLI_EXIT_USAGE;
    }
#endif
    cli_output_t *o = calloc(1, sizeof *o);
    if (o == NULL) {
        snprintf(err, errlen, "out of memory");
        return CLI_EXIT_LIMIT;
    }
    if (path == NULL || strcmp(path, "-") == 0) {
        /* Not owned: stdout stays open for the caller. */
        o->fd = 1;
        snprintf(o->name, sizeof o->name, "<stdout>");
    } else {
        /* 0644: a trace is ordinary data; the umask still applies. */
        o->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (o->fd < 0) {
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
            free(o);
            return CLI_EXIT_IO;
        }
        o->owns_fd = 1;
        snprintf(o->name, sizeof o->name, "%s", path);
    }
    o->sink = fxt_sink_fd(&o->fd);
#ifdef FXT_HAVE_ZIO
    if (want && fxt_zsink_create(want == 1 ? FXT_ZIO_GZIP : FXT_ZIO_ZSTD, 0, o->sink, &o->z) != FXT_OK) {
        snprintf(err, errlen, "cannot start compression");
        cli_output_close(o, 1);
        return CLI_EXIT_LIMIT;
    }
    if (want) {
        o->sink = fxt_zsink_sink(o->z);
    }
#endif
    *out = o;
    return 0;
}

fxt_sink_t cli_output_sink(cli_output_t *o) { return o->sink; }

/* Finishes and closes; FAILED skips the compressor's trailer (the output is abandoned).
 * Returns -1 when the trailer or close(2) fails: data may not have reached the disk. */
int cli_output_close(cli_output_t *o, int failed) {
    if (o == NULL) {
        return 0;
    }
    int rc = 0;
#ifdef FXT_HAVE_ZIO
    if (o->z != NULL) {
        if (!failed && fxt_zsink_finish(o->z) != FXT_OK) {
            rc = -1;
        }
        fxt_zsink_destroy(o->z);
    }
#else
    (void)failed; /* only a compressor has a trailer to skip on failure */
#endif
    if (o->owns_fd && close(o->fd) != 0) {
        rc = -1;
    }
    free(o);
    return rc;
}
