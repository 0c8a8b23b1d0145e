/* SPDX-License-Identifier: MIT */
/*
 * fxt check: a validator for producers of FXT. Every violation is reported
 * with its byte offset, record kind, a stable rule id, a severity and a
 * message; a summary counts violations by rule. Rules are listed in
 * docs/check.md (and by `fxt check --rules`).
 */
#include <fxt/reader.h>

#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_io.h"
#include "cli_json.h"
#include "cli_map.h"
#include "cli_parallel.h"
#include "cli_trace.h"

enum sev { SEV_ERROR, SEV_WARNING };

typedef struct rule {
    const char *id;
    enum sev sev;
    const char *what;
} rule_t;

/*
 * The rules, one list: the enum, the ids, the severities and the one-line descriptions come from
 * it. X(enum name, id, severity, what). The order is `fxt check --rules`' and docs/check.md's
 * table's (cli.check.rules-match-docs compares ids and severities); add a rule at its place in
 * both (docs/architecture.md, "Add a check rule").
 */
#define CHECK_RULES(X)                                                                                       \
    X(R_SIZE_ZERO, "size-zero", SEV_ERROR, "a record header gives size 0: nothing after it can be read")     \
    X(R_TRUNCATED, "truncated", SEV_ERROR, "the input ends inside a record")                                 \
    X(R_DAMAGED, "damaged", SEV_ERROR,                                                                       \
      "a record's contents (strings, thread words, arguments, payload) do not fit its size")                 \
    X(R_TOO_LARGE, "too-large", SEV_ERROR, "a record exceeds the reader's reassembly limit")                 \
    X(R_RESERVED, "reserved-bits", SEV_ERROR, "reserved or must-be-zero bits are set")                       \
    X(R_BAD_MAGIC, "bad-magic", SEV_ERROR, "a magic number record does not hold 0x0016547846040010")         \
    X(R_MAGIC_FIRST, "magic-first", SEV_WARNING, "the trace does not start with the magic number record")    \
    X(R_INDEX_ZERO, "index-zero", SEV_ERROR,                                                                 \
      "a string or thread record registers index 0 (reserved; readers ignore it)")                           \
    X(R_UNRESOLVED_STRING, "unresolved-string", SEV_ERROR,                                                   \
      "an indexed string reference has no registration in its provider")                                     \
    X(R_UNRESOLVED_THREAD, "unresolved-thread", SEV_ERROR,                                                   \
      "an indexed thread reference has no registration in its provider")                                     \
    X(R_STRING_TOO_LONG, "string-too-long", SEV_ERROR, "a string is longer than 32000 bytes")                \
    X(R_INVALID_UTF8, "invalid-utf8", SEV_ERROR, "a string is not well-formed UTF-8")                        \
    X(R_ARG_SIZE, "arg-size", SEV_WARNING, "an argument's size is larger than its contents")                 \
    X(R_UNKNOWN_RECORD, "unknown-record", SEV_WARNING,                                                       \
      "a record type or subtype this spec revision does not define")                                         \
    X(R_UNKNOWN_ARG, "unknown-arg", SEV_WARNING, "an argument type this spec revision does not define")      \
    X(R_INIT_ZERO, "init-zero-ticks", SEV_ERROR, "an initialization record gives 0 ticks per second")        \
    X(R_TS_BACKWARDS, "ts-backwards", SEV_WARNING,                                                           \
      "an event's timestamp is earlier than the previous event's on the same thread")                        \
    X(R_DURATION_UNMATCHED, "duration-unmatched", SEV_WARNING,                                               \
      "a duration end has no open begin on its thread, after the thread's first begin: it closes an outer "  \
      "duration begun before the trace started (or the writer did not write the begin)")                     \
    X(R_DURATION_END_FIRST, "duration-end-first", SEV_WARNING,                                               \
      "a duration end comes before the first begin of its thread: the trace started inside the duration")    \
    X(R_DURATION_UNCLOSED, "duration-unclosed", SEV_WARNING,                                                 \
      "a duration begin is never ended on its thread")                                                       \
    X(R_DURATION_NAME, "duration-name", SEV_WARNING,                                                         \
      "a duration end's category/name differ from its begin's")                                              \
    X(R_COMPLETE_NEGATIVE, "complete-negative", SEV_ERROR,                                                   \
      "a duration complete event ends before it starts")                                                     \
    X(R_ASYNC_NO_BEGIN, "async-no-begin", SEV_ERROR,                                                         \
      "an async instant/end uses an id with no open async begin")                                            \
    X(R_ASYNC_NEVER_ENDED, "async-never-ended", SEV_WARNING, "an async begin is never ended")                \
    X(R_ASYNC_ID_REUSED, "async-id-reused", SEV_ERROR,                                                       \
      "an async begin uses an id already open in its provider")                                              \
    X(R_FLOW_NO_BEGIN, "flow-no-begin", SEV_ERROR, "a flow step/end uses an id with no open flow begin")     \
    X(R_FLOW_NEVER_ENDED, "flow-never-ended", SEV_WARNING, "a flow begin is never ended")                    \
    X(R_FLOW_ID_REUSED, "flow-id-reused", SEV_ERROR, "a flow begin uses an id already open in its provider") \
    X(R_THREAD_NO_PROCESS, "thread-no-process", SEV_WARNING,                                                 \
      "a thread kernel object has no koid 'process' argument")                                               \
    X(R_PAIR_AFTER_LOSS, "pair-after-loss", SEV_WARNING,                                                     \
      "a duration end or async/flow step/end has no begin, after its provider reported lost records "        \
      "(buffer overflow provider event): the begin was dropped or overwritten")

enum {
#define RULE_ENUM_(name, id, sev, what) name,
    CHECK_RULES(RULE_ENUM_)
#undef RULE_ENUM_
        R_COUNT
};

static const rule_t rules[R_COUNT] = {
#define RULE_ROW_(name, id, sev, what) {id, sev, what},
    CHECK_RULES(RULE_ROW_)
#undef RULE_ROW_
};

/* Begins deeper than this are still counted (depth) so ends stay matched, but their
 * names and offsets are not kept: duration-name and the unclosed offsets degrade to 0. */
#define MAX_DEPTH 256

typedef struct thread_state {
    uint64_t key[3];  /* provider, pid, tid: the map's key, for the reports */
    uint64_t last_ns; /* 0 before the first ordered event: nothing is earlier */
    int begun;        /* a duration begin was seen: later ends without a begin are duration-unmatched */
    uint32_t depth;   /* open durations (may exceed MAX_DEPTH) */
    uint64_t begin_hash[MAX_DEPTH];
    uint64_t begin_off[MAX_DEPTH];
} thread_state_t;

/*
 * Async and flow chains (docs/check.md#chain-ids). A chain is identified by its kind and id; a
 * step, instant or end belongs to the open chain of its id in its own provider, else to the one
 * other provider's open chain of that id (a parent-to-child flow), judged in time order. Writers
 * such as libfxt's engine write one thread's chunks after another, so an end written by one
 * thread can come before its begin written by another: an event that does not match yet waits,
 * since its begin may still come later in the file.
 *
 * An id's begins and ends are judged at once only while they come in time order (the entry keeps
 * the latest judged, sc_ns); one read later but earlier in time than a judged one, or a violation
 * earlier than one, means an earlier judgment may have paired the wrong begin and end (an id
 * reused across threads). Then the id is disputed: its known history (its open chains' begins,
 * its ended chains still in the cache) and every later event of it are kept, and at the end of
 * the trace they are paired from scratch in time order. Waiting and kept events share one pool
 * (pool_max events); a full pool judges the oldest of the id at hand for good, and the output
 * says so.
 *
 * Memory is per open chain: an id's entry lives while it has open chains or waiting events and is
 * removed when its last chain ends. Closed chains are remembered only in a fixed cache of recent
 * ones (for steps read after their chain's end, and a dispute's history), so memory does not grow
 * with the trace.
 */
typedef struct chain_ev {
    uint64_t ns;
    uint64_t op; /* offset << 2 | phase (0 begin, 1 instant/step, 2 end) */
    uint32_t provider;
    uint32_t has_provider;
} chain_ev_t;
#define EV_OFFSET(e) ((e).op >> 2)
#define EV_PHASE(e) ((unsigned)((e).op & 3u))

/* The reorder pool: waiting and disputed events of all ids (FXT_CHECK_POOL for tests). */
#define CHAIN_POOL 65536

/* One (kind, id): its open chains (their begins, judged) and its waiting events (time order, not
 * judged yet; a disputed id's, in read order). The first open chain and CHAIN_INLINE waiting
 * events live in the entry: in-order chains allocate nothing. */
#define CHAIN_INLINE 2
typedef struct chain {
    uint64_t id;
    uint32_t kind;        /* 0: free slot; 1 async; 2 flow */
    uint32_t nopen, ocap; /* open chains: in open1 while ocap <= 1, else in oheap */
    uint32_t n, cap;      /* waiting events: in inl while cap <= CHAIN_INLINE, else in heap */
    uint8_t disputed;     /* 1: events wait until the end of the trace, then are paired from scratch;
                           * | 2: one came as early as chains the cache lost: no report */
    uint8_t sc_phase;     /* with sc_ns: the latest begin or end judged (time, phase) */
    uint64_t sc_ns;
    chain_ev_t open1;
    chain_ev_t *oheap;
    chain_ev_t *heap;
    chain_ev_t inl[CHAIN_INLINE];
} chain_t;

/* The entries, open addressing (linear probing, removal by backward shift). */
typedef struct chain_tab {
    chain_t *slot;
    size_t mask; /* slots - 1; no table while slot is NULL */
    size_t count, peak;
} chain_tab_t;

/* Recently closed chains: CLOSED_SETS sets of CLOSED_WAYS, by (kind, id); a full set replaces the
 * chain that ended first, and keeps the time span of the chains it replaced (docs/check.md). A
 * set's tags (id << 2 | kind, 0: empty) are probed first: one cache line. */
#define CLOSED_SETS (1u << 14)
#define CLOSED_WAYS 4
typedef struct closed {
    uint64_t id;
    chain_ev_t b, e; /* its begin and end */
    uint32_t kind;   /* 0: empty */
} closed_t;
typedef struct closed_span {
    uint64_t from, to; /* from > to: nothing replaced */
    uint64_t ids;      /* a bit per replaced chain's id (closed_bit): whose history is incomplete */
} closed_span_t;

