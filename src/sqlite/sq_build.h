/* SPDX-License-Identifier: MIT */
/* libfxt_sqlite: the state of one trace's read (sq_build.c) and its finishing passes
 * (sq_finish.c: slice ids and nesting, async chains, flows, scheduling). */
#ifndef FXT_SQ_BUILD_H
#define FXT_SQ_BUILD_H

#include "sq_internal.h"

/* Per provider while reading: caches of string and thread refs (exact: a string or thread
 * record for an index clears its entry, as re-registration replaces). */
typedef struct sq_pstate {
    uint32_t id, row; /* provider id, its row in db->provs */
    uint64_t tps;
    uint32_t *scache;     /* [32768]: string id + 1, 0 = not cached; allocated on first use */
    uint32_t tcache[256]; /* utid + 1 */
} sq_pstate;

/* An async event, paired after the read in time order (40 bytes). */
typedef struct sq_chainpt {
    int64_t ts; /* first: sq_order_by_ts */
    uint64_t id;
    uint32_t prov; /* index in the build's providers */
    uint32_t type; /* event type */
    uint32_t utid, cat, name, args;
} sq_chainpt;

/* A flow event, bound to its enclosing slice and paired after the read (32 bytes). */
typedef struct sq_flowpt {
    int64_t ts; /* first: sq_order_by_ts */
    uint64_t id;
    uint32_t prov, type, utid;
    uint32_t slice; /* the enclosing slice */
} sq_flowpt;
typedef SQ_VEC(sq_flowpt) sq_flowvec;

/* A context switch or wakeup, turned into sched_slice and thread_state rows at the end. */
typedef struct sq_swpt {
    int64_t ts;
    uint32_t cpu, out_utid, in_utid, out_state;
    int32_t in_prio;
    uint32_t wakeup; /* 1: a wakeup of in_utid */
} sq_swpt;

/* What the nesting of a trace needs after its read (sq_trace.nest): its slices, tracks and
 * flow points. */
struct sq_nest_state {
    size_t first_slice, slice_end, first_track, track_end, nprovs;
    sq_flowvec flows;
};

/* Arguments that join an older arg set, moved into place after the read. */
typedef struct sq_late_arg {
    uint32_t set;
    sq_arg a;
} sq_late_arg;

typedef struct sq_build {
    sq_db *db;
    uint32_t trace;
    fxt_reader_t *r;
    SQ_VEC(sq_pstate) provs;
    size_t cur; /* index of the current provider in provs */
    sq_map threads, tids, procs, ctracks, koids, skeys;
    struct {
        uint32_t track, cat, key; /* key SQ_NONE: empty */
    } skmemo[1024];               /* recent slice keys: most slices repeat one */
    SQ_VEC(uint32_t) open;        /* per track of this trace: open begin stack head (slice + 1) */
    SQ_VEC(uint32_t) tkey;        /* per track of this trace: its last slice key (SQ_NONE: none yet) */
    SQ_VEC(sq_chainpt) async;
    sq_flowvec flows;
    SQ_VEC(sq_swpt) sw;
    size_t first_track, first_slice;
    size_t track_end, slice_end; /* the nesting's ranges (sq_nest_state) */
    int64_t runmax;              /* the latest start of the slices read so far */
    SQ_VEC(uint32_t) ooo;        /* slices (from first_slice) that start before an earlier one */
    struct {
        uint64_t pid, tid;
        uint32_t utid; /* SQ_NONE: empty */
    } tmemo[64];       /* (pid, tid) -> utid, for inline thread refs: a thread's utid never changes */
    uint64_t records;
    int oom, limit;
    SQ_VEC(sq_late_arg) late;
    /* arguments: lazy (the first read: sets numbered, no rows; sq_trace.acode), args_only (the
     * second: rows only, replaying acode); neither: both at once (input that cannot be read
     * twice, a pipe) */
    int lazy, args_only;
    uint8_t acode;    /* this record's code for sq_trace.acode */
    size_t ci, ji;    /* args_only: next acode, next ajoin */
    uint32_t set_end; /* one past the trace's last arg set */
    int mismatch;     /* args_only: a record the first read saw otherwise (the file changed) */
} sq_build;

/* sq_build.c helpers the finishing passes use (inline: the common case, once per event) */
uint32_t sq_thread_track_new(sq_build *b, uint32_t utid);
static inline uint32_t sq_thread_track(sq_build *b, uint32_t utid) {
    uint32_t t = b->db->threads.v[utid].track;
    return t != SQ_NONE ? t : sq_thread_track_new(b, utid);
}
uint32_t sq_new_track(sq_build *b, uint32_t kind, uint32_t name, uint32_t utid, uint32_t upid);
/* The slice key of (track, cat), a new one the first time (sets b->oom out of memory). */
static inline unsigned sq_skmemo_slot(uint32_t track, uint32_t cat) {
    return (unsigned)((((uint64_t)track << 32 | cat) * 0x9e3779b97f4a7c15ull) >> 54);
}
uint32_t sq_slice_key_new(sq_build *b, uint32_t track, uint32_t cat);
static inline uint32_t sq_slice_key(sq_build *b, uint32_t track, uint32_t cat) {
    unsigned h = sq_skmemo_slot(track, cat);
    if (b->skmemo[h].key != SQ_NONE && b->skmemo[h].track == track && b->skmemo[h].cat == cat) {
        return b->skmemo[h].key;
    }
    return sq_slice_key_new(b, track, cat);
}

/* sq_finish.c: after the read. 0, or -1 out of memory. */
int sq_finish_trace(sq_build *b);
/* The late argument rows (b->late) into their sets, sets below b->set_end. 0, or -1 out of memory. */
int sq_group_args(sq_build *b);

#endif
