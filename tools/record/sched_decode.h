/* SPDX-License-Identifier: MIT */
/*
 * Raw kernel scheduling events (ftrace ring-buffer sub-buffers, as read from
 * tracefs per_cpu/cpuN/trace_pipe_raw) -> sched_model_t. Field offsets come
 * from the kernel's event format files through libtraceevent, so nothing here
 * hard-codes a kernel's layout; the plumbing that reads tracefs is in
 * record_sched.c. Unit-tested from captured pages and format files
 * (tests/data/sched/).
 */
#ifndef FXT_SCHED_DECODE_H
#define FXT_SCHED_DECODE_H

#include "sched_model.h"

#include <stdint.h>

struct tep_handle;
struct tep_format_field;
struct kbuffer;

/* The fields of one event, NULL when the kernel's format lacks them. */
typedef struct sched_fields {
    int id; /* event id, -1 when the event is unknown */
    struct tep_format_field *f[7];
} sched_fields_t;

typedef struct sched_decoder {
    struct tep_handle *tep; /* borrowed */
    struct kbuffer *kbuf;
    sched_fields_t sw, wakeup, wakeup_new, fork, exec, exit_;
    struct tep_format_field
        *child_comm;  /* sched_process_fork's, when there (a __data_loc string or char[16]) */
    uint64_t missed;  /* events the kernel reported lost between sub-buffers, + 1 per refused sub-buffer */
    uint64_t skipped; /* records too short for their fields, or of other events */
} sched_decoder_t;

/*
 * A libtraceevent handle for the sched events: the ring buffer's header page
 * and the events' formats read from TRACING_DIR/events/ (a tracefs mount, or
 * a copy of its files as in tests/data/sched/), with the host's long size,
 * byte order and page size. Reads 7 small files, not every event of the
 * system. NULL with one line in err; free with tep_free().
 */
struct tep_handle *sched_tep_load(const char *tracing_dir, char *err, size_t errlen);
/*
 * Look up the sched events' ids and fields in tep (sched_switch is required,
 * the others are used when present). 0, or -1 with one line in err.
 */
int sched_decoder_init(sched_decoder_t *d, struct tep_handle *tep, char *err, size_t errlen);
void sched_decoder_free(sched_decoder_t *d);
/*
 * Decode one sub-buffer of `size` bytes (a page of trace_pipe_raw) recorded on
 * `cpu` into m. Returns the number of events added, or -1 (counted in
 * `missed`) if the header is not a sub-buffer's.
 */
int sched_decode_subbuf(sched_decoder_t *d, void *subbuf, size_t size, int cpu, sched_model_t *m);
/* Decode one event's payload (`size` bytes at data, the common header first). 1 if added, 0 if skipped. */
int sched_decode_event(sched_decoder_t *d, const void *data, int size, uint64_t ts, int cpu,
                       sched_model_t *m);

#endif