/*
 * -j N: each range of the input (cli_parallel.h) runs the per-record checks
 * that need no state from earlier records (reserved bits, strings, threads,
 * arguments, ...) on a worker and keeps, in record order, its reports
 * (formatted) and one item per event with a resolved thread (its thread as
 * an index into the range's own thread table, time, type, name hash or id)
 * and per buffer overflow provider event. The merge, in range order, prints
 * the reports and runs the checks that depend on what came before
 * (per-thread order and durations, async/flow chains, losses) on those
 * items, against the state the earlier ranges left: the same code, in the
 * same order, as a sequential read, hence the same output. Range 0 (so also
 * -j 1, stdin and compressed input) is checked straight into the run's
 * state, with no items.
 */
enum { IT_REPORT, IT_EVENT, IT_LOSSY };

typedef struct item {
    uint8_t what;
    uint8_t type; /* IT_REPORT: the rule; IT_EVENT: the event type */
    uint8_t has_provider;
    /* IT_EVENT: the thread (entry of the range's threads); IT_REPORT: the message's length;
     * IT_LOSSY: the provider that lost records */
    uint32_t ref;
    uint64_t offset;
    union {
        struct {
            uint64_t ns;
            uint64_t key; /* a duration begin/end's name hash; an async/flow id */
        } ev;
        struct {
            const char *kind; /* a static string (fxt_record_kind_name) */
            size_t text;      /* the message: ref bytes at text in the range's text */
        } rep;
    } u;
} item_t;

/* A small direct-mapped cache of threads' keys (provider, pid, tid) and insertion indexes in a
 * map: events come from a few threads at a time, and a hit skips hashing the key. */
typedef struct tcache {
    uint64_t key[3];
    size_t ix;
    int valid;
} tcache_t;

/* The value of KEY's entry in M, created if new (NULL: out of memory), and its index. */
static inline void *thread_get(cli_map_t *m, tcache_t tc[16], const uint64_t key[3], size_t *ix) {
    void *v;
    size_t slot = (size_t)(key[0] * 7 + key[1] * 3 + key[2]) & 15;
    if (tc[slot].valid && memcmp(key, tc[slot].key, sizeof tc[slot].key) == 0) {
        v = cli_map_at(m, tc[slot].ix, NULL, NULL);
    } else {
        v = cli_map_get_ix(m, key, sizeof tc[slot].key, 1, &tc[slot].ix);
        tc[slot].valid = v != NULL;
        memcpy(tc[slot].key, key, sizeof tc[slot].key);
    }
    *ix = tc[slot].ix;
    return v;
}

#define CHECK_POOL 16

typedef struct cctx {
    int json;
    int strict;
    uint64_t max_per_rule;
    uint64_t count[R_COUNT];
    uint64_t records;
    int seen_first;
    pthread_mutex_t mu; /* guards the pool of range states: taken once per range */
    struct crange *pool[CHECK_POOL];
    size_t npool;
    cli_map_t threads; /* (provider, pid, tid) -> thread_state_t */
    tcache_t tcache[16];
    chain_tab_t chains;                 /* async and flow ids with open chains or waiting events */
    closed_t *closed;                   /* CLOSED_SETS * CLOSED_WAYS, at the first chain's end */
    closed_span_t *cspan;               /* per set: the span of the chains replaced */
    uint64_t *ctag;                     /* per way: its chain's tag */
    int closed_oom;                     /* no cache: late steps are not judged */
    size_t pool_n, pool_max, pool_peak; /* waiting events of all ids (CHAIN_POOL) */
    int pool_full;                      /* some were judged before the end: said in the output */
    cli_map_t lossy; /* (has_provider, provider) of providers that reported a buffer overflow */
} cctx_t;

#define HCACHE 4096

/* A range's state: the stateless checks' context on a worker (cctx: the run's). */
typedef struct crange {
    cctx_t *run;
    int direct; /* range 0: reports and events go straight to the run */
    int oom;    /* an item or report could not be kept: the run fails (out of memory) */
    uint64_t records;
    int seen_first;
    uint64_t count[R_COUNT]; /* reports per rule in this range (not direct) */
    item_t *items;
    size_t n, cap;
    char *text; /* the reports' messages */
    size_t tlen, tcap;
    /* The threads of the range's event items: (provider, pid, tid) -> size_t, 1 + the index of
     * the thread in the run's map once the merge has looked it up. */
    cli_map_t threads;
    tcache_t tcache[16];
    /* name_hash of (category, name) pairs of registered strings by their refs: a duration's
     * category and name are hashed at its begin and its end. Valid while gen == hgen; hgen
     * changes with metadata records (provider switches), damaged records and unknown ones, and
     * with a string record for an index that a kept pair uses (hused). */
    struct {
        uint32_t gen;
        uint16_t cat, name;
        uint64_t hash;
    } hcache[HCACHE];
    uint64_t hused[0x8000 / 64]; /* the string indexes of the pairs kept since hgen changed */
    int hdirty;                  /* a bit of hused is set */
    uint32_t hgen;
    /* The current provider's tick rate, fetched at the first event after hcache_clear (the
     * records that clear the hashes are the ones that can change it): a call per event was 1%. */
    uint64_t tps;
    int tps_ok;
    /* The map index (as thread_get gives it) of the thread of each indexed thread ref (1..255)
     * in the current provider, valid while gen == hgen; a thread record drops its index. Events
     * name their thread by index: a hit skips building and comparing the (provider, pid, tid) key. */
    struct {
        uint32_t gen, ix;
    } tref[256];
} crange_t;

/* The rule for an end without its begin: pair-after-loss once a provider that could have held its
 * begin said it lost records: its own (`anywhere` 0: a duration, which never crosses providers, or
 * a chain whose id is open in several other providers, which only its own lost begin explains),
 * else any provider of the file (a chain's begin may be in another provider: docs/check.md). */
static int unmatched_rule(cctx_t *c, int has_provider, uint32_t provider, int rule, int anywhere) {
    if (anywhere && c->lossy.count > 0) {
        return R_PAIR_AFTER_LOSS;
    }
    return cli_map_get_u64(&c->lossy, (uint64_t)has_provider, provider, 0) ? R_PAIR_AFTER_LOSS : rule;
}

/* Counts a violation: 1 when it is printed (at most max_per_rule per rule; the summary and the exit
 * status see every violation). */
static int counted(cctx_t *c, int rule) {
    c->count[rule]++;
    return !c->max_per_rule || c->count[rule] <= c->max_per_rule;
}

static void print_report(const cctx_t *c, int rule, uint64_t offset, const char *kind, const char *msg) {
    const char *sev = rules[rule].sev == SEV_ERROR ? "error" : "warning";
    if (c->json) {
        printf("{\"offset\":%" PRIu64 ",\"kind\":\"%s\",\"rule\":\"%s\",\"severity\":\"%s\",\"message\":",
               offset, kind, rules[rule].id, sev);
        cli_json_str(stdout, msg, strlen(msg));
        fputs("}\n", stdout);
    } else {
        printf("%10" PRIu64 "  %-7s %-18s %s: %s\n", offset, sev, rules[rule].id, kind, msg);
    }
}

static void vreport(cctx_t *c, int rule, uint64_t offset, const char *kind, const char *fmt, va_list ap) {
    if (counted(c, rule)) {
        char msg[512];
        vsnprintf(msg, sizeof msg, fmt, ap);
        print_report(c, rule, offset, kind, msg);
    }
}

#if defined(__GNUC__) || defined(__clang__)
#define CHECK_PRINTF __attribute__((format(printf, 5, 6)))
#else
#define CHECK_PRINTF
#endif

/* A report of the run's state (the merge, the end of the trace). */
CHECK_PRINTF static void report(cctx_t *c, int rule, uint64_t offset, const char *kind, const char *fmt,
                                ...) {
    va_list ap;
    va_start(ap, fmt);
    vreport(c, rule, offset, kind, fmt, ap);
    va_end(ap);
}

/* Makes room for one more item; NULL (and the range fails) when out of memory. Amortized: the
 * arrays double, and range states are reused (pool), so a record rarely allocates. */
static item_t *item_add(crange_t *g) {
    if (g->n == g->cap && cli_grow(&g->items, &g->cap, g->n + 1, sizeof *g->items, 4096) != 0) {
        g->oom = 1;
        return NULL;
    }
    return &g->items[g->n++];
}

/* A report of a range's per-record checks: printed now by range 0, else kept for the merge. */
CHECK_PRINTF static void rreport(crange_t *g, int rule, uint64_t offset, const char *kind, const char *fmt,
                                 ...) {
    va_list ap;
    va_start(ap, fmt);
    if (g->direct) {
        vreport(g->run, rule, offset, kind, fmt, ap);
        va_end(ap);
        return;
    }
    /* Past max_per_rule in this range, it is past it in the run too: counted at the merge only. */
    uint64_t max = g->run->max_per_rule;
    if (++g->count[rule] > max && max) {
        va_end(ap);
        return;
    }
    char msg[512];
    int len = vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    len = len < 0 ? 0 : len >= (int)sizeof msg ? (int)sizeof msg - 1 : len;
    if (g->tlen + (size_t)len > g->tcap) {
        size_t ncap = g->tcap ? g->tcap * 2 : 1 << 16;
        char *nt = realloc(g->text, ncap);
        if (nt == NULL) {
            g->oom = 1;
            return;
        }
        g->text = nt;
        g->tcap = ncap;
    }
    item_t *it = item_add(g);
    if (it == NULL) {
        return;
    }
    memcpy(g->text + g->tlen, msg, (size_t)len);
    it->what = IT_REPORT;
    it->type = (uint8_t)rule;
    it->offset = offset;
    it->u.rep.kind = kind;
    it->u.rep.text = g->tlen;
    it->ref = (uint32_t)len;
    g->tlen += (size_t)len;
}

/* ---- strings ------------------------------------------------------------------------- */

/* Inline strings are checked here (check_str_slow: out of line, so the common case of a
 * registered string costs a test, not a call with a report buffer on the stack); indexed ones were checked
 * once at their string record. ARGNO > 0 names argument ARGNO's WHAT ("argument 2 name"), spelled out only
 * when reported: formatting it for every argument of every record was most of check's time. */
static void check_str_slow(crange_t *c, const fxt_record_t *rec, const fxt_str_t *s, unsigned argno,
                           const char *part) {
    /* The reader flags an index with no registration in this provider. */
    int too_long = !s->unresolved && s->len > FXT_MAX_STRING_LEN;
    int bad_utf8 = !s->unresolved && !cli_utf8_valid(s->ptr, s->len);
    if (!s->unresolved && !too_long && !bad_utf8) {
        return;
    }
    const char *kind = fxt_record_kind_name(rec->kind);
    char buf[48];
    const char *what = part;
    if (argno) {
        snprintf(buf, sizeof buf, "argument %u %s", argno, part);
        what = buf;
    }
    if (s->unresolved) {
        rreport(c, R_UNRESOLVED_STRING, rec->offset, kind, "%s: string index %u is not registered", what,
                (unsigned)fxt_strref_value(s->ref));
        return;
    }
    if (too_long) {
        rreport(c, R_STRING_TOO_LONG, rec->offset, kind, "%s: inline string of %u bytes", what,
                (unsigned)s->len);
    }
    if (bad_utf8) {
        rreport(c, R_INVALID_UTF8, rec->offset, kind, "%s is not valid UTF-8", what);
    }
}

