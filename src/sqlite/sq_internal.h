/* SPDX-License-Identifier: MIT */
/*
 * libfxt_sqlite internals: the in-memory tables one or more traces are read into
 * (column data in flat arrays, strings interned once), the builder that fills them
 * in one sequential read, and the table descriptions the virtual tables serve.
 * Nothing here includes sqlite3.h: only sq_vtab.c and sq_ext.c talk to SQLite.
 */
#ifndef FXT_SQ_INTERNAL_H
#define FXT_SQ_INTERNAL_H

#include <fxt/reader.h>

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define SQ_NONE UINT32_MAX /* a NULL reference (parent, arg set, upid, string) */

/* A growable array of T: `v` and `raw` alias (the grow helper works on void *). */
#define SQ_VEC(T)                                                                                            \
    struct {                                                                                                 \
        union {                                                                                              \
            T *v;                                                                                            \
            void *raw;                                                                                       \
        };                                                                                                   \
        size_t n, cap;                                                                                       \
    }
/* Grow *raw to hold `need` elements of `elem` bytes (doubling). 0, or -1 out of memory. */
int sq_vgrow(void **raw, size_t *cap, size_t need, size_t elem);
/* Pointer to a new last element (uninitialised), NULL out of memory. */
#define SQ_ADD(vec)                                                                                          \
    (((vec).n < (vec).cap || sq_vgrow(&(vec).raw, &(vec).cap, (vec).n + 1, sizeof *(vec).v) == 0)            \
         ? &(vec).v[(vec).n++]                                                                               \
         : NULL)
#define SQ_FREE(vec)                                                                                         \
    do {                                                                                                     \
        free((vec).raw);                                                                                     \
        (vec).raw = NULL;                                                                                    \
        (vec).n = (vec).cap = 0;                                                                             \
    } while (0)

/* ---- interned strings: id -> (ptr, len); id 0 is "" ---------------------------------- */
typedef struct sq_strv {
    const char *p;
    uint32_t len;
} sq_strv;

typedef struct sq_strings {
    SQ_VEC(sq_strv) tab;
    uint32_t *hash; /* open addressing: string id + 1, 0 = empty slot */
    size_t hcap;
    SQ_VEC(char *) blocks; /* arena blocks */
    char *cur;
    size_t left;
} sq_strings;

/* The id of (p, len), interning a copy; SQ_NONE out of memory. */
uint32_t sq_intern(sq_strings *s, const char *p, size_t len);
void sq_strings_free(sq_strings *s);

/* ---- a general exact-key hash map: three 64-bit words -> uint32 ----------------------- */
typedef struct sq_mapent {
    uint64_t k[3];
    uint32_t val; /* SQ_NONE = empty slot */
} sq_mapent;
typedef struct sq_map {
    sq_mapent *e;
    size_t cap, n;
} sq_map;
/* The value for the key, or SQ_NONE. */
uint32_t sq_map_get(const sq_map *m, uint64_t a, uint64_t b, uint64_t c);
/* Set the value of the key. 0, or -1 out of memory. */
int sq_map_put(sq_map *m, uint64_t a, uint64_t b, uint64_t c, uint32_t val);
/* Remove the key (if there). */
void sq_map_del(sq_map *m, uint64_t a, uint64_t b, uint64_t c);
void sq_map_free(sq_map *m);

/* ---- rows -------------------------------------------------------------------------- */
/* A slice's (track, category), shared by the slices that have the same (a trace has few). */
typedef struct sq_skey {
    uint32_t track; /* track id */
    uint32_t cat;   /* string id */
} sq_skey;

/* 32 bytes a slice (they are the most numerous rows after args): track and category through a
 * key, the duration in 32 bits (4.29 s) unless it is longer (sq_slice_dur, sq_set_dur). */
#define SQ_DUR_OPEN UINT32_C(0xfffffffe) /* still open at the end of the trace (dur -1) */
#define SQ_DUR_LONG UINT32_C(0xffffffff) /* in sq_db.long_dur, by the slice's row */
typedef struct sq_slice {
    int64_t ts;
    uint32_t dur;        /* ns, or SQ_DUR_OPEN, SQ_DUR_LONG */
    uint32_t name;       /* string id */
    uint32_t key;        /* its (track, category) in sq_db.skeys */
    uint32_t args;       /* arg set id or SQ_NONE */
    uint32_t parent;     /* slice id or SQ_NONE (while reading: the open stack's link) */
    unsigned depth : 28; /* saturates at SQ_MAX_DEPTH */
    unsigned type : 4;   /* the FXT event type it comes from (instant, begin, complete, async) */
} sq_slice;
#define SQ_MAX_DEPTH ((1u << 28) - 1)

