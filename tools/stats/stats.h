/* SPDX-License-Identifier: MIT */
/*
 * fxt stats internals: the summary of one range of a trace (stats_collect.c)
 * and of the whole trace (ranges merged in order), printed by cmd_stats.c.
 *
 * A range knows nothing of the durations open at its start: an end with no
 * open begin in the range is kept as a "pop" of an inherited frame, and the
 * time of the range's top-level slices is kept per "context" (between two
 * pops), so the merge can hand it to whatever frame was open there. Call-tree
 * nodes of a range hang from context roots that the merge grafts onto the
 * open frames of the trace. Memory per range and for the trace is bounded by
 * the limits below (docs/stats.md).
 */
#ifndef FXT_STATS_H
#define FXT_STATS_H

#include <fxt/reader.h>

#include <pthread.h>
#include <stdint.h>

#include "cli_map.h"

/* 16 exact buckets for 0..15 ns, then 16 per power of two for exponents 4..63 (docs/stats.md):
 * rows of 16 buckets, row 0 the exact ones. */
#define ST_HROWS 61
/* Open durations tracked per thread; deeper ones are counted but not measured (docs/stats.md). */
#define ST_MAX_DEPTH 256
#define ST_MAX_NAMES 200000 /* distinct (category, name) pairs kept apart; the rest pool in "(other)" */
#define ST_MAX_NODES 250000 /* call-tree nodes; frames beyond are left out of the tree */
#define ST_ARGS_BYTES 192   /* the arguments kept with an open duration, for --top's slowest events */
#define ST_MAX_ERRMSG 10    /* damaged records reported on stderr */
/* Closed durations of a thread that a complete event written later may still enclose: each waits
 * until ST_PEND_K more have closed on its thread (or its enclosing pair ends), in a ring of at most
 * ST_PEND_CAP entries with the ones they enclose (docs/stats.md). */
#define ST_PEND_K 1024
#define ST_PEND_CAP 4096

/* A duration histogram's rows (st_name_t.hist). */
typedef struct st_hist {
    uint32_t *rows;
    uint8_t lo, nrows;
} st_hist_t;

typedef struct st_name {
    uint64_t events; /* events of this (category, name) */
    uint64_t ndur;   /* durations measured */
    uint64_t total, self, min, max;
    /* Rows [hlo, hlo + hrows) of the histogram, 16 buckets each: only the span of powers of two the
     * durations reach is allocated (a name's durations rarely span more than a few). */
    uint32_t *hist;
    uint8_t hlo, hrows;
    /* A range's: the histogram is its decoding thread's for the name, in the thread's accumulator
     * (counts are sums: the merge never copies them, st_fold adds each thread's up once), and hist,
     * hlo and hrows are a copy of *acc while the range is decoded. NULL in the trace, which owns hist. */
    st_hist_t *acc;
} st_name_t;

/* The histograms of one decoding thread in one read: name key -> st_hist_t *, each allocated
 * alone so names can point at it. */
typedef struct st_acc {
    cli_map_t hists;
    struct st_acc *next; /* the trace's list of its threads' accumulators */
} st_acc_t;

typedef struct st_kind {
    uint64_t count, bytes;
} st_kind_t;

typedef struct st_prov {
    uint32_t id;
    int has_id, named, ticks_set;
    char name[256];
    uint64_t records, bytes, events, overflows, ticks;
    uint64_t strings, string_rereg, threads, thread_rereg;
    /* String indexes are 15 bits (spec: String record), thread indexes 8 bits: 32768 and 256 bits. */
    uint8_t str_set[4096];
    uint8_t thr_set[32];
} st_prov_t;

/* An open duration. Names and nodes are map index + 1 (0 = none). */
typedef struct st_frame {
    uint64_t begin_ns, child_ns;
    uint64_t fin; /* the latest end of a duration of its level given to it by the limits (0: none) */
    uint32_t name, node;
    uint8_t args[ST_ARGS_BYTES]; /* serialised arguments of the begin (st_args_*) */
} st_frame_t;

