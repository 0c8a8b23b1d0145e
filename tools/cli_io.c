/* Chunked input from a file or stdin. */
#include "cli_io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CLI_CHUNK (1u << 20) /* 1 MiB: big enough to amortise syscalls, small enough for the memory bound */

struct cli_input {
    int fd;
    int owns_fd;
    uint8_t *buf;
    uint64_t total;
    char name[256];
};

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

int cli_input_read(cli_input_t *in, const uint8_t **data, size_t *len, char *err, size_t errlen) {
    size_t got = 0;
    /* Fill the chunk as far as the source allows, so pipes give large chunks too. */
    while (got < CLI_CHUNK) {
        ssize_t n = read(in->fd, in->buf + got, CLI_CHUNK - got);
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
    if (got == 0) {
        return 0;
    }
    in->total += got;
    *data = in->buf;
    *len = got;
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
    free(in->buf);
    free(in);
}
