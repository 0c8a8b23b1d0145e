/* SPDX-License-Identifier: MIT */
/*
 * Input and output for the fxt command: files or stdin/stdout ("-"), read in
 * chunks; gzip and zstd inputs are recognised by their magic bytes and
 * decompressed on the fly (from files and pipes alike); outputs are
 * compressed when their name ends in .gz / .zst or a format is forced.
 */
/* realpath, fchmod: XSI, beyond the _POSIX_C_SOURCE the tools build with */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif
#include "cli_io.h"

#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
    int regular;    /* a regular file: its size at open tells whether it shrank */
    uint64_t size0; /* its size when opened */
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
    struct stat sb;
    if (fstat(in->fd, &sb) == 0 && S_ISREG(sb.st_mode)) {
        in->regular = 1;
        in->size0 = (uint64_t)sb.st_size;
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
    /* A directory opens, then fails at the first read: said here, before the output exists. */
    struct stat sb;
    int dir = fstat(fd, &sb) == 0 && S_ISDIR(sb.st_mode);
    close(fd);
    if (dir) {
        fprintf(stderr, "fxt %s: %s: %s\n", cmd, path, strerror(EISDIR));
        return CLI_EXIT_IO;
    }
    return 0;
}

/* write(2) of all n bytes; -1 with errno on failure. */
static int write_all(int fd, const uint8_t *p, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w < 0) {
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int cli_input_spool(const char *cmd, const char *in, char *path, size_t cap, int *fd) {
    *fd = -1;
    int named = in != NULL && strcmp(in, "-") != 0;
    struct stat sb;
    if (named && stat(in, &sb) == 0 && S_ISREG(sb.st_mode)) {
        snprintf(path, cap, "%s", in); /* a regular file reads twice as it is (also compressed) */
        return 0;
    }
    const char *name = named ? in : "<stdin>";
    int src = named ? open(in, O_RDONLY) : 0;
    if (src < 0) {
        fprintf(stderr, "fxt %s: %s: %s\n", cmd, name, strerror(errno));
        return CLI_EXIT_IO;
    }
    const char *dir = getenv("TMPDIR");
    char tmpl[4096];
    snprintf(tmpl, sizeof tmpl, "%s/fxt-%s-XXXXXX", dir != NULL && *dir ? dir : "/tmp", cmd);
    int t = mkstemp(tmpl);
    if (t < 0) {
        fprintf(stderr, "fxt %s: cannot copy %s to read it twice: %s: %s\n", cmd, name, tmpl,
                strerror(errno));
        if (named) {
            close(src);
        }
        return CLI_EXIT_IO;
    }
    unlink(tmpl); /* nothing to clean up, whatever ends the process */
    uint8_t *buf = malloc(1u << 16);
    int rc = buf == NULL ? CLI_EXIT_LIMIT : 0;
    while (rc == 0) {
        ssize_t n = read(src, buf, 1u << 16);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            fprintf(stderr, "fxt %s: %s: %s\n", cmd, name, strerror(errno));
            rc = CLI_EXIT_IO;
        } else if (n == 0) {
            break;
        } else if (write_all(t, buf, (size_t)n) != 0) {
            fprintf(stderr, "fxt %s: cannot copy %s to read it twice: %s\n", cmd, name, strerror(errno));
            rc = CLI_EXIT_IO;
        }
    }
    if (rc == CLI_EXIT_LIMIT) {
        fprintf(stderr, "fxt %s: out of memory\n", cmd);
    }
    free(buf);
    if (named) {
        close(src);
    }
    if (rc != 0) {
        close(t);
        return rc;
    }
    snprintf(path, cap, "/dev/fd/%d", t);
    *fd = t;
    return 0;
}

/* The file a path names (NULL or "-": the standard stream fd); 0, or -1 when it has none. */
static int file_id(const char *path, int fd, struct stat *sb) {
    if (path == NULL || strcmp(path, "-") == 0) {
        return fstat(fd, sb);
    }
    return stat(path, sb);
}