/* An end met with no open begin in its range: it closes a frame inherited from earlier ranges. */
typedef struct st_pop {
    uint64_t end_ns, end_off;
    uint64_t child_ns; /* top-level slices of the range between the previous pop and this one */
    uint64_t seq;      /* the thread's closed durations in the range before it (st_thread_t.pseq) */
} st_pop_t;

/* A complete event on the top level of its range (no frame of the range open) that enclosed every
 * duration of its context waiting in the range's ring: it may enclose some that earlier ranges left
 * waiting, in the trace's ring. The merge finds them (st_merge), as a read with one thread would. */
typedef struct st_reach {
    uint64_t begin, end, child; /* child: the range's durations it encloses */
    uint64_t seq;               /* its st_pend_t.seq in the range */
    uint32_t ctx;               /* pops of the range before it */
    uint32_t name;              /* the range's name index + 1 */
    uint32_t counted;           /* the range counted it in `unnested` (it overlaps what a limit gave up) */
    uint32_t rnode;             /* its call-tree node in the range once settled there (index + 1; 0: none) */
    /* merge only: entries and durations it took from the trace's ring */
    uint32_t took;
    uint64_t took_ns;
} st_reach_t;

#define ST_MAX_REACH 64 /* per thread and range; beyond, the merge asks for a read with one thread */

/* A closed duration whose parent is not known yet (its thread's ring, st_thread_t.pend): a complete
 * event, whose time and call-tree nodes go to its parent once known, or (pair set) a begin/end pair,
 * already counted in its enclosing pair, that a complete event written later may still enclose. In
 * postorder: the durations an entry encloses are right before it. */
typedef struct st_pend {
    uint64_t start, end, child; /* child: durations directly inside it */
    uint64_t seq;               /* the thread's closed durations before it */
    uint32_t name;
    /* 16 bits: levels are at most ST_MAX_DEPTH, sizes at most ST_PEND_CAP (one store for a pair's) */
    uint16_t level; /* open pairs on its thread when it closed */
    uint16_t size;  /* entries of its subtree, itself included */
    uint16_t head;  /* entries of the largest block of the ring that starts here */
    uint16_t pair;
} st_pend_t;
_Static_assert(ST_MAX_DEPTH < 65536 && ST_PEND_CAP < 65536, "st_pend_t's 16-bit fields");

/* Durations of a thread given up by the limit (ST_PEND_K) whose parent is still not known: their time
 * is counted in the pair open around them (or the top level) already, and a complete event written
 * later that encloses them moves it to itself, so self and busy time stay exact whatever the number
 * of durations. On one level they are disjoint and in time order, and a complete event encloses a
 * suffix of them (those starting at or after its start): a stack (st_thread_t.gup), levels
 * nondecreasing. Past ST_GUP_CAP entries the oldest are coalesced, two of a level into one (first
 * start, last end, summed time): an event starting inside such a block cannot take part of it
 * (counted in `unnested`); one starting at or before it takes it whole (a whole-program scope). */
typedef struct st_gup {
    uint64_t start, end; /* the first one's start, the last one's end */
    uint64_t ns;         /* their durations */
    uint32_t pairs;      /* begin/end pairs among them (nesting.pairs_in_later_complete) */
    uint32_t level;      /* open pairs on its thread when they closed */
} st_gup_t;
#define ST_GUP_CAP 65536

/* The merge only: durations of the trace's ring that a reach event took after the range had settled
 * it (a pop or a limit: its call-tree node is the range's rnode), whose nodes go under its node once
 * the range's nodes are in the trace. */
typedef struct st_defer {
    st_pend_t *pend; /* n entries in a ring of pcap (power of 2), as st_thread_t's */
    uint32_t n, pcap;
    uint32_t gtix, rnode, level;
    uint64_t dself; /* what its node's self time loses */
} st_defer_t;