static inline void check_str_arg(crange_t *c, const fxt_record_t *rec, const fxt_str_t *s, unsigned argno,
                                 const char *part) {
    /* registered strings were checked at their string record */
    if (!s->unresolved && !fxt_strref_is_inline(s->ref) && s->ref != 0) {
        return;
    }
    check_str_slow(c, rec, s, argno, part);
}

static void check_str(crange_t *c, const fxt_record_t *rec, const fxt_str_t *s, const char *what) {
    check_str_arg(c, rec, s, 0, what);
}

/* An indexed thread reference with no thread record in this provider (spec: Thread record). */
static void check_thread(crange_t *c, const fxt_record_t *rec, const fxt_thread_ref_t *t, const char *what) {
    if (!t->resolved) {
        rreport(c, R_UNRESOLVED_THREAD, rec->offset, fxt_record_kind_name(rec->kind),
                "%s: thread index %u is not registered", what, (unsigned)t->ref);
    }
}

/* Reports the bits of WORD under MASK: reserved fields must be zero (spec: every record layout). */
static void reserved(crange_t *c, const fxt_record_t *rec, uint64_t word, uint64_t mask, const char *what) {
    if (word & mask) {
        rreport(c, R_RESERVED, rec->offset, fxt_record_kind_name(rec->kind),
                "%s: reserved bits 0x%016" PRIx64 " set", what, word & mask);
    }
}

/* Argument I's checks: its name and string value, reserved bits, unknown type, oversized. */
CLI_NOINLINE void check_arg(crange_t *c, const fxt_record_t *rec, unsigned i) {
    const fxt_arg_t *a = &rec->args[i];
    check_str_arg(c, rec, &a->name, i + 1, "name");
    /* The smallest size the contents need: header word, plus the inline name's padded words. */
    uint64_t need = 1 + (fxt_strref_is_inline(a->name.ref) ? fxt_words(fxt_strref_value(a->name.ref)) : 0);
    switch (a->type) {
    case FXT_ARG_NULL:
        reserved(c, rec, a->header, FXT_MASK(arg_data), "null argument");
        break;
    case FXT_ARG_INT32:
    case FXT_ARG_UINT32:
        break;
    case FXT_ARG_INT64:
    case FXT_ARG_UINT64:
    case FXT_ARG_DOUBLE:
    case FXT_ARG_POINTER:
    case FXT_ARG_KOID:
        /* 64-bit values live in a word of their own, so the header's data field is reserved. */
        reserved(c, rec, a->header, FXT_MASK(arg_data), "argument header");
        need++;
        break;
    case FXT_ARG_STRING:
        reserved(c, rec, a->header, FXT_MASK(arg_str_reserved), "string argument");
        check_str_arg(c, rec, &a->str, i + 1, "value");
        need += fxt_strref_is_inline(a->str.ref) ? fxt_words(fxt_strref_value(a->str.ref)) : 0;
        break;
    case FXT_ARG_BOOL:
        reserved(c, rec, a->header, FXT_MASK(arg_bool_reserved), "bool argument");
        break;
    default:
        rreport(c, R_UNKNOWN_ARG, rec->offset, fxt_record_kind_name(rec->kind),
                "argument %u has unknown type %u (skipped by its size)", i + 1, (unsigned)a->type);
        /* An unknown type's contents are unknown: its declared size is all there is. */
        need = a->size_words;
        break;
    }
    if (a->size_words > need) {
        rreport(c, R_ARG_SIZE, rec->offset, fxt_record_kind_name(rec->kind),
                "argument %u declares %u words, its contents need %" PRIu64, i + 1, (unsigned)a->size_words,
                need);
    }
}

/* What check_arg finds nothing in, per argument type (a 4-bit field): the header bits that must
 * be zero and the most words it takes with an indexed name; 0 for the types left to check_arg
 * (strings, unknown types), since an argument takes at least its header word. */
static const struct {
    uint64_t mask;
    uint64_t words;
} arg_clean[16] = {
    [FXT_ARG_NULL] = {FXT_MASK(arg_data), 1},
    [FXT_ARG_INT32] = {0, 1},
    [FXT_ARG_UINT32] = {0, 1},
    [FXT_ARG_INT64] = {FXT_MASK(arg_data), 2},
    [FXT_ARG_UINT64] = {FXT_MASK(arg_data), 2},
    [FXT_ARG_DOUBLE] = {FXT_MASK(arg_data), 2},
    [FXT_ARG_POINTER] = {FXT_MASK(arg_data), 2},
    [FXT_ARG_KOID] = {FXT_MASK(arg_data), 2},
    [FXT_ARG_BOOL] = {FXT_MASK(arg_bool_reserved), 1},
};

/* Arguments: the common one (a known type with an indexed name, no reserved bits set, no larger
 * than its contents) costs a few tests; any other goes through check_arg. */
CLI_INLINE void check_args(crange_t *c, const fxt_record_t *rec) {
    for (unsigned i = 0, n = rec->nargs; i < n; i++) {
        const fxt_arg_t *a = &rec->args[i];
        unsigned t = a->type & 15u;
        if (!fxt_strref_is_index(a->name.ref) || a->name.unresolved || (a->header & arg_clean[t].mask) ||
            a->size_words > arg_clean[t].words) {
            check_arg(c, rec, i);
        }
    }
}

/* ---- per-thread and id bookkeeping ------------------------------------------------------ */

/* Forgets the kept pair hashes, thread refs and tick rate: after the records that may change
 * what they were found from (and at a range's start). */
static void hcache_clear(crange_t *c) {
    c->tps_ok = 0;
    if (c->hdirty) {
        memset(c->hused, 0, sizeof c->hused);
        c->hdirty = 0;
    }
    if (++c->hgen == 0) {
        c->hgen = 1; /* 0 marks no entry */
    }
}

/* A hash of category and name, each hashed on its own so ("ab","c") != ("a","bc"):
 * compares a duration end to its begin without keeping the strings. */
static uint64_t str_hash(const fxt_str_t *s) { return s->ptr == NULL ? 0 : cli_hash_bytes(s->ptr, s->len); }

/* name_hash's miss: the hash, kept in SLOT when both strings are registered. */
CLI_NOINLINE uint64_t name_hash_slow(crange_t *c, const fxt_record_t *rec, size_t slot) {
    const fxt_str_t *cat = &rec->u.event.category, *name = &rec->u.event.name;
    uint64_t h = (str_hash(cat) * 0x9e3779b97f4a7c15ull) ^ str_hash(name);
    if (fxt_strref_is_index(cat->ref) && fxt_strref_is_index(name->ref) && !cat->unresolved &&
        !name->unresolved) {
        c->hcache[slot].gen = c->hgen;
        c->hcache[slot].cat = cat->ref;
        c->hcache[slot].name = name->ref;
        c->hcache[slot].hash = h;
        c->hused[cat->ref / 64] |= UINT64_C(1) << (cat->ref % 64);
        c->hused[name->ref / 64] |= UINT64_C(1) << (name->ref % 64);
        c->hdirty = 1;
    }
    return h;
}

/* Inline, a pair's hash mostly kept: one lookup per duration begin or end. Only registered strings'
 * pairs are kept, so inline refs, 0 and unresolved indexes (registered in no kept pair) miss. */
CLI_INLINE uint64_t name_hash(crange_t *c, const fxt_record_t *rec) {
    uint16_t cat = rec->u.event.category.ref, name = rec->u.event.name.ref;
    size_t slot = ((size_t)cat * 0x9e3779b1u ^ name) & (HCACHE - 1);
    if (c->hcache[slot].gen == c->hgen && c->hcache[slot].cat == cat && c->hcache[slot].name == name) {
        return c->hcache[slot].hash;
    }
    return name_hash_slow(c, rec, slot);
}

/* ---- async and flow chains (docs/check.md#chain-ids) ------------------------------------ */

static chain_ev_t *chain_waiting(chain_t *ch) { return ch->cap > CHAIN_INLINE ? ch->heap : ch->inl; }
static chain_ev_t *chain_opened(chain_t *ch) { return ch->ocap > 1 ? ch->oheap : &ch->open1; }

static size_t chain_hash(uint32_t kind, uint64_t id) {
    uint64_t h = (id ^ (uint64_t)kind << 62) * 0x9e3779b97f4a7c15ull;
    return (size_t)(h ^ h >> 32);
}

/* Doubles the table (1024 slots at first); -1 when out of memory. */
static int chain_tab_grow(chain_tab_t *t) {
    size_t n = t->slot != NULL ? (t->mask + 1) * 2 : 1024;
    chain_t *ns = calloc(n, sizeof *ns);
    if (ns == NULL) {
        return -1;
    }
    for (size_t i = 0; t->slot != NULL && i <= t->mask; i++) {
        if (t->slot[i].kind != 0) {
            size_t j = chain_hash(t->slot[i].kind, t->slot[i].id) & (n - 1);
            while (ns[j].kind != 0) {
                j = (j + 1) & (n - 1);
            }
            ns[j] = t->slot[i];
        }
    }
    free(t->slot);
    t->slot = ns;
    t->mask = n - 1;
    return 0;
}

/* The entry of (KIND, ID), created if new (NULL: out of memory). */
static chain_t *chain_get(chain_tab_t *t, uint32_t kind, uint64_t id) {
    size_t h = chain_hash(kind, id);
    if (t->slot != NULL) {
        for (size_t i = h & t->mask;; i = (i + 1) & t->mask) {
            chain_t *ch = &t->slot[i];
            if (ch->kind == 0) {
                break;
            }
            if (ch->id == id && ch->kind == kind) {
                return ch;
            }
        }
    }
    /* at most half full: probes stay short */
    if ((t->slot == NULL || (t->count + 1) * 2 > t->mask + 1) && chain_tab_grow(t) != 0) {
        return NULL;
    }
    size_t i = h & t->mask;
    while (t->slot[i].kind != 0) {
        i = (i + 1) & t->mask;
    }
    chain_t *ch = &t->slot[i]; /* free slots are zeroed */
    ch->id = id;
    ch->kind = kind;
    if (++t->count > t->peak) {
        t->peak = t->count;
    }
    return ch;
}

/* Removes entry CH (its chains all ended, nothing waits): what keeps memory to the open chains.
 * The entries after it in its probe run move back (no tombstones). */