enum sq_track_kind { SQ_TRACK_THREAD = 0, SQ_TRACK_ASYNC = 1, SQ_TRACK_COUNTER = 2 };
typedef struct sq_track {
    uint32_t kind;
    uint32_t name; /* string id or SQ_NONE */
    uint32_t utid; /* thread tracks */
    uint32_t upid; /* async and counter tracks (SQ_NONE when unknown) */
    uint32_t trace;
} sq_track;

typedef struct sq_thread {
    uint64_t tid, pid;
    uint32_t name, upid; /* SQ_NONE when unknown */
    uint32_t track;      /* its thread track, SQ_NONE until it has one */
    uint32_t trace;
} sq_thread;

typedef struct sq_process {
    uint64_t pid;
    uint32_t name, trace;
} sq_process;

/* 20 bytes, not 24: the 64-bit fields as 32-bit halves (4-byte alignment), read by memcpy. */
typedef struct sq_counter {
    uint32_t ts[2];    /* int64_t */
    uint32_t value[2]; /* double */
    uint32_t track;
} sq_counter;
static inline int64_t sq_counter_ts(const sq_counter *c) {
    int64_t ts;
    memcpy(&ts, c->ts, sizeof ts);
    return ts;
}
static inline double sq_counter_value(const sq_counter *c) {
    double v;
    memcpy(&v, c->value, sizeof v);
    return v;
}

typedef struct sq_flow {
    uint64_t fid;     /* the flow id of the events */
    uint32_t out, in; /* slice ids */
    uint32_t trace;
} sq_flow;

/* Perfetto's value types, plus the FXT-only ones. */
enum sq_vtype {
    SQ_V_NULL,
    SQ_V_INT,
    SQ_V_UINT,
    SQ_V_REAL,
    SQ_V_STRING,
    SQ_V_POINTER,
    SQ_V_BOOL,
    SQ_V_KOID,
    SQ_V_UNKNOWN
};
#define SQ_MAX_KEY ((1u << 28) - 1) /* string ids an argument name can have */
/* 12 bytes: arguments are the most numerous rows. Their set is not stored: a set's rows are
 * consecutive, from sq_db.set_first[set] (sq_arg_set). */
typedef struct sq_arg {
    unsigned key : 28;  /* string id */
    unsigned vtype : 4; /* enum sq_vtype */
    uint32_t v[2];      /* int64_t (also SQ_V_STRING's string id) or double, as 32-bit halves */
} sq_arg;
static inline int64_t sq_arg_ival(const sq_arg *a) {
    int64_t i;
    memcpy(&i, a->v, sizeof i);
    return i;
}
static inline double sq_arg_rval(const sq_arg *a) {
    double d;
    memcpy(&d, a->v, sizeof d);
    return d;
}

typedef struct sq_sched {
    int64_t ts, dur;
    uint32_t cpu, utid;
    uint32_t end_state; /* FXT thread state of the outgoing thread at the end, SQ_NONE unknown */
    int32_t prio;       /* INT32_MIN unknown */
} sq_sched;

#define SQ_STATE_WOKEN 100u /* thread_state after a wakeup (Perfetto's "W") */
typedef struct sq_tstate {
    int64_t ts, dur;
    uint32_t utid, cpu; /* cpu SQ_NONE when not running */
    uint32_t state;     /* FXT thread state (1 running) */
    uint32_t waker;     /* utid or SQ_NONE */
} sq_tstate;

typedef struct sq_log {
    int64_t ts;
    uint32_t utid, msg;
} sq_log;

typedef struct sq_blob {
    uint64_t offset; /* of the payload in the file */
    uint64_t size;   /* payload bytes */
    int64_t ts;      /* INT64_MIN when the record has none */
    uint32_t name, cat, utid;
    uint32_t kind;  /* 0 blob record, 1 large blob */
    uint32_t btype; /* blob type, or large blob format */
} sq_blob;

