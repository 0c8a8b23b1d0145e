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
 * Category and event names must be string literals or strings that outlive the
 * session (they are interned by address).
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
 * suffixes), FXT_TRACE_CLOCK (auto|monotonic|tsc). FXT_E_NOT_FOUND when
 * FXT_TRACE_OUTPUT is unset. The session is stopped at exit.
 */
FXT_API fxt_status fxt_session_start_from_env(void);
/** Stop: write the buffers out (oneshot, circular) or flush (streaming), close the output. */
FXT_API fxt_status fxt_session_stop(void);
/** 1 while a session runs. */
FXT_API int fxt_session_active(void);

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

/* ---- argument helpers -------------------------------------------------------------- */

#ifndef __cplusplus
/*
 * C: each argument is a compound literal with designated members, which the
 * compiler builds in place in the macro's argument array. Through helper
 * functions returning the struct, gcc built a temporary with narrow stores
 * and copied it with 16-byte loads: two store-forwarding stalls per argument
 * (~7 ns each event and argument; an instant with 2 arguments cost 2.6x the
 * clock+stores floor). Union bytes a member does not cover are not read.
 */
#define FXT__ARG_(t, nm, ...)                                                                                \
    ((fxt_arg_t){                                                                                            \
        .type = (uint8_t)(t), .name = {(nm), fxt__strlen0(nm), 0, 0}, .str = {NULL, 0, 0, 0}, __VA_ARGS__})
#define FXT_NULL(n_) FXT__ARG_(FXT_ARG_NULL, (n_), .v = {.u64 = 0})
#define FXT_I32(n_, v_) FXT__ARG_(FXT_ARG_INT32, (n_), .v = {.i32 = (int32_t)(v_)})
#define FXT_U32(n_, v_) FXT__ARG_(FXT_ARG_UINT32, (n_), .v = {.u32 = (uint32_t)(v_)})
#define FXT_I64(n_, v_) FXT__ARG_(FXT_ARG_INT64, (n_), .v = {.i64 = (int64_t)(v_)})
#define FXT_U64(n_, v_) FXT__ARG_(FXT_ARG_UINT64, (n_), .v = {.u64 = (uint64_t)(v_)})
#define FXT_F64(n_, v_) FXT__ARG_(FXT_ARG_DOUBLE, (n_), .v = {.f64 = (double)(v_)})
/* the value is copied into the record */
#define FXT_STR(name, s) fxt__arg_str((name), (s))
#define FXT_PTR(n_, v_) FXT__ARG_(FXT_ARG_POINTER, (n_), .v = {.u64 = (uint64_t)(uintptr_t)(v_)})
#define FXT_KOID(n_, v_) FXT__ARG_(FXT_ARG_KOID, (n_), .v = {.u64 = (uint64_t)(v_)})
#define FXT_BOOL(n_, v_) FXT__ARG_(FXT_ARG_BOOL, (n_), .v = {.boolean = (v_) ? 1 : 0})
#else
/* C++ (no designated initializers before C++20): helpers, constructed in place (copy elision). */
#define FXT_NULL(name) fxt__arg_bits(FXT_ARG_NULL, (name), 0)
#define FXT_I32(name, v) fxt__arg_i32((name), (int32_t)(v))
#define FXT_U32(name, v) fxt__arg_u32((name), (uint32_t)(v))
#define FXT_I64(name, v) fxt__arg_bits(FXT_ARG_INT64, (name), (uint64_t)(int64_t)(v))
#define FXT_U64(name, v) fxt__arg_bits(FXT_ARG_UINT64, (name), (uint64_t)(v))
#define FXT_F64(name, v) fxt__arg_f64((name), (double)(v))
#define FXT_STR(name, s) fxt__arg_str((name), (s)) /* the value is copied into the record */
#define FXT_PTR(name, p) fxt__arg_bits(FXT_ARG_POINTER, (name), (uint64_t)(uintptr_t)(p))
#define FXT_KOID(name, v) fxt__arg_bits(FXT_ARG_KOID, (name), (uint64_t)(v))
#define FXT_BOOL(name, v) fxt__arg_bool((name), (v) ? 1 : 0)
#endif

/* The same values as writer.h's fxt_arg_*(), built with aggregate initialisation:
 * GCC turns memset-then-assign into narrow stores followed by wide reloads
 * (store-forwarding stalls, ~20 ns per event with two arguments).
 *
 * Forced inline: argument names are almost always string literals, and only
 * once the helper is inlined into the call site does strlen("name") fold to a
 * constant. gcc -O2 left these helpers as calls, which ran strlen on every
 * argument name of every event (an instant with 2 arguments cost 2.6x the
 * clock+stores floor, a counter 1.8x). A name that is not a literal still
 * works: its strlen simply runs at the call site. */
#define FXT__ARG_INLINE static inline __attribute__((always_inline))
#define FXT__ARG_INIT_(type, name)                                                                           \
    { (uint8_t)(type), 0, {(name), fxt__strlen0(name), 0, 0}, {0}, {NULL, 0, 0, 0}, 0 }