static void chain_remove(chain_tab_t *t, chain_t *ch) {
    if (ch->cap > CHAIN_INLINE) {
        free(ch->heap);
    }
    if (ch->ocap > 1) {
        free(ch->oheap);
    }
    size_t i = (size_t)(ch - t->slot);
    for (size_t j = (i + 1) & t->mask; t->slot[j].kind != 0; j = (j + 1) & t->mask) {
        size_t home = chain_hash(t->slot[j].kind, t->slot[j].id) & t->mask;
        /* J's entry may fill the hole at I unless its home lies in (I, J] */
        if (((j - home) & t->mask) >= ((j - i) & t->mask)) {
            t->slot[i] = t->slot[j];
            i = j;
        }
    }
    memset(&t->slot[i], 0, sizeof t->slot[i]);
    t->count--;
}

static size_t closed_set(uint32_t kind, uint64_t id) { return chain_hash(kind, id) >> 7 & (CLOSED_SETS - 1); }
static uint64_t closed_tag(uint32_t kind, uint64_t id) { return id << 2 | kind; }
static uint64_t closed_bit(uint32_t kind, uint64_t id) { return UINT64_C(1) << (chain_hash(kind, id) & 63); }

/* Remembers a chain that ended (begin B, end E), for steps read after its end (another thread's
 * chunk) and for a dispute's history. */
static void closed_add(cctx_t *c, uint32_t kind, uint64_t id, const chain_ev_t *b, const chain_ev_t *e) {
    if (c->closed == NULL) {
        if (c->closed_oom) {
            return;
        }
        c->closed = calloc((size_t)CLOSED_SETS * CLOSED_WAYS, sizeof *c->closed);
        c->ctag = calloc((size_t)CLOSED_SETS * CLOSED_WAYS, sizeof *c->ctag);
        c->cspan = malloc(CLOSED_SETS * sizeof *c->cspan);
        if (c->closed == NULL || c->ctag == NULL || c->cspan == NULL) {
            free(c->closed);
            free(c->ctag);
            free(c->cspan);
            c->closed = NULL;
            c->ctag = NULL;
            c->cspan = NULL;
            c->closed_oom = 1;
            return;
        }
        for (size_t i = 0; i < CLOSED_SETS; i++) {
            c->cspan[i] = (closed_span_t){UINT64_MAX, 0, 0};
        }
    }
    size_t set = closed_set(kind, id);
    closed_t *w = &c->closed[set * CLOSED_WAYS], *v = w;
    for (int k = 0; k < CLOSED_WAYS; k++) {
        if (w[k].kind == 0) {
            v = &w[k];
            break;
        }
        if (w[k].e.ns < v->e.ns) {
            v = &w[k];
        }
    }
    if (v->kind != 0) {
        /* a step inside the replaced chain can no longer be matched: not judged (closed_covers) */
        closed_span_t *sp = &c->cspan[set];
        sp->from = v->b.ns < sp->from ? v->b.ns : sp->from;
        sp->to = v->e.ns > sp->to ? v->e.ns : sp->to;
        sp->ids |= closed_bit(v->kind, v->id);
    }
    *v = (closed_t){id, *b, *e, kind};
    c->ctag[(size_t)(v - c->closed)] = closed_tag(kind, id);
}

/* The cached ended chain K of set SET if it is (KIND, ID)'s, else NULL. */
static closed_t *closed_way(const cctx_t *c, size_t set, int k, uint32_t kind, uint64_t id) {
    size_t i = set * CLOSED_WAYS + (size_t)k;
    if (c->ctag[i] != closed_tag(kind, id) || c->closed[i].kind != kind || c->closed[i].id != id) {
        return NULL;
    }
    return &c->closed[i];
}

/* A new entry CH: its latest judged begin or end is the latest end of its ended chains still in
 * the cache (an event earlier than that, read now, disputes the id). */
static void closed_last(const cctx_t *c, chain_t *ch) {
    ch->sc_ns = 0;
    ch->sc_phase = 0;
    if (c->closed == NULL) {
        return;
    }
    size_t set = closed_set(ch->kind, ch->id);
    for (int k = 0; k < CLOSED_WAYS; k++) {
        const closed_t *w = closed_way(c, set, k, ch->kind, ch->id);
        if (w != NULL && (w->e.ns > ch->sc_ns || ch->sc_phase == 0)) {
            ch->sc_ns = w->e.ns > ch->sc_ns ? w->e.ns : ch->sc_ns;
            ch->sc_phase = 2;
        }
    }
}

/* Whether time NS lies within the span of the chains replaced in (KIND, ID)'s set of the cache:
 * an event there may belong to a chain no longer known. */
static int closed_spanned(const cctx_t *c, uint32_t kind, uint64_t id, uint64_t ns) {
    if (c->closed == NULL) {
        return c->closed_oom;
    }
    const closed_span_t *sp = &c->cspan[closed_set(kind, id)];
    return sp->from <= ns && ns <= sp->to;
}

/* Counts distinct providers: the first one, and 2 for any other. */
static void other_add(uint32_t *other, int *nothers, uint32_t provider) {
    if (*nothers == 0) {
        *other = provider;
        *nothers = 1;
    } else if (provider != *other) {
        *nothers = 2;
    }
}

/* The recently closed chains of a step's id that were open at its time: 1 when one is of its
 * own provider; else the other providers' are counted (other_add). 2 when none is cached but a
 * chain replaced in the cache may have been open then: the step is not judged. */
static int closed_covers(const cctx_t *c, uint32_t kind, uint64_t id, const chain_ev_t *e, uint32_t *other,
                         int *nothers) {
    if (c->closed == NULL) {
        return c->closed_oom ? 2 : 0;
    }
    size_t set = closed_set(kind, id);
    for (int k = 0; k < CLOSED_WAYS; k++) {
        const closed_t *w = closed_way(c, set, k, kind, id);
        if (w != NULL && w->b.ns <= e->ns && e->ns <= w->e.ns) {
            if (w->b.provider == e->provider) {
                return 1;
            }
            other_add(other, nothers, w->b.provider);
        }
    }
    return closed_spanned(c, kind, id, e->ns) ? 2 : 0;
}

enum { M_OPEN, M_STEP, M_CLOSE, M_REUSED, M_NONE };

/* What event E does to CH's open chains under the chain-id rule, in time order (a chain begun
 * after E's time was not open at it): a begin opens a chain, or reuses an id open in its own
 * provider; a step/instant or end matches its own provider's open chain, else the one other
 * provider's (several: ambiguous, *nothers > 1); an end closes the chain it matches. *WHICH: the
 * open chain matched (for a reuse, the one open). EXACT: a disputed id's events, in time order
 * from scratch: the open chains are those at E's time, and the cache is not asked. */
static int chain_match(const cctx_t *c, chain_t *ch, const chain_ev_t *e, uint32_t *which, int *nothers,
                       int exact) {
    const chain_ev_t *o = chain_opened(ch);
    unsigned phase = EV_PHASE(*e);
    uint32_t other = 0;
    int own = -1, oth = -1;
    *nothers = 0;
    for (uint32_t i = 0; i < ch->nopen; i++) {
        if (o[i].ns > e->ns && !exact) {
            continue;
        }
        /* the latest begun of a provider (several only when begins were read out of time order) */
        if (o[i].provider == e->provider) {
            own = own < 0 || o[i].ns >= o[own].ns ? (int)i : own;
        } else {
            other_add(&other, nothers, o[i].provider);
            if (o[i].provider == other && (oth < 0 || o[i].ns >= o[oth].ns)) {
                oth = (int)i;
            }
        }
    }
    if (own >= 0) {
        *which = (uint32_t)own;
        return phase == 0 ? M_REUSED : phase == 1 ? M_STEP : M_CLOSE;
    }
    if (phase == 0) {
        return M_OPEN;
    }
    if (phase == 2 || exact) {
        *which = (uint32_t)oth;
        return *nothers == 1 ? (phase == 2 ? M_CLOSE : M_STEP) : M_NONE;
    }
    /* A step or instant may be read after its chain's end (written by a later thread's chunk). */
    int cov = closed_covers(c, ch->kind, ch->id, e, &other, nothers);
    return cov == 1 || *nothers == 1 || (cov == 2 && *nothers == 0) ? M_STEP : M_NONE;
}

/* Judges event E of CH: applies what it does to the open chains and returns 1; a violation
 * (a reused id, no begin) is reported when REPORT_IT, else E is left alone (it waits: its begin
 * may come later in the file) and 0 is returned. EXACT: chain_match's, for a disputed id; a
 * violation as early as chains replaced in the cache before the dispute is not reported (its
 * begin or end may be one of them). */
static int chain_judge(cctx_t *c, chain_t *ch, const chain_ev_t *e, int report_it, int exact) {
    uint32_t which = 0;
    int nothers;
    int m = chain_match(c, ch, e, &which, &nothers, exact);
    chain_ev_t *o = chain_opened(ch);
    if (m == M_OPEN) {
        if (ch->nopen == ch->ocap) {
            if (ch->ocap == 0) {
                ch->ocap = 1;
            } else {
                chain_ev_t *no = realloc(ch->ocap > 1 ? ch->oheap : NULL, ch->ocap * 2 * sizeof *no);
                if (no == NULL) {
                    return 1; /* out of memory: the chain is not checked */
                }
                if (ch->ocap == 1) {
                    no[0] = ch->open1;
                }
                ch->oheap = no;
                ch->ocap *= 2;
            }
            o = chain_opened(ch);
        }
        o[ch->nopen++] = *e;
    } else if (m == M_STEP) {
        return 1;
    } else if (m == M_CLOSE) {
        if (!exact) {
            closed_add(c, ch->kind, ch->id, &o[which], e);
        }
        memmove(o + which, o + which + 1, (ch->nopen - which - 1) * sizeof *o);
        ch->nopen--;
    } else if (!report_it) {
        return 0;
    }
    if ((m == M_OPEN || m == M_CLOSE) && exact) {
        return 1;
    }
    if (m == M_OPEN || m == M_CLOSE) {
        /* time order of the judged begins and ends: what a later, earlier one disputes */
        if (e->ns > ch->sc_ns || (e->ns == ch->sc_ns && EV_PHASE(*e) > ch->sc_phase)) {
            ch->sc_ns = e->ns;
            ch->sc_phase = (uint8_t)EV_PHASE(*e);
        }
        return 1;
    }
    if (exact && ((ch->disputed & 2) || (ch->sc_phase && e->ns <= ch->sc_ns))) {
        return 1;
    }
    int flow = ch->kind == 2;
    const char *what = flow ? "flow" : "async";
    if (m == M_REUSED) {
        report(c, flow ? R_FLOW_ID_REUSED : R_ASYNC_ID_REUSED, EV_OFFSET(*e), "event",
               "%s id %" PRIu64 " begun again while its chain begun at offset %" PRIu64
               " is open in this provider",
               what, ch->id, EV_OFFSET(o[which]));
    } else {
        report(c,
               unmatched_rule(c, (int)e->has_provider, e->provider, flow ? R_FLOW_NO_BEGIN : R_ASYNC_NO_BEGIN,
                              nothers <= 1),
               EV_OFFSET(*e), "event", "%s %s with id %" PRIu64 " has no open begin%s", what,
               EV_PHASE(*e) == 1 ? (flow ? "step" : "instant") : "end", ch->id,
               nothers > 1 ? " (open in several other providers: ambiguous)" : "");
    }
    return 1;
}

