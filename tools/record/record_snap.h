/* SPDX-License-Identifier: MIT */
/*
 * fxt record's flight recorder (docs/manager.md#triggers): the triggers the manager
 * raises (alerts, crashes) and the recorder's own (a signal), each saved as a snapshot
 * archive while the program runs on, after an optional post-window; one summary line
 * per snapshot on stderr. Linux (the manager).
 */
#ifndef FXT_RECORD_SNAP_H
#define FXT_RECORD_SNAP_H

#include <fxt/manager.h>

#include <stddef.h>
#include <stdint.h>

typedef struct record_snap {
    /* options */
    const char *out;      /* -o as given: "%n" is the snapshot's number, else NAME.N.EXT */
    const char *compress; /* --compress */
    uint64_t post_ns;     /* --post */
    unsigned max;         /* --max-snapshots (0: no limit) */
    /* state */
    unsigned taken, skipped, merged, failed;
    int pending; /* a trigger waits for its post-window */
    fxt_manager_trigger_t why;
    uint64_t due_ns, cut, learnt_ns; /* when to save, the cut (ticks), when the trigger came */
    int stop;                        /* a stop trigger came: the recording ends */
} record_snap_t;

/* The path of snapshot n (1, 2, ...) for output `out`, or of the final archive (n = 0: "%n" is
 * "final", else `out` itself). 0, or -1 when it does not fit. */
int record_snap_path(const char *out, unsigned n, char *buf, size_t cap);
/* A signal for --snapshot-on-signal: USR1, SIGUSR1, or a number; -1 when not accepted. */
int record_snap_signal(const char *name);
/* A trigger of the recorder's own (its signal), at the archive's time now. */
void record_snap_raise_signal(record_snap_t *s, fxt_manager_t *m, int sig, uint64_t now_ns);
/* Take the manager's triggers; save the snapshot whose post-window is over (`now_ns`,
 * CLOCK_MONOTONIC), or any pending one when `flush` (the recording stops). */
void record_snap_poll(record_snap_t *s, fxt_manager_t *m, uint64_t now_ns, int flush);
/* The line saying how many snapshots were saved, if triggers came (and how many the manager
 * dropped: fxt_manager_triggers_lost). */
void record_snap_summary(const record_snap_t *s, const fxt_manager_t *m);

#endif /* FXT_RECORD_SNAP_H */
