/* SPDX-License-Identifier: MIT */
/*
 * libfxt instrumentation: trace macros for C and C++ programs.
 *
 *     #include <fxt/trace.h>
 *
 *     void work(int n) {
 *         FXT_DURATION("app", "work");                        // scoped: a duration complete event
 *         FXT_INSTANT("app", "tick", FXT_I32("n", n), FXT_STR("who", "me"));
 *         FXT_COUNTER("app", "queue", 1, FXT_I64("depth", n)); // name, counter id, values
 *         FXT_DURATION_BEGIN("io", "read");
 *         ...
 *         FXT_DURATION_END("io", "read");
 *     }
 *
 *     int main(void) {
 *         fxt_session_config_t cfg = FXT_SESSION_CONFIG_INIT;
 *         cfg.output_path = "trace.fxt";
 *         cfg.categories = "app,io*";
 *         fxt_session_start(&cfg);             // or FXT_TRACE_OUTPUT=... in the environment
 *         work(3);
 *         fxt_session_stop();                  // writes / flushes the trace
 *     }
 *
 * A disabled category costs one load and one predictable branch; the macro's
 * arguments are not evaluated. Define FXT_NO_TRACE to compile every macro out.
 * A category must be a string literal (a runtime one does not compile). Names may
 * be literals (interned by address) or runtime strings (taken by content; see
 * FXT__IS_LIT below and docs/trace.md).
 */
#ifndef FXT_TRACE_H
#define FXT_TRACE_H

#include <fxt/common.h>
#include <fxt/writer.h>

#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- sessions -------------------------------------------------------------------- */

typedef enum fxt_buffer_mode {
    FXT_MODE_ONESHOT = 0,  /* fill the buffer, then drop (and count) */
    FXT_MODE_CIRCULAR = 1, /* keep the newest data (flight recorder) */
    FXT_MODE_STREAMING = 2 /* a background thread writes full chunks while tracing goes on */
} fxt_buffer_mode;

typedef enum fxt_clock_kind {
    FXT_CLOCK_AUTO = 0,      /* TSC when invariant (x86-64), else CLOCK_MONOTONIC */
    FXT_CLOCK_MONOTONIC = 1, /* clock_gettime(CLOCK_MONOTONIC), 1 tick = 1 ns */
    FXT_CLOCK_TSC = 2        /* rdtsc, calibrated against CLOCK_MONOTONIC at start */
} fxt_clock_kind;

typedef struct fxt_session_config {
    uint32_t struct_size;
    const char *output_path; /* trace file; ".gz"/".zst" need a sink from libfxt_zio */
    fxt_sink_t sink;         /* used when output_path is NULL */
    const char *categories;  /* "gfx,net*,io"; NULL, "" or "*" enables all */
    fxt_buffer_mode mode;
    size_t buffer_size; /* total buffer bytes (default 32 MiB) */
    fxt_clock_kind clock;
    const char *provider_name; /* default: the program's name */
} fxt_session_config_t;
#define FXT_SESSION_CONFIG_INIT                                                                              \
    { sizeof(fxt_session_config_t), NULL, {NULL, NULL}, NULL, FXT_MODE_ONESHOT, 0, FXT_CLOCK_AUTO, NULL }

/** Start tracing. FXT_E_STATE if a session is running. */
FXT_API fxt_status fxt_session_start(const fxt_session_config_t *cfg);
/**
 * Start from the environment: FXT_TRACE_OUTPUT (path; required), FXT_TRACE_CATEGORIES,
 * FXT_TRACE_MODE (oneshot|circular|streaming), FXT_TRACE_BUFFER_SIZE (bytes, k/M/G
 * suffixes), FXT_TRACE_CLOCK (auto|monotonic|tsc), FXT_PROCESS_NAME. FXT_E_NOT_FOUND
 * when FXT_TRACE_OUTPUT is unset. The session is stopped at exit. Threads tracing while
 * it runs wait for it (docs/trace.md, "What is guaranteed").
 */
