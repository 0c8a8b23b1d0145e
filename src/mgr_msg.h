/* SPDX-License-Identifier: MIT */
/* The one message layout of the manager protocol on both sides (src/manager.c,
 * src/trace_provider.c): a fxt_mgr_msg_t with room for passed descriptors. Linux. */
#ifndef FXT_MGR_MSG_H
#define FXT_MGR_MSG_H

#include <fxt/manager.h>

#include <stddef.h>
#include <string.h>
#include <sys/socket.h>

#define FXT__MGR_MAX_FDS 4

typedef struct fxt__mgr_packet {
    fxt_mgr_msg_t msg;
    struct iovec iov;
    struct msghdr mh;
    union {
        char buf[CMSG_SPACE(sizeof(int) * FXT__MGR_MAX_FDS)];
        size_t align; /* cmsghdr alignment (a struct cmsghdr member would nest a flexible array) */
    } ctl;
} fxt__mgr_packet_t;

/* Point pk->mh at pk->msg and at room for `nfds` descriptors (0: none). */
static inline void fxt__mgr_packet_init(fxt__mgr_packet_t *pk, size_t nfds) {
    memset(pk, 0, sizeof *pk);
    pk->iov.iov_base = &pk->msg;
    pk->iov.iov_len = sizeof pk->msg;
    pk->mh.msg_iov = &pk->iov;
    pk->mh.msg_iovlen = 1;
    if (nfds > 0) {
        pk->mh.msg_control = pk->ctl.buf;
        pk->mh.msg_controllen = CMSG_SPACE(sizeof(int) * nfds);
    }
}

#endif /* FXT_MGR_MSG_H */