typedef struct sq_kobj {
    uint64_t koid, offset;
    uint32_t obj_type, name, args;
    uint32_t kind; /* 0 kernel object, 1 userspace object (koid = pointer, obj_type unused) */
    uint64_t pid;  /* userspace object's process; a thread object's "process" koid (UINT64_MAX none) */
} sq_kobj;

typedef struct sq_provider {
    uint32_t id, name;
    uint64_t tps, records, events, buffer_full, dropped;
    int has_anchor;
    uint64_t anchor_ticks, anchor_realtime_ns, anchor_mono_ns;
    uint32_t trace;
} sq_provider;

typedef struct sq_error {
    uint64_t offset;
    int32_t status;
    uint32_t rtype, msg, provider; /* provider SQ_NONE before any */
} sq_error;

/* The tables, in the order of sq_tables[] (sq_vtab.c). */
enum sq_table_id {
    SQ_T_SLICE,
    SQ_T_THREAD,
    SQ_T_PROCESS,
    SQ_T_TRACK,
    SQ_T_THREAD_TRACK,
    SQ_T_PROCESS_TRACK,
    SQ_T_COUNTER_TRACK,
    SQ_T_COUNTER,
    SQ_T_FLOW,
    SQ_T_ARGS,
    SQ_T_SCHED,
    SQ_T_TSTATE,
    SQ_T_LOG,
    SQ_T_BLOB,
    SQ_T_KOBJ,
    SQ_T_UOBJ,
    SQ_T_PROVIDER,
    SQ_T_ERROR,
    SQ_T_TRACE,
    SQ_T_COUNT_
};

typedef struct sq_trace {
    char *path;
    uint32_t label; /* string id */
    uint64_t bytes, records, errors;
    int compressed;
    uint64_t first_row[SQ_T_COUNT_]; /* each table's first row of this trace */
    uint32_t first_set;              /* its first arg set id */
    uint32_t set_end;                /* one past its last */
    size_t first_skey;               /* its first slice key */
    /* The rows of `args` are read when a statement first uses that table (sq_load_args): most
     * queries never do, and they are the most numerous rows. The first read numbers the sets
     * and leaves what the second needs: per record with arguments, in file order, 0 (not
     * kept), 1 (a new set, the next number) or 2 (joins an older set: the next of ajoin). */
    int args_pending;
    SQ_VEC(uint8_t) acode;
    SQ_VEC(uint32_t) ajoin;
    uint64_t dev, ino, size; /* the file the first read saw: the second reads the same or fails */
    int64_t mtime_ns;
    /* Slices' depth and parent_id, and the flow rows (flows bind to the slices enclosing them),
     * are made when a statement first uses them (sq_nest_pending): NULL once made. */
    struct sq_nest_state *nest;
} sq_trace;

typedef struct sq_db {
    sq_strings str;
    SQ_VEC(sq_trace) traces;
    SQ_VEC(sq_slice) slices; /* in id order (time order within a trace): row = id */
    SQ_VEC(sq_skey) skeys;   /* slices' (track, category) */
    sq_map long_row;         /* slice row -> index in long_dur (durations of 2^32 - 2 ns and more) */
    SQ_VEC(int64_t) long_dur;
    SQ_VEC(sq_thread) threads;
    SQ_VEC(sq_process) procs;
    SQ_VEC(sq_track) tracks;
    SQ_VEC(uint32_t) thread_tracks, process_tracks, counter_tracks; /* track ids */
    SQ_VEC(sq_counter) counters;
    SQ_VEC(sq_flow) flows;
    SQ_VEC(sq_arg) args;
    uint32_t nsets;             /* arg sets */
    SQ_VEC(uint32_t) set_first; /* arg set id -> its first row in args (sets in row order) */
    SQ_VEC(sq_sched) sched;
    SQ_VEC(sq_tstate) tstates;
    SQ_VEC(sq_log) logs;
    SQ_VEC(sq_blob) blobs;
    SQ_VEC(sq_kobj) kobjs, uobjs;
    SQ_VEC(sq_provider) provs;
    SQ_VEC(sq_error) errors;
    uint64_t generation; /* bumped by every fxt_open: cursors and indexes check it */
} sq_db;

void sq_db_free(sq_db *db);

/* The arg set of an args row. */
uint32_t sq_arg_set(const sq_db *db, size_t row);