FXT_API fxt_status fxt_session_start_from_env(void);
/** Stop: write the buffers out (oneshot, circular) or flush (streaming), close the output. */
FXT_API fxt_status fxt_session_stop(void);
/** 1 while a session runs. */
FXT_API int fxt_session_active(void);
/**
 * For a program's own handler of a fatal signal (SIGSEGV, SIGTERM, ...), async-signal-safe:
 * write what the standalone session has committed to the file it opened (FXT_TRACE_OUTPUT or
 * cfg.output_path), ending with an instant fxt/provider_killed {signal: sig}, and end the
 * session (later events are not recorded). Where the program left a signal's default
 * action, the engine does this itself (docs/trace.md, "What is guaranteed"). FXT_OK when
 * the trace is written whole (by this call, another thread's or a stop), FXT_E_STATE when
 * there is nothing to write here (no session, a custom sink, or under fxt record).
 */
FXT_API fxt_status fxt_session_flush_on_crash(int sig);

typedef struct fxt_session_stats {
    uint64_t records;     /* records written into buffers */
    uint64_t dropped;     /* records dropped because the buffer was full (oneshot, streaming) */
    uint64_t overwritten; /* chunks of old records replaced (circular) */
    uint64_t bytes;       /* bytes written to the output */
    uint64_t threads;
    uint64_t ticks_per_second;
} fxt_session_stats_t;
/** Statistics of the running session, or of the last one after stop. */
FXT_API void fxt_session_get_stats(fxt_session_stats_t *out);

/** 1 when `category` is enabled in the running session (guard expensive argument preparation). */
FXT_API int fxt_category_enabled(const char *category);
/** The session clock, in ticks (see fxt_session_stats_t.ticks_per_second). */
FXT_API uint64_t fxt_ticks(void);
/** Name the calling thread in the trace (default: its pthread name). */
FXT_API void fxt_set_thread_name(const char *name);
/**
 * Name this process in the trace (default: FXT_PROCESS_NAME from the environment, else
 * the program's name): a kernel object record for the process koid. At any time; the
 * last name wins. FXT_E_INVALID_ARG for NULL, "" or more than 255 bytes.
 */
FXT_API fxt_status fxt_set_process_name(const char *name);
/**
 * An id for FXT_FLOW_* and FXT_ASYNC_* events that no other process of the recording
 * uses: the pid (bits 40-63) and a per-process counter (bits 0-39, from 1). Never 0;
 * lock-free, no system call (the pid is cached, refreshed in a fork child).
 */
FXT_API uint64_t fxt_unique_id(void);
/**
 * Raise an alert (docs/manager.md#triggers): an instant event alert/NAME in the trace,
 * recorded whatever --categories says, and under `fxt record` a wake-up of the manager
 * (one non-blocking message), which saves a snapshot or stops the recording when a
 * `--trigger NAME` asks for it. Standalone it is only the instant. Ordinary events are
 * unchanged: only the alert costs a system call. Starts the session from the environment
 * like a trace macro. FXT_E_INVALID_ARG for NULL, "" or a name over 63 bytes; FXT_E_STATE
 * when no session records (nothing written).
 */
FXT_API fxt_status fxt_alert(const char *name);

/* ---- argument helpers -------------------------------------------------------------- */

/*
 * One argument of a trace macro: a compact, internal form of fxt_arg_t that
 * the engine reads in place. Every member is set explicitly and there is no
 * padding, so compilers build each argument with four stores; an array of
 * fxt_arg_t (56 bytes, mostly zero) was cleared with `rep stos` before every
 * event, a third of an instant's cost.
 */
typedef struct fxt__targ {
    const char *name;
    const char *str;   /* FXT_ARG_STRING: the value (copied into the record) */
    uint64_t bits;     /* the value: (u)int32 zero-extended, int64/uint64/pointer/koid, a double's
                          bits, bool 0/1; FXT_ARG_STRING: the value's length */
    uint32_t name_len; /* strlen(name), folded at the call site for a literal */
    uint16_t type;     /* enum fxt_arg_type */
    uint16_t flags;    /* FXT__DYN: the name is not a string literal (written inline) */
} fxt__targ_t;

/*
 * Literal or runtime string: strlen of a literal folds to a constant, of
 * anything else (a buffer that may be rewritten) it does not. Runtime names
 * cannot be interned by address: the engine interns event names by content
 * and writes argument names inline. The test is exact for literals with gcc
 * and clang at every -O level; a `static const char[]` may count as either.
 */