int cli_output_check(const char *cmd, const char *out, const char *const *ins, size_t nins) {
    struct stat os;
    /* An output that does not exist yet, or is not a regular file (a pipe, a terminal,
     * /dev/null), cannot be an input that reading it would destroy. */
    if (file_id(out, 1, &os) != 0 || !S_ISREG(os.st_mode)) {
        return 0;
    }
    for (size_t i = 0; i < nins; i++) {
        struct stat is;
        if (file_id(ins[i], 0, &is) == 0 && is.st_dev == os.st_dev && is.st_ino == os.st_ino) {
            fprintf(stderr, "fxt %s: the output %s is the input %s (the same file): refused\n", cmd,
                    out != NULL && strcmp(out, "-") != 0 ? out : "<stdout>",
                    ins[i] != NULL && strcmp(ins[i], "-") != 0 ? ins[i] : "<stdin>");
            return CLI_EXIT_USAGE;
        }
    }
    return 0;
}

void (*cli_input_read_hook)(const char *name);

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
    if (got == 0 && cap > 0 && in->regular && in->raw_total < in->size0) {
        /* The end came before the size the file had when opened: another program cut it. What
         * was read is processed; the rest is gone, which is a read error, not damage. */
        struct stat sb;
        long long now = fstat(in->fd, &sb) == 0 ? (long long)sb.st_size : -1;
        snprintf(err, errlen,
                 "%s shrank while it was read (%" PRIu64 " bytes when opened, %lld now): records past the "
                 "new end are missing",
                 in->name, in->size0, now);
        return -1;
    }
    if (got > 0 && cli_input_read_hook != NULL) {
        cli_input_read_hook(in->name);
    }
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
    int err_no; /* errno of the first failed write or close: the reason told to the user */
    fxt_sink_t sink;
#ifdef FXT_HAVE_ZIO
    fxt_zsink_t *z;
#endif
    char *final; /* written through a temporary file: the name it gets on success */
    char *tmp;   /* that temporary file, beside it */
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

/* write(2) to the end, keeping errno: "No space left on device" is told, not just "I/O error". */
static fxt_status out_write(void *ctx, const void *data, size_t len) {
    cli_output_t *o = ctx;
    const uint8_t *p = data;
    while (len > 0) {
        ssize_t n = write(o->fd, p, len);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            if (o->err_no == 0) {
                o->err_no = n < 0 ? errno : EIO;
            }
            return FXT_E_IO;
        }
        p += n;
        len -= (size_t)n;
    }
    return FXT_OK;
}

/* The temporary file being written, removed if a signal ends the process before the rename
 * (one output per process at a time; the handlers are installed only while it exists). */
static char *volatile g_tmp;
static const int g_sigs[] = {SIGINT, SIGTERM, SIGHUP};
static struct sigaction g_old[3];

static void on_fatal_signal(int sig) {
    char *t = g_tmp;
    if (t != NULL) {
        unlink(t); /* async-signal-safe */
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void tmp_guard(char *tmp) {
    g_tmp = tmp;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof g_sigs / sizeof g_sigs[0]; i++) {
        struct sigaction old;
        sigaction(g_sigs[i], NULL, &old);
        g_old[i] = old;
        /* A signal the caller ignores (nohup) stays ignored. */
        if (old.sa_handler != SIG_IGN) {
            sigaction(g_sigs[i], &sa, NULL);
        }
    }
}

static void tmp_unguard(void) {
    for (size_t i = 0; i < sizeof g_sigs / sizeof g_sigs[0]; i++) {
        sigaction(g_sigs[i], &g_old[i], NULL);
    }
    g_tmp = NULL;
}

/* Creates "DIR/.NAME.XXXXXX" beside `target` with `mode`: the fd, or -1 with errno set. */
static int make_tmp(const char *target, mode_t mode, char **tmp_out) {
    const char *slash = strrchr(target, '/');
    size_t dlen = slash != NULL ? (size_t)(slash - target) + 1 : 0;
    const char *base = target + dlen;
    size_t need = dlen + 1 + strlen(base) + 8;
    char *tmp = malloc(need);
    if (tmp == NULL) {
        errno = ENOMEM;
        return -1;
    }
    snprintf(tmp, need, "%.*s.%s.XXXXXX", (int)dlen, target, base);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        errno = e;
        return -1;
    }
    /* mkstemp makes 0600; the output gets the mode the file had, or a new file's. */
    (void)fchmod(fd, mode);
    *tmp_out = tmp;
    return fd;
}

/* Opens the file output: regular files (existing or new) through a temporary file renamed on
 * success; anything else (a FIFO, /dev/null, a device, a dangling symlink) directly. */