/* A slice's duration: -1 still open. */
int64_t sq_slice_dur(const sq_db *db, const sq_slice *s);
/* Set it (-1: open). 0, or -1 out of memory. Inline but for the rare long ones. */
int sq_set_dur_long(sq_db *db, sq_slice *s, int64_t dur);
static inline int sq_set_dur(sq_db *db, sq_slice *s, int64_t dur) {
    if (dur >= (int64_t)SQ_DUR_OPEN) {
        return sq_set_dur_long(db, s, dur);
    }
    s->dur = dur < 0 ? SQ_DUR_OPEN : (uint32_t)dur;
    return 0;
}

/* ---- what the virtual tables serve (sq_tables.c) ------------------------------------- */
enum sq_vkind { SQ_NUL, SQ_INT, SQ_REAL, SQ_TEXT, SQ_BLOBREF };
typedef struct sq_val {
    int kind; /* enum sq_vkind */
    int64_t i;
    double d;
    const char *p;
    size_t len;
} sq_val;

typedef void (*sq_get_fn)(const sq_db *db, size_t row, sq_val *v);
typedef struct sq_col {
    const char *name;
    const char *decl; /* declared type: INTEGER columns can be constrained through an index */
    sq_get_fn get;
} sq_col;
/* The declared type of TEXT columns from the interned strings (compared by address): their
 * sq_val.i is the string id, equal for equal strings, so GROUP BY can use an order of ids. */
extern const char sq_interned_text[];
typedef struct sq_table {
    const char *name;
    const sq_col *cols;
    int ncols; /* without the trailing `trace` column every table has */
} sq_table;
extern const sq_table sq_tables[SQ_T_COUNT_];
/* Whether the column is made by the nesting (slice's depth, parent_id: sq_nest_pending). */
int sq_col_nested(int table, int col);
/* Whether the column's values are unique (row numbers, track ids, a thread's one track). */
int sq_col_unique(int table, int col);
/* Whether the rows are in the column's order by construction (row numbers, args' arg_set_id). */
int sq_col_sorted(int table, int col);
/* args' rows [*lo, *hi) of arg set k when `col` is args' arg_set_id (1), else 0: no search. */
int sq_set_rows(const sq_db *db, int table, int col, int64_t k, size_t *lo, size_t *hi);

/* Read the trace at `path` and append its rows (label NULL: the path). On failure nothing is
 * appended; `err` (cap bytes) says why. FXT_OK even when records were damaged (they are rows
 * of `error`). The arguments of a regular file are left for sq_load_args. */
fxt_status sq_open_trace(sq_db *db, const char *path, const char *label, char *err, size_t cap);
/* Make the depth and parent_id of the slices and the flow rows of every trace that has not
 * yet (in trace order). 0, or -1 out of memory (those traces stay pending). */
int sq_nest_pending(sq_db *db);
void sq_nest_state_free(struct sq_nest_state *n);

/* Read the arguments every trace left for later, in trace order (a second read of each file).
 * FXT_OK (also when none was pending); on failure the traces keep no argument rows and `err`
 * says why (the file changed or went away since fxt_open, out of memory). */
fxt_status sq_load_args(sq_db *db, char *err, size_t cap);

/* Row counts and trace of a row. */
size_t sq_table_rows(const sq_db *db, int table);
uint32_t sq_row_trace(const sq_db *db, int table, size_t row);
/* Ask the CPU for the `k` rows of `table` at rows[0..k) (an ordered scan's next ones): read in
 * an index's order the rows are random accesses, and fetched one at a time each is a miss. */
void sq_prefetch_rows(const sq_db *db, int table, const uint32_t *rows, size_t k);

/* Ticks to ns as fxt json / fxt stats do: exact, rounded down, saturating (0 tps: ticks as ns).
 * Inline for the usual 1 GHz clock (a call per event otherwise). */
int64_t sq_ticks_to_ns_rate(uint64_t ticks, uint64_t tps);
static inline int64_t sq_ticks_to_ns(uint64_t ticks, uint64_t tps) {
    if (tps != 1000000000u && tps != 0) {
        return sq_ticks_to_ns_rate(ticks, tps);
    }
    return ticks > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)ticks; /* SQLite integers are signed */
}

/* Sort the `n` 64-bit keys' indexes: out[i] = the row of the i-th smallest key, stable.
 * `keys` is overwritten. 0, or -1 out of memory. */
int sq_sort_u64(uint64_t *keys, size_t n, uint32_t *out);

#endif
