/* SPDX-License-Identifier: MIT */
/* Ready-made sinks for the writer: fixed buffer, growable memory, fd, FILE*. */
#include <fxt/writer.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static fxt_status fixed_write(void *ctx, const void *data, size_t len) {
    fxt_fixedbuf_t *fb = ctx;
    if (len == 0) {
        return FXT_OK;
    }
    if (len > fb->cap - fb->len) {
        return FXT_E_BUFFER_FULL;
    }
    memcpy(fb->data + fb->len, data, len);
    fb->len += len;
    return FXT_OK;
}

fxt_sink_t fxt_sink_fixed(fxt_fixedbuf_t *fb) {
    fxt_sink_t s = {fixed_write, fb};
    return s;
}

static fxt_status mem_write(void *ctx, const void *data, size_t len) {
    fxt_membuf_t *mb = ctx;
    if (len == 0) {
        return FXT_OK; /* also keeps NULL + 0 out of the pointer arithmetic */
    }
    if (len > mb->cap - mb->len) {
        size_t ncap = mb->cap ? mb->cap : 65536;
        while (ncap - mb->len < len) {
            if (ncap > SIZE_MAX / 2) {
                return FXT_E_NOMEM;
            }
            ncap *= 2;
        }
        uint8_t *nd = realloc(mb->data, ncap);
        if (nd == NULL) {
            return FXT_E_NOMEM;
        }
        mb->data = nd;
        mb->cap = ncap;
    }
    memcpy(mb->data + mb->len, data, len);
    mb->len += len;
    return FXT_OK;
}

fxt_sink_t fxt_sink_membuf(fxt_membuf_t *mb) {
    fxt_sink_t s = {mem_write, mb};
    return s;
}

static fxt_status capped_write(void *ctx, const void *data, size_t len) {
    fxt_capped_membuf_t *cb = ctx;
    if (cb->max != 0 && (cb->mem.len > cb->max || len > cb->max - cb->mem.len)) {
        return FXT_E_BUFFER_FULL;
    }
    return mem_write(&cb->mem, data, len);
}

fxt_sink_t fxt_sink_membuf_capped(fxt_capped_membuf_t *cb) {
    fxt_sink_t s = {capped_write, cb};
    return s;
}

void fxt_membuf_free(fxt_membuf_t *mb) {
    if (mb != NULL) {
        free(mb->data);
        mb->data = NULL;
        mb->len = mb->cap = 0;
    }
}

static fxt_status fd_write(void *ctx, const void *data, size_t len) {
    int fd = *(int *)ctx;
    const uint8_t *p = data;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return FXT_E_IO;
        }
        p += n;
        len -= (size_t)n;
    }
    return FXT_OK;
}

fxt_sink_t fxt_sink_fd(int *fd) {
    fxt_sink_t s = {fd_write, fd};
    return s;
}

static fxt_status file_write(void *ctx, const void *data, size_t len) {
    return fwrite(data, 1, len, (FILE *)ctx) == len ? FXT_OK : FXT_E_IO;
}

fxt_sink_t fxt_sink_file(FILE *f) {
    fxt_sink_t s = {file_write, f};
    return s;
}