/* Makes room for one more waiting event of CH; -1 when out of memory. */
static int chain_wait_room(chain_t *ch) {
    if (ch->n < ch->cap) {
        return 0;
    }
    if (ch->cap < CHAIN_INLINE) {
        ch->cap = CHAIN_INLINE;
        return 0;
    }
    uint32_t ncap = ch->cap * 2;
    chain_ev_t *ne = realloc(ch->cap > CHAIN_INLINE ? ch->heap : NULL, ncap * sizeof *ne);
    if (ne == NULL) {
        return -1;
    }
    if (ch->cap == CHAIN_INLINE) {
        memcpy(ne, ch->inl, sizeof ch->inl);
    }
    ch->heap = ne;
    ch->cap = ncap;
    return 0;
}

/* Appends E to CH's waiting events (a disputed id's: in read order). */
static void chain_keep(cctx_t *c, chain_t *ch, const chain_ev_t *e) {
    if (chain_wait_room(ch) != 0) {
        return; /* out of memory: this event is not checked */
    }
    chain_waiting(ch)[ch->n++] = *e;
    if (++c->pool_n > c->pool_peak) {
        c->pool_peak = c->pool_n;
    }
}

/* Takes CH's first waiting event out. */
static chain_ev_t chain_pop(cctx_t *c, chain_t *ch) {
    chain_ev_t *w = chain_waiting(ch);
    chain_ev_t e = w[0];
    memmove(w, w + 1, (ch->n - 1) * sizeof *w);
    ch->n--;
    c->pool_n--;
    return e;
}

/* Time order: time, then begin, step, end, then file order. */
static int cmp_chain_ev(const void *a, const void *b) {
    const chain_ev_t *x = a, *y = b;
    if (x->ns != y->ns) {
        return x->ns < y->ns ? -1 : 1;
    }
    if (EV_PHASE(*x) != EV_PHASE(*y)) {
        return EV_PHASE(*x) < EV_PHASE(*y) ? -1 : 1;
    }
    return x->op < y->op ? -1 : x->op > y->op;
}

/* Whether CH has open chains, or judged or remembered (cache) begins or ends: a violation then
 * disputes it. A new id's end or step read before its begin (another thread's chunk) just waits. */
static int chain_used(const chain_t *ch) { return ch->nopen > 0 || ch->sc_ns > 0 || ch->sc_phase > 0; }

/* Disputes CH: its open chains' begins and its ended chains still in the cache join its waiting
 * events, to be paired again from scratch with all its later events (chain_settle). */
static void chain_dispute(cctx_t *c, chain_t *ch) {
    ch->disputed = 1;
    /* From now on sc_ns is how far the history may lack chains replaced in the cache (sc_phase 1):
     * a violation up to then is not reported, since its begin or end may be one of them. */
    ch->sc_phase = 0;
    ch->sc_ns = 0;
    if (c->closed_oom) {
        ch->sc_phase = 1;
        ch->sc_ns = UINT64_MAX;
    } else if (c->closed != NULL) {
        const closed_span_t *sp = &c->cspan[closed_set(ch->kind, ch->id)];
        if (sp->ids & closed_bit(ch->kind, ch->id)) {
            ch->sc_phase = 1; /* a chain of this id (or of one sharing its bit) was replaced */
            ch->sc_ns = sp->to;
        }
    }
    for (uint32_t k = 0; k < ch->nopen; k++) {
        chain_keep(c, ch, &chain_opened(ch)[k]);
    }
    ch->nopen = 0;
    if (c->closed == NULL) {
        return;
    }
    size_t set = closed_set(ch->kind, ch->id);
    for (int k = 0; k < CLOSED_WAYS; k++) {
        closed_t *w = closed_way(c, set, k, ch->kind, ch->id);
        if (w != NULL) {
            chain_keep(c, ch, &w->b);
            chain_keep(c, ch, &w->e);
            w->kind = 0;
            c->ctag[set * CLOSED_WAYS + (size_t)k] = 0;
        }
    }
}

/* Judges for good disputed CH's first K waiting events in time order, from the open chains its
 * earlier judged events left (none before a full pool): the chain-id rule applied from scratch. */
static void chain_settle(cctx_t *c, chain_t *ch, uint32_t k) {
    chain_ev_t *w = chain_waiting(ch);
    qsort(w, ch->n, sizeof *w, cmp_chain_ev);
    for (uint32_t i = 0; i < k; i++) {
        chain_judge(c, ch, &w[i], 1, 1);
    }
    w = chain_waiting(ch); /* unchanged: chain_judge touches the open chains only */
    memmove(w, w + k, (ch->n - k) * sizeof *w);
    ch->n -= k;
    c->pool_n -= k;
}

/* An async (KIND 1) or flow (2) event: judged at once when nothing of its id waits and it is no
 * violation, else it waits in time order (ties: begin, step, end) with the waiting events judged
 * from the first as far as they are no violation. A begin or end earlier than one judged, or a
 * violation earlier than one, disputes the id (chain_dispute). A full pool judges the id's oldest
 * waiting event for good (half of a disputed id's). */
static void chain_event(cctx_t *c, uint32_t kind, uint64_t id, const chain_ev_t *e) {
    chain_t *ch = chain_get(&c->chains, kind, id);
    if (ch == NULL) {
        return; /* out of memory: this event is not checked */
    }
    unsigned phase = EV_PHASE(*e);
    if (ch->nopen == 0 && ch->n == 0 && !ch->disputed) {
        closed_last(c, ch); /* a new entry */
    }
    int early = e->ns < ch->sc_ns || (e->ns == ch->sc_ns && phase < ch->sc_phase);
    if (!ch->disputed && early && phase != 1) {
        chain_dispute(c, ch);
    }
    if (ch->disputed) {
        if (ch->sc_phase && e->ns <= ch->sc_ns) {
            ch->disputed |= 2; /* read late, as early as chains the cache lost: not judged */
        }
        if (c->pool_n >= c->pool_max) {
            c->pool_full = 1;
            if (ch->n == 0) {
                chain_judge(c, ch, e, 1, 1);
                return;
            }
            chain_settle(c, ch, ch->n / 2 + 1);
        }
        chain_keep(c, ch, e);
        return;
    }
    if (ch->n == 0) {
        if (chain_judge(c, ch, e, 0, 0)) {
            if (ch->nopen == 0) {
                chain_remove(&c->chains, ch);
            }
            return;
        }
        if (early || chain_used(ch)) {
            /* a step with no chain at its time read after later begins or ends were judged, or
             * a violation of an id that has chains: they may be paired wrongly (a reused id) */
            chain_dispute(c, ch);
            chain_event(c, kind, id, e);
            return;
        }
    }
    if (c->pool_n >= c->pool_max) {
        c->pool_full = 1;
        if (ch->n == 0) {
            chain_judge(c, ch, e, 1, 0);
            if (ch->nopen == 0) {
                chain_remove(&c->chains, ch);
            }
            return;
        }
        chain_ev_t f = chain_pop(c, ch);
        chain_judge(c, ch, &f, 1, 0);
    }
    if (chain_wait_room(ch) != 0) {
        return; /* out of memory: this event is not checked */
    }
    chain_ev_t *w = chain_waiting(ch);
    uint32_t i = ch->n;
    while (i > 0 && cmp_chain_ev(&w[i - 1], e) > 0) {
        w[i] = w[i - 1];
        i--;
    }
    w[i] = *e;
    ch->n++;
    if (++c->pool_n > c->pool_peak) {
        c->pool_peak = c->pool_n;
    }
    while (ch->n > 0 && chain_judge(c, ch, chain_waiting(ch), 0, 0)) {
        chain_ev_t f = chain_pop(c, ch);
        if (EV_PHASE(f) == 2 && ch->n > 0) {
            /* events still wait after a chain ended: the id is reused out of order; disputed now,
             * while the cache still holds the chains just judged */
            chain_dispute(c, ch);
            return;
        }
    }
    if (ch->n > 0 && chain_used(ch)) {
        chain_dispute(c, ch); /* a violation waits while its id has chains: as above */
        return;
    }
    if (ch->n == 0 && ch->nopen == 0) {
        chain_remove(&c->chains, ch);
    }
}

/* Per-thread timestamp order, duration nesting and async/flow id pairing (docs/check.md) of event E
 * of thread T, in record order. Inlined in both callers (range 0's records,
 * the merge's items): a call per event cost -j 1 about 4% of its instructions. */
CLI_INLINE void event_state(cctx_t *c, thread_state_t *t, const item_t *e) {
    const char *kind = "event";
    const uint64_t *key = t->key;
    uint64_t ns = e->u.ev.ns;
    uint32_t provider = (uint32_t)key[0];
    /* duration complete events are written either at their start or when their scope
     * ends (after the events inside it): both are valid, so they are not ordered */
    int ordered = e->type != FXT_EVENT_DURATION_COMPLETE;
    if (ordered && ns < t->last_ns) {
        report(c, R_TS_BACKWARDS, e->offset, kind,
               "timestamp %" PRIu64 " ns is %" PRIu64 " ns before the previous event of thread %" PRIu64
               "/%" PRIu64,
               ns, t->last_ns - ns, key[1], key[2]);
    }
    if (ordered) {
        t->last_ns = ns;
    }
    switch (e->type) {
    case FXT_EVENT_DURATION_BEGIN:
        t->begun = 1;
        if (t->depth < MAX_DEPTH) {
            t->begin_hash[t->depth] = e->u.ev.key;
            t->begin_off[t->depth] = e->offset;
        }
        t->depth++;
        break;
    case FXT_EVENT_DURATION_END:
        if (t->depth == 0) {
            /* The spec asks that a begin be ended, not that an end have a begin: a trace started
             * inside running durations (magic-trace) ends them first, then returns further out
             * past the first begins; the two cases are told apart, both are warnings. */
            report(c,
                   unmatched_rule(c, e->has_provider, provider,
                                  t->begun ? R_DURATION_UNMATCHED : R_DURATION_END_FIRST, 0),
                   e->offset, kind, "duration end with no open begin on thread %" PRIu64 "/%" PRIu64, key[1],
                   key[2]);
            break;
        }
        t->depth--;
        /* The begin was past MAX_DEPTH: its name was not kept, so nothing to compare. */
        if (t->depth < MAX_DEPTH && t->begin_hash[t->depth] != e->u.ev.key) {
            report(c, R_DURATION_NAME, e->offset, kind,
                   "duration end's category/name differ from the begin at offset %" PRIu64,
                   t->begin_off[t->depth]);
        }
        break;
    case FXT_EVENT_ASYNC_BEGIN:
    case FXT_EVENT_ASYNC_INSTANT:
    case FXT_EVENT_ASYNC_END:
    case FXT_EVENT_FLOW_BEGIN:
    case FXT_EVENT_FLOW_STEP:
    case FXT_EVENT_FLOW_END: {
        /* Event types are begin/step-or-instant/end in a row (spec: Event record types), so the
         * phase is the offset from the begin: 0 begin, 1 instant/step, 2 end. */
        int flow = e->type >= FXT_EVENT_FLOW_BEGIN;
        unsigned phase = e->type - (flow ? FXT_EVENT_FLOW_BEGIN : FXT_EVENT_ASYNC_BEGIN);
        chain_ev_t ce = {ns, e->offset << 2 | phase, provider, e->has_provider};
        chain_event(c, flow ? 2 : 1, e->u.ev.key, &ce);
        break;
    }
    default:
        break;
    }
}