static int open_file(cli_output_t *o, const char *path, char *err, size_t errlen) {
    struct stat sb;
    int exists = stat(path, &sb) == 0;
    if (!exists && errno != ENOENT) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return CLI_EXIT_IO;
    }
    struct stat lsb;
    int dangling = !exists && lstat(path, &lsb) == 0 && S_ISLNK(lsb.st_mode);
    if ((exists && S_ISREG(sb.st_mode)) || (!exists && !dangling)) {
        mode_t mode;
        char *target;
        if (exists) {
            /* Not writable stays refused, as when the file itself was opened. */
            if (access(path, W_OK) != 0) {
                snprintf(err, errlen, "%s: %s", path, strerror(errno));
                return CLI_EXIT_IO;
            }
            mode = sb.st_mode & 07777;
            /* Through a symlink the file it names is replaced, not the link. */
            target = realpath(path, NULL);
        } else {
            mode_t um = umask(0);
            umask(um);
            mode = 0644 & ~um; /* a trace is ordinary data; the umask applies */
            target = strdup(path);
        }
        if (target == NULL) {
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
            return CLI_EXIT_IO;
        }
        char *tmp = NULL;
        o->fd = make_tmp(target, mode, &tmp);
        if (o->fd >= 0) {
            o->final = target;
            o->tmp = tmp;
            o->owns_fd = 1;
            tmp_guard(tmp);
            return 0;
        }
        int e = errno;
        free(target);
        /* A directory that takes no new file, holding a file that is writable: written in place
         * (the only way left; docs/cli.md). */
        if (!(exists && (e == EACCES || e == EPERM))) {
            snprintf(err, errlen, "%s: %s", path, strerror(e));
            return CLI_EXIT_IO;
        }
    }
    o->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (o->fd < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return CLI_EXIT_IO;
    }
    o->owns_fd = 1;
    return 0;
}

int cli_output_open(const char *path, const char *format, cli_output_t **out, char *err, size_t errlen) {
    return cli_output_open_flags(path, format, 0, out, err, errlen);
}

/* Opens PATH (or stdout for NULL or "-"), wrapped in a compressor when one is wanted. */
int cli_output_open_flags(const char *path, const char *format, int flags, cli_output_t **out, char *err,
                          size_t errlen) {
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
        int rc;
        if (flags & CLI_OUTPUT_IN_PLACE) {
            o->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            rc = o->fd < 0 ? CLI_EXIT_IO : 0;
            if (rc != 0) {
                snprintf(err, errlen, "%s: %s", path, strerror(errno));
            }
            o->owns_fd = o->fd >= 0;
        } else {
            rc = open_file(o, path, err, errlen);
        }
        if (rc != 0) {
            free(o);
            return rc;
        }
        snprintf(o->name, sizeof o->name, "%s", path);
    }
    o->sink = (fxt_sink_t){out_write, o};
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

void cli_output_error(const char *cmd, int err) {
    if (err == EPIPE) {
        return; /* the reader closed the pipe (`| head`): exit 3, quietly (docs/cli.md) */
    }
    fprintf(stderr, "fxt %s: error writing output: %s\n", cmd, strerror(err));
}

int cli_stdout_finish(const char *cmd, int failed) {
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout) && !failed) {
        return 0;
    }
    /* the earlier write's reason, else the flush's */
    cli_output_error(cmd, failed > 1 ? failed : errno != 0 ? errno : EIO);
    return CLI_EXIT_IO;
}

void cli_output_abandon(void) {
    char *t = g_tmp;
    if (t != NULL) {
        unlink(t);
    }
}

int cli_output_errno(const cli_output_t *o) { return o != NULL && o->err_no != 0 ? o->err_no : EIO; }

const char *cli_output_tmp_path(const cli_output_t *o) { return o != NULL ? o->tmp : NULL; }

/* Finishes and closes; FAILED skips the compressor's trailer and removes the temporary file
 * (an existing output is left as it was). Returns -1 when the trailer, close(2) or the rename
 * fails: the output is then not written (removed as well). */
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
#endif
    if (o->owns_fd && close(o->fd) != 0) {
        if (o->err_no == 0) {
            o->err_no = errno;
        }
        rc = -1;
    }
    if (o->tmp != NULL) {
        if (failed || rc != 0) {
            unlink(o->tmp);
        } else if (rename(o->tmp, o->final) != 0) {
            if (o->err_no == 0) {
                o->err_no = errno;
            }
            unlink(o->tmp);
            rc = -1;
        }
        tmp_unguard();
        free(o->tmp);
        free(o->final);
    }
    int e = o->err_no;
    free(o);
    errno = e != 0 ? e : EIO; /* what the caller tells (cli_io.h) */
    return rc;
}