FXT__ARG_INLINE uint32_t fxt__strlen0(const char *s) { return s != NULL ? (uint32_t)strlen(s) : 0u; }
FXT__ARG_INLINE fxt_arg_t fxt__arg_bits(unsigned type, const char *name, uint64_t bits) {
    fxt_arg_t a = FXT__ARG_INIT_(type, name);
    a.v.u64 = bits;
    return a;
}
FXT__ARG_INLINE fxt_arg_t fxt__arg_i32(const char *name, int32_t v) {
    fxt_arg_t a = FXT__ARG_INIT_(FXT_ARG_INT32, name);
    a.v.i32 = v;
    return a;
}
FXT__ARG_INLINE fxt_arg_t fxt__arg_u32(const char *name, uint32_t v) {
    fxt_arg_t a = FXT__ARG_INIT_(FXT_ARG_UINT32, name);
    a.v.u32 = v;
    return a;
}
FXT__ARG_INLINE fxt_arg_t fxt__arg_f64(const char *name, double v) {
    fxt_arg_t a = FXT__ARG_INIT_(FXT_ARG_DOUBLE, name);
    a.v.f64 = v;
    return a;
}
FXT__ARG_INLINE fxt_arg_t fxt__arg_bool(const char *name, int v) {
    fxt_arg_t a = FXT__ARG_INIT_(FXT_ARG_BOOL, name);
    a.v.boolean = v;
    return a;
}
FXT__ARG_INLINE fxt_arg_t fxt__arg_str(const char *name, const char *v) {
    fxt_arg_t a = FXT__ARG_INIT_(FXT_ARG_STRING, name);
    a.str.ptr = v;
    a.str.len = fxt__strlen0(v);
    a.str.ref = FXT_STRREF_INLINE_FLAG;
    return a;
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
 * name_len = strlen(name), computed at the call site where it folds for a literal. */
FXT_API void fxt__event_args_n(fxt__site_t *site, uint32_t type, const char *name, uint32_t name_len,
                               int has_id, uint64_t id, const fxt_arg_t *args, size_t nargs);
FXT_API void fxt__complete(fxt__site_t *site, const char *name, uint64_t start_ticks);
FXT_API void fxt__log(fxt__site_t *site, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
FXT_API void fxt__blob(fxt__site_t *site, const char *name, const void *data, size_t size);

typedef struct fxt__scope {
    fxt__site_t *site; /* NULL when disabled at scope entry */
    const char *name;
    uint64_t start;
    unsigned nargs;
    fxt_arg_t args[FXT_MAX_ARGS]; /* copied at entry; only nargs are set */
} fxt__scope_t;

FXT_API void fxt__complete_args(fxt__site_t *site, const char *name, uint64_t start, const fxt_arg_t *args,
                                size_t nargs);

/* Called by FXT_DURATION once its category is known to be enabled. */
static inline void fxt__scope_begin(fxt__scope_t *s, fxt__site_t *site, const char *name,
                                    const fxt_arg_t *args, size_t nargs) {
    if (nargs > FXT_MAX_ARGS) {
        nargs = FXT_MAX_ARGS;
    }
    if (nargs > 0) {
        memcpy(s->args, args, nargs * sizeof *args);
    }
    s->nargs = (unsigned)nargs;
    s->name = name;
    s->site = site;
    s->start = fxt_ticks();
}

static inline void fxt__scope_end(fxt__scope_t *s) {
    if (s->site != NULL) {
        fxt__complete_args(s->site, s->name, s->start, s->args, s->nargs);
    }
}

#define FXT__CAT2(a, b) a##b
#define FXT__CAT(a, b) FXT__CAT2(a, b)
#define FXT__SITE(cat) static fxt__site_t FXT__CAT(fxt__site_, __LINE__) = {cat, 0, 0}
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
            fxt__event_args_n(&FXT__S, (type), (name), fxt__strlen0(name), (has_id), (uint64_t)(id), NULL,   \
                              0);                                                                            \
        }                                                                                                    \
    } while (0)
#define FXT__ARGVN(has_id, type, cat, name, id, ...)                                                         \
    do {                                                                                                     \
        FXT__SITE(cat);                                                                                      \
        if (__builtin_expect(fxt__site_on(&FXT__S), 0)) {                                                    \
            const fxt_arg_t fxt__a_[] = {__VA_ARGS__};                                                       \
            fxt__event_args_n(&FXT__S, (type), (name), fxt__strlen0(name), (has_id), (uint64_t)(id),         \
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
            fxt__blob(&FXT__S, (name), (data), (size));                                                      \
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
        fxt__scope_begin(FXT__SCOPE_PTR(FXT__CAT(fxt__scope_, __LINE__)), &FXT__S, (name), NULL, 0);         \
    }                                                                                                        \
    do {                                                                                                     \
    } while (0)
#define FXT__DURATION_1(cat, name, ...)                                                                      \
    FXT__SITE(cat);                                                                                          \
    FXT__SCOPE_DECL(FXT__CAT(fxt__scope_, __LINE__));                                                        \
    if (__builtin_expect(fxt__site_on(&FXT__S), 0)) {                                                        \
        const fxt_arg_t fxt__a_[] = {__VA_ARGS__};                                                           \
        fxt__scope_begin(FXT__SCOPE_PTR(FXT__CAT(fxt__scope_, __LINE__)), &FXT__S, (name), fxt__a_,          \
                         FXT__NARGS_ARRAY_(fxt__a_));                                                        \
    }                                                                                                        \
    do {                                                                                                     \
    } while (0)

/* 1 when `cat` is enabled; cached per call site like the macros (no lock). */
#define FXT_CATEGORY_ENABLED(cat)                                                                            \
    __extension__({                                                                                          \
        static fxt__site_t fxt__ce_ = {cat, 0, 0};                                                           \
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
#define FXT_CATEGORY_ENABLED(cat) 0

#endif /* FXT_NO_TRACE */

#ifdef __cplusplus
}
#endif

#endif /* FXT_TRACE_H */
