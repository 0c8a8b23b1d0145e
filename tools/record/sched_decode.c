/* SPDX-License-Identifier: MIT */
/* Raw ftrace sched events -> sched_model_t, through libtraceevent's format parsing and kbuffer. */
#include "sched_decode.h"

#include <fxt/format.h>

#include <event-parse.h>
#include <kbuffer.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Field order in sched_fields_t.f for each event. */
enum { SW_PREV_COMM, SW_PREV_PID, SW_PREV_PRIO, SW_PREV_STATE, SW_NEXT_COMM, SW_NEXT_PID, SW_NEXT_PRIO };
enum { WK_COMM, WK_PID, WK_PRIO, WK_TARGET_CPU };
enum { FK_PARENT_PID, FK_CHILD_PID };
enum { EX_PID, EX_OLD_PID };
enum { XT_COMM, XT_PID };

static const char *const SW_NAMES[] = {"prev_comm", "prev_pid", "prev_prio", "prev_state",
                                       "next_comm", "next_pid", "next_prio", NULL};
static const char *const WK_NAMES[] = {"comm", "pid", "prio", "target_cpu", NULL};
static const char *const FK_NAMES[] = {"parent_pid", "child_pid", NULL};
static const char *const EX_NAMES[] = {"pid", "old_pid", NULL};
static const char *const XT_NAMES[] = {"comm", "pid", NULL};

/* A whole file; tracefs files report size 0, so read until EOF. NULL if unreadable. */
static char *read_all(const char *path, size_t *len) {
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return NULL;
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    while (buf != NULL) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap) {
            break;
        }
        char *nb = realloc(buf, 2 * cap + 1);
        if (nb == NULL) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (buf == NULL || bad) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

static const char *const SCHED_EVENTS[] = {"sched_switch",       "sched_wakeup",       "sched_wakeup_new",
                                           "sched_process_fork", "sched_process_exec", "sched_process_exit"};

struct tep_handle *sched_tep_load(const char *dir, char *err, size_t errlen) {
    struct tep_handle *tep = tep_alloc();
    if (tep == NULL) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    const unsigned one = 1;
    enum tep_endian host = *(const unsigned char *)&one ? TEP_LITTLE_ENDIAN : TEP_BIG_ENDIAN;
    tep_set_file_bigendian(tep, host);
    tep_set_local_bigendian(tep, host);
    tep_set_long_size(tep, (int)sizeof(long));
    tep_set_page_size(tep, (int)sysconf(_SC_PAGESIZE));
    char path[4096];
    size_t len;
    snprintf(path, sizeof path, "%s/events/header_page", dir);
    char *text = read_all(path, &len);
    int ok = text != NULL && tep_parse_header_page(tep, text, len, (int)sizeof(long)) == 0;
    free(text);
    if (!ok) {
        snprintf(err, errlen, "cannot read the ring buffer's page header from %s", path);
        tep_free(tep);
        return NULL;
    }
    /* sched_switch is required (sched_decoder_init says so); the others are optional */
    for (size_t i = 0; i < sizeof SCHED_EVENTS / sizeof SCHED_EVENTS[0]; i++) {
        snprintf(path, sizeof path, "%s/events/sched/%s/format", dir, SCHED_EVENTS[i]);
        text = read_all(path, &len);
        if (text != NULL) {
            tep_parse_event(tep, text, len, "sched");
            free(text);
        }
    }
    return tep;
}

/* An event's id and fields; the event counts as absent (-1) unless every field is there. */
static void find_event(struct tep_handle *tep, const char *name, const char *const *fields,
                       sched_fields_t *out) {
    memset(out, 0, sizeof *out);
    out->id = -1;
    struct tep_event *ev = tep_find_event_by_name(tep, "sched", name);
    if (ev == NULL) {
        return;
    }
    for (int i = 0; fields[i] != NULL; i++) {
        out->f[i] = tep_find_field(ev, fields[i]);
        if (out->f[i] == NULL || out->f[i]->offset < 0 || out->f[i]->size <= 0) {
            return;
        }
    }
    out->id = ev->id;
}