#define FXT__IS_LIT(s) __builtin_constant_p(__builtin_strlen(s))
#define FXT__DYN 1u
#define FXT__NAME_DYN 0x80000000u /* in a name length: the name is not a literal */
#define FXT__FLAGS(nm) ((uint16_t)(FXT__IS_LIT(nm) ? 0u : FXT__DYN))
/* An event name's length for the engine, with FXT__NAME_DYN for runtime names. */
#define FXT__NAME_LEN(nm) (fxt__strlen0(nm) | (FXT__IS_LIT(nm) ? 0u : FXT__NAME_DYN))

/* Forced inline: only once inlined into the call site does strlen("name") fold to a constant
 * (gcc -O2 left such helpers as calls, which ran strlen on every name of every event). */
#define FXT__ARG_INLINE static inline __attribute__((always_inline))
FXT__ARG_INLINE uint32_t fxt__strlen0(const char *s) { return s != NULL ? (uint32_t)strlen(s) : 0u; }
FXT__ARG_INLINE uint64_t fxt__f64_bits(double v) {
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}
FXT__ARG_INLINE fxt__targ_t fxt__targ_make(unsigned type, const char *name, uint16_t flags, uint64_t bits,
                                           const char *str) {
    fxt__targ_t a = {name, str, bits, fxt__strlen0(name), (uint16_t)type, flags};
    return a;
}

#define FXT__ARG_(t, nm, bits_) fxt__targ_make((t), (nm), FXT__FLAGS(nm), (bits_), NULL)
#define FXT_NULL(n_) FXT__ARG_(FXT_ARG_NULL, (n_), 0u)
#define FXT_I32(n_, v_) FXT__ARG_(FXT_ARG_INT32, (n_), (uint64_t)(uint32_t)(int32_t)(v_))
#define FXT_U32(n_, v_) FXT__ARG_(FXT_ARG_UINT32, (n_), (uint64_t)(uint32_t)(v_))
#define FXT_I64(n_, v_) FXT__ARG_(FXT_ARG_INT64, (n_), (uint64_t)(int64_t)(v_))
#define FXT_U64(n_, v_) FXT__ARG_(FXT_ARG_UINT64, (n_), (uint64_t)(v_))
#define FXT_F64(n_, v_) FXT__ARG_(FXT_ARG_DOUBLE, (n_), fxt__f64_bits((double)(v_)))
#define FXT_PTR(n_, v_) FXT__ARG_(FXT_ARG_POINTER, (n_), (uint64_t)(uintptr_t)(v_))
#define FXT_KOID(n_, v_) FXT__ARG_(FXT_ARG_KOID, (n_), (uint64_t)(v_))
#define FXT_BOOL(n_, v_) FXT__ARG_(FXT_ARG_BOOL, (n_), (uint64_t)((v_) ? 1u : 0u))
/* the value is copied into the record */
#define FXT_STR(n_, s_) fxt__targ_str((n_), FXT__FLAGS(n_), (s_))
FXT__ARG_INLINE fxt__targ_t fxt__targ_str(const char *name, uint16_t flags, const char *v) {
    return fxt__targ_make(FXT_ARG_STRING, name, flags, fxt__strlen0(v), v);
}

/* ---- internals used by the macros ------------------------------------------------------ */

/* A call site: its category and cached enabled state for the current session generation. */
typedef struct fxt__site {
    const char *category;
    uint32_t state;        /* == fxt__gen_on: enabled; == fxt__gen_off: disabled; else recompute */
    uint32_t category_len; /* strlen(category), set by fxt__site_refresh(); 0 = not yet */
} fxt__site_t;

FXT_API extern uint32_t fxt__gen_on;
FXT_API extern uint32_t fxt__gen_off;
FXT_API int fxt__site_refresh(fxt__site_t *s);

static inline int fxt__site_on(fxt__site_t *s) {
    uint32_t st = __atomic_load_n(&s->state, __ATOMIC_RELAXED);
    if (__builtin_expect(st == __atomic_load_n(&fxt__gen_off, __ATOMIC_RELAXED), 1)) {
        return 0;
    }
    if (st == __atomic_load_n(&fxt__gen_on, __ATOMIC_RELAXED)) {
        return 1;
    }
    return fxt__site_refresh(s);
}

/* What the macros call: `nargs` arguments in an array (read in place, not copied);
 * name_len = FXT__NAME_LEN(name), computed at the call site where it folds for a literal. */