/* event_thread's miss: the thread looked up by its key, and remembered for its thread ref. */
CLI_NOINLINE void *event_thread_slow(crange_t *c, cli_map_t *m, const fxt_record_t *rec, size_t *ix) {
    /* Keyed by provider too: thread state is per provider section (spec-notes). */
    uint64_t key[3] = {rec->provider, rec->u.event.thread.pid, rec->u.event.thread.tid};
    void *v = thread_get(m, c->direct ? c->run->tcache : c->tcache, key, ix);
    uint32_t ref = rec->u.event.thread.ref;
    if (v != NULL && ref - 1 < 255) {
        c->tref[ref].gen = c->hgen;
        c->tref[ref].ix = (uint32_t)*ix;
    }
    if (v != NULL && c->direct) {
        memcpy(((thread_state_t *)v)->key, key, sizeof key);
    }
    return v;
}

/* The entry of event REC's thread in the range's threads (range 0: the run's thread states),
 * created if new (NULL: out of memory), and its index. */
CLI_INLINE void *event_thread(crange_t *c, const fxt_record_t *rec, size_t *ix) {
    cli_map_t *m = c->direct ? &c->run->threads : &c->threads;
    uint32_t ref = rec->u.event.thread.ref;
    if (ref - 1 < 255 && c->tref[ref].gen == c->hgen) {
        *ix = c->tref[ref].ix;
        return cli_map_at(m, *ix, NULL, NULL);
    }
    return event_thread_slow(c, m, rec, ix);
}

/* An event's checks of its own fields; those that depend on earlier events go to event_state, at once
 * (range 0) or at the merge. */
CLI_INLINE void check_event(crange_t *c, fxt_reader_t *r, const fxt_record_t *rec) {
    check_thread(c, rec, &rec->u.event.thread, "thread");
    check_str(c, rec, &rec->u.event.category, "category");
    check_str(c, rec, &rec->u.event.name, "name");
    check_args(c, rec);
    /* Without a resolved pid/tid there is no thread to keep state for. */
    if (rec->u.event.thread.resolved) {
        /* Compared in ns: the tick rate is per provider and a later initialization record may change it. */
        if (!c->tps_ok) {
            c->tps = fxt_reader_ticks_per_second(r);
            c->tps_ok = 1;
        }
        unsigned type = rec->u.event.type;
        item_t e = {IT_EVENT, (uint8_t)type, (uint8_t)rec->has_provider, 0, rec->offset, {{0, 0}}};
        e.u.ev.ns = cli_ticks_to_ns(rec->u.event.ts, c->tps);
        e.u.ev.key = type == FXT_EVENT_DURATION_BEGIN || type == FXT_EVENT_DURATION_END ? name_hash(c, rec)
                     : type >= FXT_EVENT_ASYNC_BEGIN && type <= FXT_EVENT_FLOW_END      ? rec->u.event.id
                                                                                        : 0;
        size_t ix;
        if (c->direct) {
            thread_state_t *t = event_thread(c, rec, &ix);
            /* Out of memory: skip the per-thread checks rather than fail the whole check. */
            if (t != NULL) {
                event_state(c->run, t, &e);
            }
        } else {
            item_t *it = item_add(c);
            if (it != NULL && event_thread(c, rec, &ix) == NULL) {
                c->oom = 1;
            } else if (it != NULL) {
                e.ref = (uint32_t)ix;
                *it = e;
            }
        }
    }
    if (rec->u.event.type == FXT_EVENT_DURATION_COMPLETE && rec->u.event.end_ts < rec->u.event.ts) {
        rreport(c, R_COMPLETE_NEGATIVE, rec->offset, "event",
                "ends at tick %" PRIu64 ", before its start %" PRIu64, rec->u.event.end_ts, rec->u.event.ts);
    }
}

/* A provider event; a buffer-full one marks its provider lossy (pair-after-loss). */
static void check_provider_event(crange_t *c, const fxt_record_t *rec, uint64_t h) {
    reserved(c, rec, h, FXT_MASK(meta_event_reserved), "provider event header");
    if (rec->u.provider_event.event == FXT_PROVIDER_EVENT_BUFFER_FULL) {
        /* the event names the provider whose records were lost */
        if (c->direct) {
            cli_map_get_u64(&c->run->lossy, 1, rec->u.provider_event.id, 1);
        } else {
            item_t *it = item_add(c);
            if (it != NULL) {
                *it = (item_t){IT_LOSSY, 0, 0, rec->u.provider_event.id, rec->offset, {{0, 0}}};
            }
        }
    }
}

/* A string record: its index, length and UTF-8. */
static void check_string_record(crange_t *c, const fxt_record_t *rec, uint64_t h) {
    reserved(c, rec, h, FXT_MASK(string_bit31) | FXT_MASK(string_bit47) | FXT_MASK(string_reserved),
             "string header");
    if (rec->u.string.index == 0) {
        rreport(c, R_INDEX_ZERO, rec->offset, fxt_record_kind_name(rec->kind), "string record for index 0");
    }
    if (rec->u.string.value.len > FXT_MAX_STRING_LEN) {
        rreport(c, R_STRING_TOO_LONG, rec->offset, fxt_record_kind_name(rec->kind), "string of %u bytes",
                (unsigned)rec->u.string.value.len);
    }
    if (!cli_utf8_valid(rec->u.string.value.ptr, rec->u.string.value.len)) {
        rreport(c, R_INVALID_UTF8, rec->offset, fxt_record_kind_name(rec->kind),
                "string %u is not valid UTF-8", (unsigned)rec->u.string.index);
    }
}

/* A kernel object; a thread names its process (thread-no-process). */
static void check_kernel_object(crange_t *c, const fxt_record_t *rec, uint64_t h) {
    reserved(c, rec, h, FXT_MASK(kobj_reserved), "kernel object header");
    check_str(c, rec, &rec->u.kernel_object.name, "name");
    check_args(c, rec);
    /* Viewers place a thread under its process by the koid argument named "process". */
    if (rec->u.kernel_object.obj_type == FXT_OBJ_THREAD) {
        int found = 0;
        for (unsigned i = 0; i < rec->nargs; i++) {
            const fxt_arg_t *a = &rec->args[i];
            found |= a->type == FXT_ARG_KOID && a->name.ptr && a->name.len == 7 &&
                     memcmp(a->name.ptr, "process", 7) == 0;
        }
        if (!found) {
            rreport(c, R_THREAD_NO_PROCESS, rec->offset, fxt_record_kind_name(rec->kind),
                    "thread %" PRIu64 " has no koid 'process' argument: viewers cannot place it",
                    rec->u.kernel_object.koid);
        }
    }
}

/* A log record: its thread and message. */
static void check_log(crange_t *c, const fxt_record_t *rec, uint64_t h) {
    reserved(c, rec, h, FXT_MASK(log_bit31) | FXT_MASK(log_reserved), "log header");
    check_thread(c, rec, &rec->u.log.thread, "thread");
    if (rec->u.log.message.len > FXT_MAX_STRING_LEN) {
        rreport(c, R_STRING_TOO_LONG, rec->offset, fxt_record_kind_name(rec->kind), "message of %u bytes",
                (unsigned)rec->u.log.message.len);
    }
    if (!cli_utf8_valid(rec->u.log.message.ptr, rec->u.log.message.len)) {
        rreport(c, R_INVALID_UTF8, rec->offset, fxt_record_kind_name(rec->kind),
                "message is not valid UTF-8");
    }
}

/* A large blob: both header words, and what its format carries. */
static void check_large_blob(crange_t *c, const fxt_record_t *rec, uint64_t h) {
    reserved(c, rec, h, FXT_MASK(large_blob_reserved), "large record header");
    /* The large blob's second word is its format header, whose reserved bits depend on the format. */
    uint64_t fh = fxt_record_word(rec, rec->bytes, 1);
    reserved(c, rec, fh,
             rec->u.large_blob.format == 0 ? FXT_MASK(lblob0_reserved) : FXT_MASK(lblob1_reserved),
             "large blob format header");
    check_str(c, rec, &rec->u.large_blob.category, "category");
    check_str(c, rec, &rec->u.large_blob.name, "name");
    /* Only format 0 ("with metadata") has a thread and arguments (spec: Large BLOB records). */
    if (rec->u.large_blob.format == 0) {
        check_thread(c, rec, &rec->u.large_blob.thread, "thread");
        check_args(c, rec);
    }
}

/* A record type or subtype this spec revision does not define. */
static void check_unknown(crange_t *c, const fxt_record_t *rec) {
    if (rec->u.unknown.has_subtype) {
        rreport(c, R_UNKNOWN_RECORD, rec->offset, fxt_record_kind_name(rec->kind),
                "record type %u with unknown subtype %u (%" PRIu64 " words)", (unsigned)rec->u.unknown.type,
                (unsigned)rec->u.unknown.subtype, rec->u.unknown.size_words);
    } else {
        rreport(c, R_UNKNOWN_RECORD, rec->offset, fxt_record_kind_name(rec->kind),
                "unknown record type %u (%" PRIu64 " words)", (unsigned)rec->u.unknown.type,
                rec->u.unknown.size_words);
    }
}

/* Forgets what the event path cached from the state REC changes (every kind is named: a new
 * one must say whether it changes the strings, threads or tick rate events are read with). */