int sched_decoder_init(sched_decoder_t *d, struct tep_handle *tep, char *err, size_t errlen) {
    memset(d, 0, sizeof *d);
    d->tep = tep;
    find_event(tep, "sched_switch", SW_NAMES, &d->sw);
    find_event(tep, "sched_wakeup", WK_NAMES, &d->wakeup);
    find_event(tep, "sched_wakeup_new", WK_NAMES, &d->wakeup_new);
    find_event(tep, "sched_process_fork", FK_NAMES, &d->fork);
    struct tep_event *fork = d->fork.id >= 0 ? tep_find_event(tep, d->fork.id) : NULL;
    d->child_comm = fork != NULL ? tep_find_field(fork, "child_comm") : NULL;
    find_event(tep, "sched_process_exec", EX_NAMES, &d->exec);
    find_event(tep, "sched_process_exit", XT_NAMES, &d->exit_);
    if (d->sw.id < 0) {
        snprintf(err, errlen,
                 "the kernel's sched:sched_switch event has no usable format (prev_pid, next_pid, ...)");
        return -1;
    }
    d->kbuf = tep_kbuffer(tep);
    if (d->kbuf == NULL) {
        snprintf(err, errlen, "cannot set up a ring-buffer decoder (libtraceevent kbuffer) for this kernel");
        return -1;
    }
    return 0;
}

void sched_decoder_free(sched_decoder_t *d) {
    if (d->kbuf != NULL) {
        kbuffer_free(d->kbuf);
    }
    memset(d, 0, sizeof *d);
}

/* Every field of the event lies inside the record (a truncated record is skipped, never over-read). */
static int fits(const sched_fields_t *e, int n, int size) {
    for (int i = 0; i < n; i++) {
        if (e->f[i]->offset + e->f[i]->size > size) {
            return 0;
        }
    }
    return 1;
}

static int64_t num(const sched_decoder_t *d, const struct tep_format_field *f, const uint8_t *data) {
    unsigned long long v = tep_read_number(d->tep, data + f->offset, f->size);
    if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8) { /* sign-extend pid_t, int */
        unsigned shift = 64u - 8u * (unsigned)f->size;
        return (int64_t)(v << shift) >> shift;
    }
    return (int64_t)v;
}

static void comm(sched_model_t *m, int32_t tid, const struct tep_format_field *f, const uint8_t *data,
                 uint64_t ts) {
    sched_model_comm(m, tid, (const char *)data + f->offset, (size_t)f->size, ts);
}

/* The child's name from a fork event: a __data_loc string (offset and length in 32 bits) or an array. */
static void fork_comm(const sched_decoder_t *d, sched_model_t *m, int32_t child, const uint8_t *data,
                      int size, uint64_t ts) {
    const struct tep_format_field *f = d->child_comm;
    if (f == NULL || f->offset < 0 || f->offset + f->size > size) {
        return;
    }
    int off = f->offset, len = f->size;
    if (f->flags & TEP_FIELD_IS_DYNAMIC) {
        unsigned long long loc = tep_read_number(d->tep, data + f->offset, 4);
        off = (int)(loc & 0xffffu);
        len = (int)(loc >> 16);
        if ((f->flags & TEP_FIELD_IS_RELATIVE) != 0) {
            off += f->offset + 4; /* __rel_loc: relative to the end of the field */
        }
        if (off < 0 || len < 0 || off + len > size) {
            return;
        }
    }
    if (child >= 0 && len > 0) {
        sched_model_comm(m, child, (const char *)data + off, (size_t)len, ts);
    }
}