FXT_API void fxt__event_args_n(fxt__site_t *site, uint32_t type, const char *name, uint32_t name_len,
                               int has_id, uint64_t id, const fxt__targ_t *args, size_t nargs);
FXT_API void fxt__log(fxt__site_t *site, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
FXT_API void fxt__blob(fxt__site_t *site, const char *name, uint32_t name_len, const void *data, size_t size);

typedef struct fxt__scope {
    fxt__site_t *site; /* NULL when disabled at scope entry */
    const char *name;  /* read at scope exit */
    uint32_t name_len; /* FXT__NAME_LEN(name) */
    unsigned nargs;
    uint64_t start;
    fxt__targ_t args[FXT_MAX_ARGS]; /* copied at entry; only nargs are set */
} fxt__scope_t;

FXT_API void fxt__complete_args(fxt__site_t *site, const char *name, uint32_t name_len, uint64_t start,
                                const fxt__targ_t *args, size_t nargs);

/* Called by FXT_DURATION once its category is known to be enabled. */
static inline void fxt__scope_begin(fxt__scope_t *s, fxt__site_t *site, const char *name, uint32_t name_len,
                                    const fxt__targ_t *args, size_t nargs) {
    if (nargs > FXT_MAX_ARGS) {
        nargs = FXT_MAX_ARGS;
    }
    if (nargs > 0) {
        memcpy(s->args, args, nargs * sizeof *args);
    }
    s->nargs = (unsigned)nargs;
    s->name = name;
    s->name_len = name_len;
    s->site = site;
    s->start = fxt_ticks();
}

static inline void fxt__scope_end(fxt__scope_t *s) {
    if (s->site != NULL) {
        fxt__complete_args(s->site, s->name, s->name_len, s->start, s->args, s->nargs);
    }
}

#define FXT__CAT2(a, b) a##b
#define FXT__CAT(a, b) FXT__CAT2(a, b)
/* The category must be a string literal (`"" cat` does not compile otherwise):
 * a call site keeps its category for the whole run. */
#define FXT__SITE(cat) static fxt__site_t FXT__CAT(fxt__site_, __LINE__) = {"" cat, 0, 0}
#define FXT__S FXT__CAT(fxt__site_, __LINE__)

/* ---- the macros ------------------------------------------------------------------------- */

#ifndef FXT_NO_TRACE

/*
 * Zero or more arguments: FXT__HAS_ARGS(x, ...) is 0 when only x is given
 * (the event name, or a counter's id), 1 when arguments follow (up to 15),
 * and selects a macro variant by token pasting. Without arguments no array
 * is built; with some, the array holds exactly them. (An earlier form always
 * added a placeholder element so that an empty list stayed a valid
 * initializer: gcc then cleared the whole array with `rep stos`, several ns
 * per event.)
 */
#define FXT__HAS_ARGS(...) FXT__ARG17_(__VA_ARGS__, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, ~)
#define FXT__ARG17_(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, ...) a17
#define FXT__NARGS_ARRAY_(arr) (sizeof(arr) / sizeof((arr)[0]))
#define FXT__ARGV0(has_id, type, cat, name, id)                                                              \
    do {                                                                                                     \
        FXT__SITE(cat);                                                                                      \
        if (__builtin_expect(fxt__site_on(&FXT__S), 0)) {                                                    \
            fxt__event_args_n(&FXT__S, (type), (name), FXT__NAME_LEN(name), (has_id), (uint64_t)(id), NULL,  \
                              0);                                                                            \
        }                                                                                                    \
    } while (0)
#define FXT__ARGVN(has_id, type, cat, name, id, ...)                                                         \
    do {                                                                                                     \
        FXT__SITE(cat);                                                                                      \
        if (__builtin_expect(fxt__site_on(&FXT__S), 0)) {                                                    \
            const fxt__targ_t fxt__a_[] = {__VA_ARGS__};                                                     \
            fxt__event_args_n(&FXT__S, (type), (name), FXT__NAME_LEN(name), (has_id), (uint64_t)(id),        \
                              fxt__a_, FXT__NARGS_ARRAY_(fxt__a_));                                          \
        }                                                                                                    \
    } while (0)
/* FXT_INSTANT(cat, name, args...) and friends: `args` are FXT_I32(...) etc. (0 to 15). */
#define FXT__EV(type, cat, ...) FXT__CAT(FXT__EV_, FXT__HAS_ARGS(__VA_ARGS__))(type, cat, __VA_ARGS__)
#define FXT__EV_0(type, cat, name) FXT__ARGV0(0, type, cat, name, 0)
#define FXT__EV_1(type, cat, name, ...) FXT__ARGVN(0, type, cat, name, 0, __VA_ARGS__)
/* (cat, name, id, args...) */
#define FXT__EVID(type, cat, name, ...)                                                                      \
    FXT__CAT(FXT__EVID_, FXT__HAS_ARGS(__VA_ARGS__))(type, cat, name, __VA_ARGS__)
#define FXT__EVID_0(type, cat, name, id) FXT__ARGV0(1, type, cat, name, id)
#define FXT__EVID_1(type, cat, name, id, ...) FXT__ARGVN(1, type, cat, name, id, __VA_ARGS__)

/* FXT_ALERT(name): fxt_alert(name), its status ignored (compiled out by FXT_NO_TRACE). */
#define FXT_ALERT(name) ((void)fxt_alert(name))
#define FXT_INSTANT(cat, ...) FXT__EV(FXT_EVENT_INSTANT, cat, __VA_ARGS__)
#define FXT_DURATION_BEGIN(cat, ...) FXT__EV(FXT_EVENT_DURATION_BEGIN, cat, __VA_ARGS__)
#define FXT_DURATION_END(cat, ...) FXT__EV(FXT_EVENT_DURATION_END, cat, __VA_ARGS__)
/* FXT_COUNTER(cat, name, counter_id, values...) */
#define FXT_COUNTER(cat, name, ...) FXT__EVID(FXT_EVENT_COUNTER, cat, name, __VA_ARGS__)
/* FXT_ASYNC_*(cat, name, id, args...) and FXT_FLOW_*(cat, name, id, args...) */
#define FXT_ASYNC_BEGIN(cat, name, ...) FXT__EVID(FXT_EVENT_ASYNC_BEGIN, cat, name, __VA_ARGS__)
#define FXT_ASYNC_INSTANT(cat, name, ...) FXT__EVID(FXT_EVENT_ASYNC_INSTANT, cat, name, __VA_ARGS__)
#define FXT_ASYNC_END(cat, name, ...) FXT__EVID(FXT_EVENT_ASYNC_END, cat, name, __VA_ARGS__)
#define FXT_FLOW_BEGIN(cat, name, ...) FXT__EVID(FXT_EVENT_FLOW_BEGIN, cat, name, __VA_ARGS__)
#define FXT_FLOW_STEP(cat, name, ...) FXT__EVID(FXT_EVENT_FLOW_STEP, cat, name, __VA_ARGS__)
#define FXT_FLOW_END(cat, name, ...) FXT__EVID(FXT_EVENT_FLOW_END, cat, name, __VA_ARGS__)

/* FXT_LOG(cat, printf-format, args...): a log record (gated by cat). */
#define FXT_LOG(cat, ...)                                                                                    \
    do {                                                                                                     \
        FXT__SITE(cat);                                                                                      \
        if (__builtin_expect(fxt__site_on(&FXT__S), 0)) {                                                    \
            fxt__log(&FXT__S, __VA_ARGS__);                                                                  \
        }                                                                                                    \
    } while (0)

/* FXT_BLOB(cat, name, data, size) */
#define FXT_BLOB(cat, name, data, size)                                                                      \
    do {                                                                                                     \
        FXT__SITE(cat);                                                                                      \
        if (__builtin_expect(fxt__site_on(&FXT__S), 0)) {                                                    \
            fxt__blob(&FXT__S, (name), FXT__NAME_LEN(name), (data), (size));                                 \
        }                                                                                                    \
    } while (0)

/* FXT_DURATION(cat, name, args...): from here to the end of the scope, as one duration
 * complete event (C: cleanup attribute, C++: RAII). */
#ifdef __cplusplus
}
namespace fxt {
class Scope {
  public:
    Scope() {
        s_.site = nullptr;
        s_.nargs = 0;
    }
    ~Scope() { fxt__scope_end(&s_); }
    Scope(const Scope &) = delete;
    Scope &operator=(const Scope &) = delete;
    fxt__scope_t *get() { return &s_; }