static void forget_cached(crange_t *c, const fxt_record_t *rec) {
    switch (rec->kind) {
    case FXT_KIND_STRING: {
        unsigned x = rec->u.string.index & 0x7fffu;
        if (c->hused[x / 64] >> (x % 64) & 1) {
            hcache_clear(c); /* a kept pair's string changes */
        }
        break;
    }
    case FXT_KIND_THREAD:
        c->tref[rec->u.thread.index].gen = 0;
        break;
    case FXT_KIND_MAGIC:
    case FXT_KIND_PROVIDER_INFO:
    case FXT_KIND_PROVIDER_SECTION:
    case FXT_KIND_PROVIDER_EVENT:
    case FXT_KIND_TRACE_INFO:
    case FXT_KIND_INIT:
    case FXT_KIND_UNKNOWN:
        hcache_clear(c);
        break;
    case FXT_KIND_EVENT:
    case FXT_KIND_BLOB:
    case FXT_KIND_USERSPACE_OBJECT:
    case FXT_KIND_KERNEL_OBJECT:
    case FXT_KIND_CONTEXT_SWITCH:
    case FXT_KIND_THREAD_WAKEUP:
    case FXT_KIND_LEGACY_CONTEXT_SWITCH:
    case FXT_KIND_LOG:
    case FXT_KIND_LARGE_BLOB:
        break;
    }
}

/* spec-notes: the magic record should come first but its absence is not invalid, hence a warning. */
static void check_first(crange_t *c, const fxt_record_t *rec) {
    if (!c->seen_first) {
        c->seen_first = 1;
        if (rec->kind != FXT_KIND_MAGIC) {
            rreport(c, R_MAGIC_FIRST, rec->offset, fxt_record_kind_name(rec->kind),
                    "the first record is not the magic number record");
        }
    }
}

/* The records other than events (and the first record): reserved bits of each layout, strings,
 * threads, arguments. Out of line, so their registers do not weigh on the events' path. */
CLI_NOINLINE int on_other_record(crange_t *c, fxt_reader_t *r, const fxt_record_t *rec) {
    uint64_t h = rec->header;
    forget_cached(c, rec);
    check_first(c, rec);
    switch (rec->kind) {
    case FXT_KIND_MAGIC:
        if (h != FXT_MAGIC_RECORD) {
            rreport(c, R_BAD_MAGIC, rec->offset, fxt_record_kind_name(rec->kind), "header 0x%016" PRIx64, h);
        }
        break;
    case FXT_KIND_PROVIDER_INFO:
        reserved(c, rec, h, FXT_MASK(meta_info_reserved), "provider info header");
        if (!cli_utf8_valid(rec->u.provider_info.name.ptr, rec->u.provider_info.name.len)) {
            rreport(c, R_INVALID_UTF8, rec->offset, fxt_record_kind_name(rec->kind),
                    "provider name is not valid UTF-8");
        }
        break;
    case FXT_KIND_PROVIDER_SECTION:
        reserved(c, rec, h, FXT_MASK(meta_section_reserved), "provider section header");
        break;
    case FXT_KIND_PROVIDER_EVENT:
        check_provider_event(c, rec, h);
        break;
    case FXT_KIND_INIT:
        reserved(c, rec, h, FXT_MASK(init_reserved), "initialization header");
        if (rec->u.init.ticks_per_second == 0) {
            rreport(c, R_INIT_ZERO, rec->offset, fxt_record_kind_name(rec->kind),
                    "0 ticks per second: timestamps cannot be converted");
        }
        break;
    case FXT_KIND_STRING:
        check_string_record(c, rec, h);
        break;
    case FXT_KIND_THREAD:
        reserved(c, rec, h, FXT_MASK(thread_reserved), "thread header");
        if (rec->u.thread.index == 0) {
            rreport(c, R_INDEX_ZERO, rec->offset, fxt_record_kind_name(rec->kind),
                    "thread record for index 0");
        }
        break;
    case FXT_KIND_EVENT:
        check_event(c, r, rec);
        break;
    case FXT_KIND_BLOB:
        reserved(c, rec, h, FXT_MASK(blob_bit47) | FXT_MASK(blob_reserved), "blob header");
        check_str(c, rec, &rec->u.blob.name, "name");
        break;
    case FXT_KIND_USERSPACE_OBJECT:
        reserved(c, rec, h, FXT_MASK(uobj_reserved), "userspace object header");
        check_thread(c, rec, &rec->u.userspace_object.process, "process");
        check_str(c, rec, &rec->u.userspace_object.name, "name");
        check_args(c, rec);
        break;
    case FXT_KIND_KERNEL_OBJECT:
        check_kernel_object(c, rec, h);
        break;
    case FXT_KIND_CONTEXT_SWITCH:
        reserved(c, rec, h, FXT_MASK(cswitch_reserved), "context switch header");
        check_args(c, rec);
        break;
    case FXT_KIND_THREAD_WAKEUP:
        reserved(c, rec, h, FXT_MASK(wakeup_reserved), "thread wakeup header");
        check_args(c, rec);
        break;
    case FXT_KIND_LEGACY_CONTEXT_SWITCH:
        check_thread(c, rec, &rec->u.legacy_context_switch.out, "outgoing thread");
        check_thread(c, rec, &rec->u.legacy_context_switch.in, "incoming thread");
        break;
    case FXT_KIND_LOG:
        check_log(c, rec, h);
        break;
    case FXT_KIND_LARGE_BLOB:
        check_large_blob(c, rec, h);
        break;
    case FXT_KIND_UNKNOWN:
        check_unknown(c, rec);
        break;
    case FXT_KIND_TRACE_INFO:
        break; /* any info type and data are valid */
    }
    return 0;
}

/* Per-record checks: events (most records) first. */
static int on_record(void *ctx, fxt_reader_t *r, const fxt_record_t *rec) {
    crange_t *c = ctx;
    c->records++;
    if (rec->kind == FXT_KIND_EVENT && c->seen_first) {
        check_event(c, r, rec);
        return 0;
    }
    return on_other_record(c, r, rec);
}

/* Maps the reader's status to a rule; anything not framing or a limit is a damaged record. */
static void on_error(void *ctx, fxt_reader_t *r, const fxt_diag_t *d) {
    crange_t *c = ctx;
    (void)r;
    hcache_clear(c);
    int rule = d->status == FXT_E_BAD_RECORD_SIZE ? R_SIZE_ZERO
               : d->status == FXT_E_TRUNCATED     ? R_TRUNCATED
               : d->status == FXT_E_LIMIT         ? R_TOO_LARGE
                                                  : R_DAMAGED;
    /* A trace whose first record is unreadable has not started with the magic record either. */
    if (!c->seen_first) {
        c->seen_first = 1;
        rreport(c, R_MAGIC_FIRST, d->offset, "error", "the first record is not the magic number record");
    }
    rreport(c, rule, d->offset, "error", "%s", d->msg);
}

/* At the end of input, an id's waiting events are judged for good (a disputed id's paired from
 * scratch in time order), then its open chains are never ended. */
static void finish_chain(cctx_t *c, chain_t *ch) {
    if (ch->disputed) {
        chain_settle(c, ch, ch->n);
    }
    while (ch->n > 0) {
        chain_ev_t e = chain_pop(c, ch);
        chain_judge(c, ch, &e, 1, 0);
    }
    for (uint32_t k = 0; k < ch->nopen && !(ch->disputed & 2); k++) {
        int flow = ch->kind == 2;
        report(c, flow ? R_FLOW_NEVER_ENDED : R_ASYNC_NEVER_ENDED, EV_OFFSET(chain_opened(ch)[k]), "event",
               "%s id %" PRIu64 " begun here is never ended", flow ? "flow" : "async", ch->id);
    }
}