typedef struct st_thread {
    uint64_t events, busy_ns;
    uint32_t depth;     /* open durations, counted even beyond ST_MAX_DEPTH */
    uint32_t max_depth; /* deepest depth in this range (ranges) */
    uint32_t cap;
    st_frame_t *stack; /* min(depth, ST_MAX_DEPTH) frames, grown on demand */
    /* ranges only: */
    uint64_t ctx_child;              /* top-level slices since the last pop */
    uint32_t npops, popcap, applied; /* applied: pops the merge has done */
    st_pop_t *pops;
    /* the pending closed durations, pn from phead in a ring of pcap (a power of 2); the trace's are
     * those its ranges left waiting, settled by later ranges' merges or at the end (st_settle) */
    st_pend_t *pend;
    uint32_t pcap, phead, pn;
    uint64_t pseq;  /* closed durations pushed */
    uint64_t proot; /* at most the seq of the oldest block's root: pend_limit has nothing to do before */
    uint64_t fin0;  /* the latest end of a top-level duration of this context given up by the limits */
    st_gup_t *gup;  /* durations given up by the limits, gn of gcap (st_gup_t) */
    uint32_t gn, gcap;
    uint32_t gpeak; /* ranges: the most entries gup held (the merge's bound for a read with one thread) */
    /* ranges only: top-level complete events that may enclose durations of earlier ranges, in order
     * (st_reach_t; the trace keeps its waiting durations in its own ring, pend above, for them). */
    st_reach_t *reach;
    uint32_t nreach, reachcap, rapplied; /* rapplied: handled by the merge */
    int reach_over;                      /* more than ST_MAX_REACH */
    /* merge only: the trace thread's pseq at the range start, the pops that closed one of its frames
     * (each a closed duration), and the entries of its ring that reach events took */
    uint64_t gbase;
    uint32_t gclosed, gtook;
} st_thread_t;

/* A call-tree node: key (thread, parent node, context, name) as st_node_key_t. */
typedef struct st_node_key {
    uint32_t thread, parent, ctx, name;
} st_node_key_t;

typedef struct st_node {
    uint64_t total, self, count;
} st_node_t;

typedef struct st_counter {
    uint64_t samples;
    uint64_t first_ns, last_ns;
} st_counter_t;

/* One series of a counter (an argument name): numeric values as doubles. */
typedef struct st_series {
    uint64_t counter; /* index of the counter in `counters` */
    uint64_t samples;
    double min, max, last;
} st_series_t;

typedef struct st_object {
    uint64_t pid; /* process koid for threads */
    int has_pid, is_thread;
    char name[128];
} st_object_t;

/* Per CPU: who runs since when (context switches), and the first switch of a range. */
typedef struct st_cpu {
    uint64_t tid, since_ns;
    int running;
    int have_first;
    /* ranges: the last record on the CPU up to its first switch (included): the thread running at
     * the range start ran until then */
    uint64_t first_ns;
} st_cpu_t;

/* One of the slowest events. */
typedef struct st_slow {
    uint64_t dur, ts, end_off;
    uint64_t provider, pid, tid;
    uint32_t name; /* map index + 1 */
    uint8_t args[ST_ARGS_BYTES];
} st_slow_t;