  private:
    fxt__scope_t s_;
};
} // namespace fxt
extern "C" {
#define FXT__SCOPE_DECL(var) ::fxt::Scope var
#define FXT__SCOPE_PTR(var) ((var).get())
#else
#define FXT__SCOPE_DECL(var)                                                                                 \
    __attribute__((cleanup(fxt__scope_end), unused)) fxt__scope_t var;                                       \
    (var).site = NULL;                                                                                       \
    (var).nargs = 0
#define FXT__SCOPE_PTR(var) (&(var))
#endif
/* FXT_DURATION(cat, name, args...): declares a scope object (one per line);
 * the arguments are evaluated (and copied) only when the category is enabled. */
#define FXT_DURATION(cat, ...) FXT__CAT(FXT__DURATION_, FXT__HAS_ARGS(__VA_ARGS__))(cat, __VA_ARGS__)
#define FXT__DURATION_0(cat, name)                                                                           \
    FXT__SITE(cat);                                                                                          \
    FXT__SCOPE_DECL(FXT__CAT(fxt__scope_, __LINE__));                                                        \
    if (__builtin_expect(fxt__site_on(&FXT__S), 0)) {                                                        \
        fxt__scope_begin(FXT__SCOPE_PTR(FXT__CAT(fxt__scope_, __LINE__)), &FXT__S, (name),                   \
                         FXT__NAME_LEN(name), NULL, 0);                                                      \
    }                                                                                                        \
    do {                                                                                                     \
    } while (0)
#define FXT__DURATION_1(cat, name, ...)                                                                      \
    FXT__SITE(cat);                                                                                          \
    FXT__SCOPE_DECL(FXT__CAT(fxt__scope_, __LINE__));                                                        \
    if (__builtin_expect(fxt__site_on(&FXT__S), 0)) {                                                        \
        const fxt__targ_t fxt__a_[] = {__VA_ARGS__};                                                         \
        fxt__scope_begin(FXT__SCOPE_PTR(FXT__CAT(fxt__scope_, __LINE__)), &FXT__S, (name),                   \
                         FXT__NAME_LEN(name), fxt__a_, FXT__NARGS_ARRAY_(fxt__a_));                          \
    }                                                                                                        \
    do {                                                                                                     \
    } while (0)

/* 1 when `cat` is enabled; cached per call site like the macros (no lock). */
#define FXT_CATEGORY_ENABLED(cat)                                                                            \
    __extension__({                                                                                          \
        static fxt__site_t fxt__ce_ = {"" cat, 0, 0};                                                        \
        fxt__site_on(&fxt__ce_);                                                                             \
    })

#else /* FXT_NO_TRACE: nothing is compiled, arguments are not evaluated */

#define FXT_INSTANT(cat, ...)                                                                                \
    do {                                                                                                     \
    } while (0)
#define FXT_DURATION_BEGIN(cat, ...)                                                                         \
    do {                                                                                                     \
    } while (0)
#define FXT_DURATION_END(cat, ...)                                                                           \
    do {                                                                                                     \
    } while (0)
#define FXT_COUNTER(cat, ...)                                                                                \
    do {                                                                                                     \
    } while (0)
#define FXT_ASYNC_BEGIN(cat, ...)                                                                            \
    do {                                                                                                     \
    } while (0)
#define FXT_ASYNC_INSTANT(cat, ...)                                                                          \
    do {                                                                                                     \
    } while (0)
#define FXT_ASYNC_END(cat, ...)                                                                              \
    do {                                                                                                     \
    } while (0)
#define FXT_FLOW_BEGIN(cat, ...)                                                                             \
    do {                                                                                                     \
    } while (0)
#define FXT_FLOW_STEP(cat, ...)                                                                              \
    do {                                                                                                     \
    } while (0)
#define FXT_FLOW_END(cat, ...)                                                                               \
    do {                                                                                                     \
    } while (0)
#define FXT_LOG(cat, ...)                                                                                    \
    do {                                                                                                     \
    } while (0)
#define FXT_BLOB(cat, name, data, size)                                                                      \
    do {                                                                                                     \
    } while (0)
#define FXT_DURATION(cat, ...)                                                                               \
    do {                                                                                                     \
    } while (0)
#define FXT_ALERT(name)                                                                                      \
    do {                                                                                                     \
    } while (0)
#define FXT_CATEGORY_ENABLED(cat) 0

#endif /* FXT_NO_TRACE */

#ifdef __cplusplus
}
#endif

#endif /* FXT_TRACE_H */