static int cmp_chain_order(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* At the end of input: report durations, asyncs and flows that were begun and never ended. */
static void finish_open(cctx_t *c) {
    for (size_t i = 0; i < c->threads.count; i++) {
        const char *key;
        thread_state_t *t = cli_map_at(&c->threads, i, &key, NULL);
        uint64_t k[3];
        memcpy(k, key, sizeof k);
        for (uint32_t d = t->depth; d > 0; d--) {
            /* Begins past MAX_DEPTH kept no offset: reported at 0. */
            uint64_t off = d - 1 < MAX_DEPTH ? t->begin_off[d - 1] : 0;
            report(c, R_DURATION_UNCLOSED, off, "event",
                   "duration begin on thread %" PRIu64 "/%" PRIu64 " is never ended", k[1], k[2]);
        }
    }
    /* The ids still open or waiting, in the order of their first event in the file (the table's
     * order depends on its history), each judged in time order: its waiting events for good, then
     * its open chains never ended. */
    chain_tab_t *t = &c->chains;
    struct chain_order {
        uint64_t offset;
        chain_t *ch;
    } *order = t->count ? malloc(t->count * sizeof *order) : NULL;
    size_t n = 0;
    for (size_t i = 0; t->slot != NULL && i <= t->mask; i++) {
        chain_t *ch = &t->slot[i];
        if (ch->kind == 0) {
            continue;
        }
        if (order == NULL) {
            finish_chain(c, ch); /* out of memory: in the table's order */
            continue;
        }
        uint64_t off = UINT64_MAX;
        for (uint32_t k = 0; k < ch->nopen; k++) {
            off = EV_OFFSET(chain_opened(ch)[k]) < off ? EV_OFFSET(chain_opened(ch)[k]) : off;
        }
        off = ch->n > 0 && EV_OFFSET(chain_waiting(ch)[0]) < off ? EV_OFFSET(chain_waiting(ch)[0]) : off;
        for (uint32_t k = 1; k < ch->n; k++) {
            off = EV_OFFSET(chain_waiting(ch)[k]) < off ? EV_OFFSET(chain_waiting(ch)[k]) : off;
        }
        order[n++] = (struct chain_order){off, ch};
    }
    if (order != NULL) {
        qsort(order, n, sizeof *order, cmp_chain_order);
        for (size_t i = 0; i < n; i++) {
            finish_chain(c, order[i].ch);
        }
        free(order);
    }
}

/* Frees the chains' table and cache. */
static void free_chains(cctx_t *c) {
    chain_tab_t *t = &c->chains;
    for (size_t i = 0; t->slot != NULL && i <= t->mask; i++) {
        if (t->slot[i].cap > CHAIN_INLINE) {
            free(t->slot[i].heap);
        }
        if (t->slot[i].ocap > 1) {
            free(t->slot[i].oheap);
        }
    }
    free(t->slot);
    free(c->closed);
    free(c->ctag);
    free(c->cspan);
}

/* ---- ranges (-j N) -------------------------------------------------------------------- */

/* Ranges are at most this many input bytes, which bounds a range's items (docs/check.md). */
#define CHECK_MAX_RANGE (UINT64_C(4) << 20)

static void *range_new(void *ctx, size_t index) {
    cctx_t *c = ctx;
    crange_t *g = NULL;
    /* States of merged ranges are reused: their item arrays are already grown (no page faults). */
    pthread_mutex_lock(&c->mu);
    if (c->npool) {
        g = c->pool[--c->npool];
    }
    pthread_mutex_unlock(&c->mu);
    if (g == NULL) {
        g = calloc(1, sizeof *g);
        if (g == NULL) {
            return NULL;
        }
    } else {
        cli_map_free(&g->threads);
    }
    cli_map_init(&g->threads, sizeof(size_t));
    memset(g->tcache, 0, sizeof g->tcache);
    g->run = c;
    g->direct = index == 0;
    g->oom = 0;
    g->records = 0;
    /* Only the first record of the input can miss the magic record. */
    g->seen_first = index != 0;
    memset(g->count, 0, sizeof g->count);
    g->n = 0;
    g->tlen = 0;
    hcache_clear(g); /* a reused state's hashes were of another range's strings */
    return g;
}

/* Back to the pool (or freed when it is full). */
static void range_release(cctx_t *c, crange_t *g) {
    pthread_mutex_lock(&c->mu);
    if (c->npool < CHECK_POOL) {
        c->pool[c->npool++] = g;
        g = NULL;
    }
    pthread_mutex_unlock(&c->mu);
    if (g != NULL) {
        cli_map_free(&g->threads);
        free(g->items);
        free(g->text);
        free(g);
    }
}

/* Not merged after a failure (a read error on standard input, out of memory): range 0 still
 * counts the records it checked, as a sequential read did; the summary shows them. */
static void range_free(void *ctx, void *range) {
    cctx_t *c = ctx;
    crange_t *g = range;
    if (g->direct) {
        c->records += g->records;
        c->seen_first |= g->seen_first;
    }
    range_release(c, g);
}

/* Prints the range's reports and runs its events' checks on the run's state, in record order. */
static int range_merge(void *ctx, void *range) {
    cctx_t *c = ctx;
    crange_t *g = range;
    int rc = g->oom ? CLI_EXIT_LIMIT : 0;
    c->records += g->records;
    c->seen_first |= g->seen_first;
    for (size_t i = 0; i < g->n && rc == 0; i++) {
        const item_t *it = &g->items[i];
        if (it->what == IT_EVENT) {
            /* The run's thread: looked up once per range, created at its first event as in a
             * sequential read (the map's order is the order of the end-of-trace reports). */
            const char *k;
            size_t *run_ix = cli_map_at(&g->threads, it->ref, &k, NULL);
            thread_state_t *t = NULL;
            if (*run_ix != 0) {
                t = cli_map_at(&c->threads, *run_ix - 1, NULL, NULL);
            } else if ((t = cli_map_get_ix(&c->threads, k, sizeof t->key, 1, run_ix)) != NULL) {
                ++*run_ix;
                memcpy(t->key, k, sizeof t->key);
            }
            /* Out of memory: skip the per-thread checks rather than fail the whole check. */
            if (t != NULL) {
                event_state(c, t, it);
            }
        } else if (it->what == IT_LOSSY) {
            cli_map_get_u64(&c->lossy, 1, it->ref, 1);
        } else if (counted(c, it->type)) {
            char msg[512];
            memcpy(msg, g->text + it->u.rep.text, it->ref);
            msg[it->ref] = 0;
            print_report(c, it->type, it->offset, it->u.rep.kind, msg);
        }
    }
    /* The reports past max_per_rule in the range, not kept: they only count. */
    for (int k = 0; k < R_COUNT && c->max_per_rule; k++) {
        c->count[k] += g->count[k] > c->max_per_rule ? g->count[k] - c->max_per_rule : 0;
    }
    range_release(c, g);
    return rc;
}

static const cli_par_ops_t check_ops = {range_new, on_record, on_error, range_merge, range_free};

/* ---- command ------------------------------------------------------------------------ */

typedef struct check_config {
    const char *in;
    int json, strict, rules;
    uint64_t max_per_rule;
    unsigned jobs;
} check_config_t;

/* 100 reports per rule by default, so a fault repeated on every record does not flood the output. */
static const check_config_t check_defaults = {NULL, 0, 0, 0, 100, 0};

static const cli_opt_t check_opts[] = {
    CLI_FLAG(check_config_t, json, "json", 0,
             "JSON Lines: one object per violation {offset, kind, rule, severity, message}, "
             "then {\"summary\": ...}"),
    CLI_FLAG(check_config_t, strict, "strict", 0, "warnings also make the trace invalid (exit 1)"),
    CLI_UINT(check_config_t, max_per_rule, uint64_t, "max-per-rule", 0, 0, "N",
             "print at most N reports per rule (default 100, 0 = all); the summary always counts them all"),
    CLI_FLAG(check_config_t, rules, "rules", 0, "list the rules and exit"),
    CLI_PAR_JOBS_OPT(check_config_t, jobs),
};

static const cli_spec_t check_spec = {
    "check",
    check_opts,
    sizeof check_opts / sizeof check_opts[0],
    &check_defaults,
    sizeof(check_config_t),
    "IN",
    offsetof(check_config_t, in),
    0,
    0,
    1,
};

static void check_list_rules(void) {
    for (int k = 0; k < R_COUNT; k++) {
        printf("%-18s %-7s %s\n", rules[k].id, rules[k].sev == SEV_ERROR ? "error" : "warning",
               rules[k].what);
    }
}

/* The summary line (text) or object (--json) after the reports. */
static void check_summary(const cctx_t *c, uint64_t bytes, uint64_t errors, uint64_t warnings) {
    int first = 1;
    if (c->json) {
        printf("{\"summary\":{\"bytes\":%" PRIu64 ",\"records\":%" PRIu64 ",\"errors\":%" PRIu64
               ",\"warnings\":%" PRIu64 ",\"rules\":{",
               bytes, c->records, errors, warnings);
        for (int k = 0; k < R_COUNT; k++) {
            if (c->count[k]) {
                printf("%s\"%s\":%" PRIu64, first ? "" : ",", rules[k].id, c->count[k]);
                first = 0;
            }
        }
        printf("},\"valid\":%s}}\n", (errors || (c->strict && warnings)) ? "false" : "true");
        return;
    }
    printf("fxt check: %" PRIu64 " records, %" PRIu64 " bytes: %" PRIu64 " error%s, %" PRIu64 " warning%s",
           c->records, bytes, errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
    for (int k = 0; k < R_COUNT; k++) {
        if (c->count[k]) {
            printf("%s%s x%" PRIu64, first ? " (" : ", ", rules[k].id, c->count[k]);
            first = 0;
        }
    }
    printf("%s\n", first ? "" : ")");
}

/* Reads the whole trace, reports as it goes, then the end-of-trace checks and the summary. */
static int check_run(void *config) {
    const check_config_t *cfg = config;
    if (cfg->rules) {
        check_list_rules();
        return CLI_EXIT_OK;
    }
    /* stdout appended to the input (`>> IN`) would change the trace while it is read */
    int orc = cli_output_check("check", NULL, &cfg->in, 1);
    if (orc != 0) {
        return orc;
    }
    static cctx_t c; /* large (per-rule counters, maps): static, reset for in-process reruns */
    memset(&c, 0, sizeof c);
    c.json = cfg->json;
    c.strict = cfg->strict;
    c.max_per_rule = cfg->max_per_rule;
    /* tests: a small reorder pool */
    const char *pool = getenv("FXT_CHECK_POOL");
    c.pool_max = pool != NULL && strtoull(pool, NULL, 10) > 0 ? (size_t)strtoull(pool, NULL, 10) : CHAIN_POOL;
    pthread_mutex_init(&c.mu, NULL);
    static char obuf[1 << 16];
    /* Fully buffered: a damaged trace can produce one report per record. */
    setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
    cli_map_init(&c.threads, sizeof(thread_state_t));
    /* lossy is a set: the value size is a placeholder. */
    cli_map_init(&c.lossy, 1);
    uint64_t bytes = 0;
    unsigned jobs = cfg->jobs ? cfg->jobs : cli_par_default_jobs();
    int rc = cli_read_parallel_max("check", cfg->in, NULL, jobs, 0, CHECK_MAX_RANGE, &check_ops, &c, &bytes);
    /* After a fatal read error the stream is incomplete: "never ended" would be noise. */
    if (rc == 0) {
        if (!c.seen_first) {
            report(&c, R_MAGIC_FIRST, 0, "magic", "the trace is empty");
        }
        finish_open(&c);
        if (c.pool_full) {
            const char *note =
                "the reorder pool of async and flow events filled up: some chains of ids reused "
                "across threads were judged before the whole trace was read, so a *-no-begin or "
                "*-id-reused report may be false (docs/check.md#chain-ids)";
            if (c.json) {
                fputs("{\"note\":", stdout);
                cli_json_str(stdout, note, strlen(note));
                fputs("}\n", stdout);
            } else {
                printf("fxt check: note: %s\n", note);
            }
        }
    }
    /* tests: the chain table keeps only open chains (docs/check.md) */
    if (getenv("FXT_CHECK_STATS") != NULL) {
        fprintf(stderr, "fxt check: peak open chains %zu, peak pool %zu\n", c.chains.peak, c.pool_peak);
    }
    uint64_t errors = 0, warnings = 0;
    for (int k = 0; k < R_COUNT; k++) {
        *(rules[k].sev == SEV_ERROR ? &errors : &warnings) += c.count[k];
    }
    check_summary(&c, bytes, errors, warnings);
    /* An output error only replaces success: an earlier read error's status is more useful. */
    if (rc == 0) {
        rc = cli_stdout_finish("check", 0);
    }
    cli_map_free(&c.threads);
    free_chains(&c);
    cli_map_free(&c.lossy);
    while (c.npool) {
        crange_t *g = c.pool[--c.npool];
        cli_map_free(&g->threads);
        free(g->items);
        free(g->text);
        free(g);
    }
    pthread_mutex_destroy(&c.mu);
    if (rc != 0) {
        return rc;
    }
    /* Warnings only fail the trace under --strict (docs/check.md). */
    return (errors || (c.strict && warnings)) ? CLI_EXIT_DATA : CLI_EXIT_OK;
}

const cli_command_t cli_cmd_check = {
    "check",
    check_run,
    NULL,
    "validate a trace against the spec",
    "fxt check [--json] [--strict] [--max-per-rule N] [--rules] [-j N] [IN]",
    "Validate an FXT trace against the spec. Every violation is reported with its\n"
    "byte offset, record kind, a stable rule id, a severity and a message; a\n"
    "summary counts violations by rule. IN defaults to standard input.\n",
    &check_spec,
    "exit status: 0 valid (no errors; warnings allowed unless --strict),\n"
    "1 violations, 2 usage error, 3 I/O error, 4 out of memory or an internal limit\n",
};