int sched_decode_event(sched_decoder_t *d, const void *payload, int size, uint64_t ts, int cpu,
                       sched_model_t *m) {
    const uint8_t *data = payload;
    sched_ev_t ev;
    memset(&ev, 0, sizeof ev);
    ev.ts = ts;
    ev.cpu = (uint32_t)cpu;
    if (size < 2) {
        d->skipped++;
        return 0;
    }
    int id = (int)tep_read_number(d->tep, data, 2); /* common_type: the first field of every event */
    const sched_fields_t *e = NULL;
    if (id == d->sw.id && fits(e = &d->sw, 7, size)) {
        ev.kind = SCHED_EV_SWITCH;
        ev.a = (int32_t)num(d, e->f[SW_PREV_PID], data);
        ev.b = (int32_t)num(d, e->f[SW_NEXT_PID], data);
        ev.a_prio = (int16_t)num(d, e->f[SW_PREV_PRIO], data);
        ev.b_prio = (int16_t)num(d, e->f[SW_NEXT_PRIO], data);
        ev.out_state = (uint8_t)sched_out_state(num(d, e->f[SW_PREV_STATE], data));
        comm(m, ev.a, e->f[SW_PREV_COMM], data, ts);
        comm(m, ev.b, e->f[SW_NEXT_COMM], data, ts);
    } else if ((id == d->wakeup.id && fits(e = &d->wakeup, 4, size)) ||
               (id == d->wakeup_new.id && fits(e = &d->wakeup_new, 4, size))) {
        ev.kind = SCHED_EV_WAKEUP;
        ev.a = (int32_t)num(d, e->f[WK_PID], data);
        ev.b = id == d->wakeup_new.id;
        ev.a_prio = (int16_t)num(d, e->f[WK_PRIO], data);
        ev.cpu = (uint32_t)num(d, e->f[WK_TARGET_CPU], data); /* where it will run */
        comm(m, ev.a, e->f[WK_COMM], data, ts);
    } else if (id == d->fork.id && fits(e = &d->fork, 2, size)) {
        ev.kind = SCHED_EV_FORK;
        ev.a = (int32_t)num(d, e->f[FK_PARENT_PID], data);
        ev.b = (int32_t)num(d, e->f[FK_CHILD_PID], data);
        fork_comm(d, m, ev.b, data, size, ts); /* a task that exits before it runs has no other name */
    } else if (id == d->exec.id && fits(e = &d->exec, 2, size)) {
        ev.kind = SCHED_EV_EXEC;
        ev.a = (int32_t)num(d, e->f[EX_PID], data);
        ev.b = (int32_t)num(d, e->f[EX_OLD_PID], data);
    } else if (id == d->exit_.id && fits(e = &d->exit_, 2, size)) {
        ev.kind = SCHED_EV_EXIT;
        ev.a = (int32_t)num(d, e->f[XT_PID], data);
        comm(m, ev.a, e->f[XT_COMM], data, ts);
    } else {
        d->skipped++;
        return 0;
    }
    if (ev.a < 0 || ev.b < 0 || ev.cpu > FXT_MAX_CPU) { /* not a task id or a CPU: a corrupt record */
        d->skipped++;
        return 0;
    }
    return sched_model_add(m, &ev) == 0;
}

int sched_decode_subbuf(sched_decoder_t *d, void *subbuf, size_t size, int cpu, sched_model_t *m) {
    /* header: timestamp word, then the commit word (data bytes in its low 20 bits, flags above)
     * of the kernel's long size; kbuffer trusts it, so check it against what was read */
    size_t lsize = (size_t)tep_get_header_page_size(d->tep);
    if (lsize != 4 && lsize != 8) {
        lsize = sizeof(long);
    }
    uint64_t commit =
        size >= 8 + lsize ? tep_read_number(d->tep, (const uint8_t *)subbuf + 8, (int)lsize) : 0;
    if (size < 8 + lsize || (commit & 0xfffffu) > size - 8 - lsize ||
        kbuffer_load_subbuffer(d->kbuf, subbuf) < 0) {
        d->missed++; /* its events are lost: at least one */
        return -1;
    }
    int missed = kbuffer_missed_events(d->kbuf);
    if (missed != 0) {
        d->missed += missed > 0 ? (uint64_t)missed : 1u; /* -1: some, the kernel did not count */
    }
    int added = 0;
    unsigned long long ts;
    const uint8_t *end = (const uint8_t *)subbuf + size;
    for (void *ev = kbuffer_read_event(d->kbuf, &ts); ev != NULL; ev = kbuffer_next_event(d->kbuf, &ts)) {
        int evsize = kbuffer_event_size(d->kbuf);
        if (evsize < 0 || (const uint8_t *)ev > end || (size_t)evsize > (size_t)(end - (const uint8_t *)ev)) {
            d->skipped++; /* a corrupt length: the rest of the sub-buffer cannot be trusted */
            break;
        }
        added += sched_decode_event(d, ev, evsize, ts, cpu, m);
    }
    return added;
}