typedef struct st_state {
    unsigned top; /* --top: rows, slowest events kept */
    int tree;     /* build the call tree (--tree, --folded) */
    uint64_t records, errors, inline_strings, inline_bytes;
    char errmsg[ST_MAX_ERRMSG][192];
    unsigned nerrmsg;
    st_kind_t kinds[FXT_KIND_COUNT_];
    cli_map_t providers; /* (has_id, id) -> st_prov_t */
    cli_map_t threads;   /* (provider, pid, tid) -> st_thread_t */
    cli_map_t names;     /* category \0 name -> st_name_t */
    cli_map_t cats;      /* category -> uint64 count */
    cli_map_t counters;  /* category \0 name \0 id -> st_counter_t */
    cli_map_t series;    /* counter index, argument name -> st_series_t */
    cli_map_t objects;   /* (koid, type) -> st_object_t */
    cli_map_t nodes;     /* st_node_key_t -> st_node_t */
    cli_map_t cpus;      /* cpu -> st_cpu_t */
    cli_map_t oncpu;     /* tid -> uint64 ns on a CPU */
    int have_span;
    uint64_t first_ns, last_ns;
    st_slow_t *slow; /* the `top` slowest, slowest first */
    unsigned nslow;
    uint64_t slow_floor; /* shorter durations are not among them (the shortest once full): one compare */
    char *keybuf;
    int tree_full; /* a node could not be created */
    /* Nesting (docs/stats.md): complete events that could not enclose all durations inside them
     * (a partial overlap, or a start inside a coalesced st_gup_t block); durations whose children add up to
     * more than they last (self counted as 0); begin/end pairs inside a complete event written after them
     * (the call tree shows them beside it). pend_capped: a ring was full (ST_PEND_CAP). */
    uint64_t unnested, clamped, pairs_in_complete;
    /* complete events that took durations the limit had given up: time exact, but the call tree
     * shows those beside them (nesting.tree_not_enclosing_all) */
    uint64_t tree_unnested;
    int gup_coalesced; /* a thread's st_gup_t stack passed ST_GUP_CAP: coalesced */
    int oom; /* a frame could not be stored: the run fails (out of memory), its numbers are not exact */
    int pend_capped;
    unsigned merged; /* ranges merged into this state */
    st_acc_t *acc;   /* a range's: its thread's accumulator (st_name_t.acc) */
    /* The trace only: run identifies this read (never 0), so a thread's accumulator of an earlier
     * read (a CLI_PAR_RERUN re-read) is never used again; accs are the read's threads' accumulators,
     * registered by st_new_range and added up by st_fold; pool holds the range states given back
     * (st_release) for st_new_range to reuse; both under mu. */
    uint64_t run;
    st_acc_t *accs;
    struct st_range *pool;
    pthread_mutex_t mu;
    /* The trace only: its slow_floor once `top` events are kept, for new ranges (atomic): a shorter
     * duration cannot be among the slowest, so ranges need not keep it. */
    uint64_t range_floor;
    st_defer_t *defs; /* the trace only: st_merge's st_defer_t, ndefs of defcap */
    size_t ndefs, defcap;
    /* The trace only: st_merge's maps from a range's indexes to the trace's, kept for the next. */
    uint32_t *mbuf;
    size_t mcap;
} st_state_t;

/* New empty state of the whole trace; NULL when out of memory. */
st_state_t *st_new(unsigned top, int tree);
/* New empty state of a range of `trace`, decoded on the calling thread (thread-safe: it shares the
 * thread's accumulator of the read): one given back by st_release, emptied, if any; NULL when out
 * of memory. */
st_state_t *st_new_range(st_state_t *trace);
/* Gives range state rg back to `trace` for a later range (thread-safe); st_free(trace) frees it. */
void st_release(st_state_t *trace, st_state_t *rg);
void st_free(st_state_t *s);
/* cli_record_fn / cli_error_fn for one range (ctx = the range's st_state_t). */
int st_on_record(void *ctx, fxt_reader_t *r, const fxt_record_t *rec);
void st_on_error(void *ctx, fxt_reader_t *r, const fxt_diag_t *d);
/* Merge range `rg` into the trace `g` (ranges in order): 0, or CLI_PAR_RERUN when the
 * result could depend on where ranges start (limits reached). Does not free rg. */
int st_merge(st_state_t *g, st_state_t *rg);
/* After the read, every range merged: settles what still waits in the trace's rings (the trace
 * ends). 0, or CLI_PAR_RERUN when the call tree filled up there and more than one range was read. */
int st_settle(st_state_t *g);
/* After the read, every range merged: adds the threads' histograms into the trace's and frees them
 * (a key lookup per thread and name). 0, or CLI_EXIT_LIMIT when out of memory. */
int st_fold(st_state_t *g);

/* Percentile q of a name's durations (docs/stats.md). */
uint64_t st_percentile(const st_name_t *ns, double q);
/* Serialised arguments: calls fn for each (name, formatted value); 1 when some were left out. */
typedef void (*st_arg_fn)(void *ctx, const char *name, size_t nlen, int is_str, const char *val, size_t vlen);
int st_args_each(const uint8_t *blob, st_arg_fn fn, void *ctx);

#endif
