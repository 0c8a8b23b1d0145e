/* SPDX-License-Identifier: MIT */
/*
 * libfxt_sqlite: the tables' columns (docs/sql.md "## Tables"), each a getter over the
 * column arrays of sq_db. A table's row number is its id column.
 */
#include "sq_internal.h"

#include <stdlib.h>
#include <string.h>

const char sq_interned_text[] = "TEXT";

static void v_int(sq_val *v, int64_t i) {
    v->kind = SQ_INT;
    v->i = i;
}
static void v_null(sq_val *v) { v->kind = SQ_NUL; }
static void v_ref(sq_val *v, uint32_t ref) {
    if (ref == SQ_NONE) {
        v_null(v);
    } else {
        v_int(v, ref);
    }
}
static void v_text(sq_val *v, const char *s) {
    v->kind = SQ_TEXT;
    v->p = s;
    v->len = strlen(s);
}
static void v_str(const sq_db *db, sq_val *v, uint32_t id) {
    if (id == SQ_NONE || id >= db->str.tab.n) {
        v_null(v);
        return;
    }
    v->kind = SQ_TEXT;
    v->i = id; /* interned: equal strings, equal ids (GROUP BY through an order of ids) */
    v->p = db->str.tab.v[id].p ? db->str.tab.v[id].p : "";
    v->len = db->str.tab.v[id].len;
}
static void v_dur(sq_val *v, int64_t dur) { v_int(v, dur); }

#define GET(fn, T, vec, body)                                                                                \
    static void fn(const sq_db *db, size_t row, sq_val *v) {                                                 \
        const T *r = &db->vec.v[row];                                                                        \
        (void)r;                                                                                             \
        body;                                                                                                \
    }
static void g_row(const sq_db *db, size_t row, sq_val *v) {
    (void)db;
    v_int(v, (int64_t)row);
}

/* ---- slice ---------------------------------------------------------------------------- */
#define GET_SL(fn, body)                                                                                     \
    static void fn(const sq_db *db, size_t row, sq_val *v) {                                                 \
        const sq_slice *r = &db->slices.v[row];                                                              \
        body;                                                                                                \
    }
GET_SL(sl_ts, v_int(v, r->ts))
GET_SL(sl_dur, v_dur(v, sq_slice_dur(db, r)))
GET_SL(sl_track, v_int(v, db->skeys.v[r->key].track))
GET_SL(sl_cat, v_str(db, v, db->skeys.v[r->key].cat))
GET_SL(sl_name, v_str(db, v, r->name))
GET_SL(sl_depth, v_int(v, r->depth))
static const char *const slice_types[16] = {"instant",  NULL,    "duration",     NULL,
                                            "complete", "async", "async_instant"};
GET_SL(sl_type, if (slice_types[r->type]) v_text(v, slice_types[r->type]); else v_null(v))
GET_SL(sl_parent, v_ref(v, r->parent))
GET_SL(sl_args, v_ref(v, r->args))
static const sq_col c_slice[] = {
    {"id", "INTEGER", g_row},
    {"ts", "INTEGER", sl_ts},
    {"dur", "INTEGER", sl_dur},
    {"track_id", "INTEGER", sl_track},
    {"category", sq_interned_text, sl_cat},
    {"name", sq_interned_text, sl_name},
    {"depth", "INTEGER", sl_depth},
    {"parent_id", "INTEGER", sl_parent},
    {"arg_set_id", "INTEGER", sl_args},
    {"cat", sq_interned_text, sl_cat},
    {"slice_id", "INTEGER", g_row},
    {"fxt_type", "TEXT", sl_type},
};

/* ---- thread, process -------------------------------------------------------------------- */
GET(th_tid, sq_thread, threads, v_int(v, (int64_t)r->tid))
GET(th_name, sq_thread, threads, v_str(db, v, r->name))
GET(th_upid, sq_thread, threads, v_ref(v, r->upid))
static const sq_col c_thread[] = {
    {"utid", "INTEGER", g_row},          {"id", "INTEGER", g_row},     {"tid", "INTEGER", th_tid},
    {"name", sq_interned_text, th_name}, {"upid", "INTEGER", th_upid},
};
GET(pr_pid, sq_process, procs, v_int(v, (int64_t)r->pid))
GET(pr_name, sq_process, procs, v_str(db, v, r->name))
static const sq_col c_process[] = {{"upid", "INTEGER", g_row},
                                   {"id", "INTEGER", g_row},
                                   {"pid", "INTEGER", pr_pid},
                                   {"name", sq_interned_text, pr_name}};

/* ---- tracks: one id space; thread_track, process_track and counter_track list subsets --- */
static const char *const track_types[] = {"thread_execution", "fxt_async", "fuchsia_counter"};
static void tk_name_of(const sq_db *db, uint32_t id, sq_val *v) { v_str(db, v, db->tracks.v[id].name); }
static void tk_type_of(const sq_db *db, uint32_t id, sq_val *v) {
    v_text(v, track_types[db->tracks.v[id].kind % 3u]);
}
static void tk_utid_of(const sq_db *db, uint32_t id, sq_val *v) {
    v_ref(v, db->tracks.v[id].kind == SQ_TRACK_THREAD ? db->tracks.v[id].utid : SQ_NONE);
}
static void tk_upid_of(const sq_db *db, uint32_t id, sq_val *v) {
    v_ref(v, db->tracks.v[id].kind == SQ_TRACK_THREAD ? SQ_NONE : db->tracks.v[id].upid);
}
#define TRACKS(prefix, idexpr)                                                                               \
    static void prefix##_id(const sq_db *db, size_t row, sq_val *v) {                                        \
        (void)db;                                                                                            \
        v_int(v, (idexpr));                                                                                  \
    }                                                                                                        \
    static void prefix##_name(const sq_db *db, size_t row, sq_val *v) { tk_name_of(db, (idexpr), v); }       \
    static void prefix##_type(const sq_db *db, size_t row, sq_val *v) { tk_type_of(db, (idexpr), v); }       \
    static void prefix##_utid(const sq_db *db, size_t row, sq_val *v) { tk_utid_of(db, (idexpr), v); }       \
    static void prefix##_upid(const sq_db *db, size_t row, sq_val *v) { tk_upid_of(db, (idexpr), v); }
TRACKS(tk, (uint32_t)row)
TRACKS(tt, db->thread_tracks.v[row])
TRACKS(pt, db->process_tracks.v[row])
TRACKS(ct, db->counter_tracks.v[row])
static void g_null(const sq_db *db, size_t row, sq_val *v) {
    (void)db;
    (void)row;
    v_null(v);
}
static const sq_col c_track[] = {{"id", "INTEGER", tk_id},
                                 {"name", sq_interned_text, tk_name},
                                 {"type", "TEXT", tk_type},
                                 {"utid", "INTEGER", tk_utid},
                                 {"upid", "INTEGER", tk_upid}};
/* every track table has utid and upid (one of them NULL) */
static const sq_col c_thread_track[] = {{"id", "INTEGER", tt_id},
                                        {"name", sq_interned_text, tt_name},
                                        {"type", "TEXT", tt_type},
                                        {"utid", "INTEGER", tt_utid},
                                        {"upid", "INTEGER", tt_upid}};
static const sq_col c_process_track[] = {{"id", "INTEGER", pt_id},
                                         {"name", sq_interned_text, pt_name},
                                         {"type", "TEXT", pt_type},
                                         {"upid", "INTEGER", pt_upid},
                                         {"utid", "INTEGER", pt_utid}};
static const sq_col c_counter_track[] = {{"id", "INTEGER", ct_id},       {"name", sq_interned_text, ct_name},
                                         {"type", "TEXT", ct_type},      {"upid", "INTEGER", ct_upid},
                                         {"utid", "INTEGER", ct_utid},   {"unit", "TEXT", g_null},
                                         {"description", "TEXT", g_null}};

/* ---- counter, flow -------------------------------------------------------------------- */
GET(cn_ts, sq_counter, counters, v_int(v, sq_counter_ts(r)))
GET(cn_track, sq_counter, counters, v_int(v, r->track))
static void cn_value(const sq_db *db, size_t row, sq_val *v) {
    v->kind = SQ_REAL;
    v->d = sq_counter_value(&db->counters.v[row]);
}
static const sq_col c_counter[] = {{"id", "INTEGER", g_row},
                                   {"ts", "INTEGER", cn_ts},
                                   {"track_id", "INTEGER", cn_track},
                                   {"value", "REAL", cn_value},
                                   {"arg_set_id", "INTEGER", g_null}};
GET(fl_out, sq_flow, flows, v_int(v, r->out))
GET(fl_in, sq_flow, flows, v_int(v, r->in))
GET(fl_fid, sq_flow, flows, v_int(v, (int64_t)r->fid))
static const sq_col c_flow[] = {{"id", "INTEGER", g_row},
                                {"slice_out", "INTEGER", fl_out},
                                {"slice_in", "INTEGER", fl_in},
                                {"trace_id", "INTEGER", fl_fid},
                                {"arg_set_id", "INTEGER", g_null}};

/* ---- args ------------------------------------------------------------------------------ */
static const char *const vtype_names[] = {"null",    "int",  "uint", "real",   "string",
                                          "pointer", "bool", "uint", "unknown"};
GET(ar_set, sq_arg, args, v_int(v, sq_arg_set(db, row)))
GET(ar_key, sq_arg, args, v_str(db, v, r->key))
GET(ar_type, sq_arg, args, v_text(v, vtype_names[r->vtype % 9u]))
static void ar_int(const sq_db *db, size_t row, sq_val *v) {
    const sq_arg *r = &db->args.v[row];
    if (r->vtype == SQ_V_NULL || r->vtype == SQ_V_REAL || r->vtype == SQ_V_STRING ||
        r->vtype == SQ_V_UNKNOWN) {
        v_null(v);
    } else {
        v_int(v, sq_arg_ival(r));
    }
}
GET(ar_str, sq_arg, args, if (r->vtype == SQ_V_STRING) v_str(db, v, (uint32_t)sq_arg_ival(r)); else v_null(v))
static void ar_real(const sq_db *db, size_t row, sq_val *v) {
    const sq_arg *r = &db->args.v[row];
    if (r->vtype == SQ_V_REAL) {
        v->kind = SQ_REAL;
        v->d = sq_arg_rval(r);
    } else {
        v_null(v);
    }
}
static const sq_col c_args[] = {
    {"id", "INTEGER", g_row},
    {"arg_set_id", "INTEGER", ar_set},
    {"flat_key", sq_interned_text, ar_key},
    {"key", sq_interned_text, ar_key},
    {"int_value", "INTEGER", ar_int},
    {"string_value", sq_interned_text, ar_str},
    {"real_value", "REAL", ar_real},
    {"value_type", "TEXT", ar_type},
};

/* ---- scheduling --------------------------------------------------------------------------- */
static void v_state(sq_val *v, uint32_t st) {
    /* Perfetto's letters for Fuchsia's thread states (what its importer shows) */
    static const char *const names[] = {"N", "Running", "T", "S", "Z", "X"};
    if (st == SQ_STATE_WOKEN) {
        v_text(v, "W");
    } else if (st < 6) {
        v_text(v, names[st]);
    } else {
        v_null(v);
    }
}
GET(sc_ts, sq_sched, sched, v_int(v, r->ts))
GET(sc_dur, sq_sched, sched, v_dur(v, r->dur))
GET(sc_cpu, sq_sched, sched, v_int(v, r->cpu))
GET(sc_utid, sq_sched, sched, v_int(v, r->utid))
GET(sc_end, sq_sched, sched, v_state(v, r->end_state))
GET(sc_prio, sq_sched, sched, if (r->prio == INT32_MIN) v_null(v); else v_int(v, r->prio))
static const sq_col c_sched[] = {{"id", "INTEGER", g_row},        {"ts", "INTEGER", sc_ts},
                                 {"dur", "INTEGER", sc_dur},      {"cpu", "INTEGER", sc_cpu},
                                 {"utid", "INTEGER", sc_utid},    {"end_state", "TEXT", sc_end},
                                 {"priority", "INTEGER", sc_prio}};
GET(ts_ts, sq_tstate, tstates, v_int(v, r->ts))
GET(ts_dur, sq_tstate, tstates, v_dur(v, r->dur))
GET(ts_cpu, sq_tstate, tstates, v_ref(v, r->cpu))
GET(ts_utid, sq_tstate, tstates, v_int(v, r->utid))
GET(ts_state, sq_tstate, tstates, v_state(v, r->state))
GET(ts_waker, sq_tstate, tstates, v_ref(v, r->waker))
static const sq_col c_tstate[] = {{"id", "INTEGER", g_row},           {"ts", "INTEGER", ts_ts},
                                  {"dur", "INTEGER", ts_dur},         {"cpu", "INTEGER", ts_cpu},
                                  {"utid", "INTEGER", ts_utid},       {"state", "TEXT", ts_state},
                                  {"io_wait", "INTEGER", g_null},     {"blocked_function", "TEXT", g_null},
                                  {"waker_utid", "INTEGER", ts_waker}};

/* ---- log, blob, objects ------------------------------------------------------------------- */
GET(lg_ts, sq_log, logs, v_int(v, r->ts))
GET(lg_utid, sq_log, logs, v_int(v, r->utid))
GET(lg_msg, sq_log, logs, v_str(db, v, r->msg))
static const sq_col c_log[] = {{"id", "INTEGER", g_row},
                               {"ts", "INTEGER", lg_ts},
                               {"utid", "INTEGER", lg_utid},
                               {"msg", sq_interned_text, lg_msg}};

GET(bl_ts, sq_blob, blobs, if (r->ts == INT64_MIN) v_null(v); else v_int(v, r->ts))
GET(bl_name, sq_blob, blobs, v_str(db, v, r->name))
GET(bl_cat, sq_blob, blobs, v_str(db, v, r->cat))
GET(bl_utid, sq_blob, blobs, v_ref(v, r->utid))
GET(bl_rec, sq_blob, blobs, v_text(v, r->kind ? "large_blob" : "blob"))
GET(bl_type, sq_blob, blobs, v_int(v, r->btype))
GET(bl_size, sq_blob, blobs, v_int(v, (int64_t)r->size))
GET(bl_off, sq_blob, blobs, v_int(v, (int64_t)r->offset))
static void bl_payload(const sq_db *db, size_t row, sq_val *v) {
    v->kind = SQ_BLOBREF; /* read from the file when asked for (sq_vtab.c) */
    v->i = (int64_t)db->blobs.v[row].offset;
    v->len = (size_t)db->blobs.v[row].size;
}
static const sq_col c_blob[] = {
    {"id", "INTEGER", g_row},
    {"ts", "INTEGER", bl_ts},
    {"name", sq_interned_text, bl_name},
    {"category", sq_interned_text, bl_cat},
    {"utid", "INTEGER", bl_utid},
    {"record", "TEXT", bl_rec},
    {"blob_type", "INTEGER", bl_type},
    {"size", "INTEGER", bl_size},
    {"offset", "INTEGER", bl_off},
    {"payload", "BLOB", bl_payload},
};

GET(ko_koid, sq_kobj, kobjs, v_int(v, (int64_t)r->koid))
GET(ko_type, sq_kobj, kobjs, v_int(v, r->obj_type))
GET(ko_tname, sq_kobj, kobjs, if (r->obj_type == FXT_OBJ_PROCESS) v_text(v, "process");
    else if (r->obj_type == FXT_OBJ_THREAD) v_text(v, "thread"); else v_null(v))
GET(ko_name, sq_kobj, kobjs, v_str(db, v, r->name))
GET(ko_pid, sq_kobj, kobjs, if (r->pid == UINT64_MAX) v_null(v); else v_int(v, (int64_t)r->pid))
GET(ko_args, sq_kobj, kobjs, v_ref(v, r->args))
GET(ko_off, sq_kobj, kobjs, v_int(v, (int64_t)r->offset))
static const sq_col c_kobj[] = {
    {"id", "INTEGER", g_row},
    {"koid", "INTEGER", ko_koid},
    {"obj_type", "INTEGER", ko_type},
    {"type", "TEXT", ko_tname},
    {"name", sq_interned_text, ko_name},
    {"process_koid", "INTEGER", ko_pid},
    {"arg_set_id", "INTEGER", ko_args},
    {"offset", "INTEGER", ko_off},
};
GET(uo_ptr, sq_kobj, uobjs, v_int(v, (int64_t)r->koid))
GET(uo_pid, sq_kobj, uobjs, v_int(v, (int64_t)r->pid))
GET(uo_name, sq_kobj, uobjs, v_str(db, v, r->name))
GET(uo_args, sq_kobj, uobjs, v_ref(v, r->args))
GET(uo_off, sq_kobj, uobjs, v_int(v, (int64_t)r->offset))
static const sq_col c_uobj[] = {
    {"id", "INTEGER", g_row},           {"ptr", "INTEGER", uo_ptr},
    {"pid", "INTEGER", uo_pid},         {"name", sq_interned_text, uo_name},
    {"arg_set_id", "INTEGER", uo_args}, {"offset", "INTEGER", uo_off},
};

/* ---- provider, error, trace_file ---------------------------------------------------------- */
GET(pv_id, sq_provider, provs, v_int(v, r->id))
GET(pv_name, sq_provider, provs, v_str(db, v, r->name))
GET(pv_tps, sq_provider, provs, v_int(v, (int64_t)r->tps))
GET(pv_records, sq_provider, provs, v_int(v, (int64_t)r->records))
GET(pv_events, sq_provider, provs, v_int(v, (int64_t)r->events))
GET(pv_bf, sq_provider, provs, v_int(v, (int64_t)r->buffer_full))
GET(pv_dropped, sq_provider, provs, v_int(v, (int64_t)r->dropped))
GET(pv_aticks, sq_provider, provs, if (r->has_anchor) v_int(v, (int64_t)r->anchor_ticks); else v_null(v))
GET(pv_areal, sq_provider, provs, if (r->has_anchor) v_int(v, (int64_t)r->anchor_realtime_ns); else v_null(v))
GET(pv_amono, sq_provider, provs,
    if (r->has_anchor && r->anchor_mono_ns) v_int(v, (int64_t)r->anchor_mono_ns);
    else v_null(v))
static const sq_col c_provider[] = {
    {"id", "INTEGER", g_row},
    {"provider_id", "INTEGER", pv_id},
    {"name", sq_interned_text, pv_name},
    {"ticks_per_second", "INTEGER", pv_tps},
    {"records", "INTEGER", pv_records},
    {"events", "INTEGER", pv_events},
    {"buffer_full_reports", "INTEGER", pv_bf},
    {"records_dropped", "INTEGER", pv_dropped},
    {"clock_ticks", "INTEGER", pv_aticks},
    {"clock_realtime_ns", "INTEGER", pv_areal},
    {"clock_monotonic_ns", "INTEGER", pv_amono},
};
GET(er_off, sq_error, errors, v_int(v, (int64_t)r->offset))
GET(er_status, sq_error, errors, v_text(v, fxt_status_name((fxt_status)r->status)))
GET(er_msg, sq_error, errors, v_str(db, v, r->msg))
GET(er_rtype, sq_error, errors, v_int(v, r->rtype))
GET(er_prov, sq_error, errors, v_ref(v, r->provider))
static const sq_col c_error[] = {
    {"id", "INTEGER", g_row},
    {"offset", "INTEGER", er_off},
    {"status", "TEXT", er_status},
    {"message", sq_interned_text, er_msg},
    {"record_type", "INTEGER", er_rtype},
    {"provider_id", "INTEGER", er_prov},
};
GET(tr_path, sq_trace, traces, v_text(v, r->path))
GET(tr_bytes, sq_trace, traces, v_int(v, (int64_t)r->bytes))
GET(tr_records, sq_trace, traces, v_int(v, (int64_t)r->records))
GET(tr_errors, sq_trace, traces, v_int(v, (int64_t)r->errors))
static const sq_col c_trace[] = {{"id", "INTEGER", g_row},
                                 {"path", "TEXT", tr_path},
                                 {"bytes", "INTEGER", tr_bytes},
                                 {"records", "INTEGER", tr_records},
                                 {"errors", "INTEGER", tr_errors}};

#define TAB(name, cols)                                                                                      \
    { name, cols, (int)(sizeof cols / sizeof cols[0]) }
const sq_table sq_tables[SQ_T_COUNT_] = {
    TAB("slice", c_slice),
    TAB("thread", c_thread),
    TAB("process", c_process),
    TAB("track", c_track),
    TAB("thread_track", c_thread_track),
    TAB("process_track", c_process_track),
    TAB("counter_track", c_counter_track),
    TAB("counter", c_counter),
    TAB("flow", c_flow),
    TAB("args", c_args),
    TAB("sched_slice", c_sched),
    TAB("thread_state", c_tstate),
    TAB("log", c_log),
    TAB("blob", c_blob),
    TAB("kernel_object", c_kobj),
    TAB("userspace_object", c_uobj),
    TAB("provider", c_provider),
    TAB("error", c_error),
    TAB("trace_file", c_trace),
};

/* The array that holds a table's rows: its base, row count and row size (one row per element). */
static const void *sq_rows_of(const sq_db *db, int table, size_t *n, size_t *elem) {
#define SQ_ROWS_(vec)                                                                                        \
    do {                                                                                                     \
        *n = db->vec.n;                                                                                      \
        *elem = sizeof *db->vec.v;                                                                           \
        return db->vec.v;                                                                                    \
    } while (0)
    switch (table) {
    case SQ_T_SLICE:
        SQ_ROWS_(slices);
    case SQ_T_THREAD:
        SQ_ROWS_(threads);
    case SQ_T_PROCESS:
        SQ_ROWS_(procs);
    case SQ_T_TRACK:
        SQ_ROWS_(tracks);
    case SQ_T_THREAD_TRACK:
        SQ_ROWS_(thread_tracks);
    case SQ_T_PROCESS_TRACK:
        SQ_ROWS_(process_tracks);
    case SQ_T_COUNTER_TRACK:
        SQ_ROWS_(counter_tracks);
    case SQ_T_COUNTER:
        SQ_ROWS_(counters);
    case SQ_T_FLOW:
        SQ_ROWS_(flows);
    case SQ_T_ARGS:
        SQ_ROWS_(args);
    case SQ_T_SCHED:
        SQ_ROWS_(sched);
    case SQ_T_TSTATE:
        SQ_ROWS_(tstates);
    case SQ_T_LOG:
        SQ_ROWS_(logs);
    case SQ_T_BLOB:
        SQ_ROWS_(blobs);
    case SQ_T_KOBJ:
        SQ_ROWS_(kobjs);
    case SQ_T_UOBJ:
        SQ_ROWS_(uobjs);
    case SQ_T_PROVIDER:
        SQ_ROWS_(provs);
    case SQ_T_ERROR:
        SQ_ROWS_(errors);
    case SQ_T_TRACE:
        SQ_ROWS_(traces);
    case SQ_T_COUNT_:
        break;
    }
#undef SQ_ROWS_
    *n = *elem = 0;
    return NULL;
}

size_t sq_table_rows(const sq_db *db, int table) {
    size_t n, elem;
    sq_rows_of(db, table, &n, &elem);
    return n;
}

void sq_prefetch_rows(const sq_db *db, int table, const uint32_t *rows, size_t k) {
#if defined(__GNUC__) || defined(__clang__)
    size_t n, elem;
    const char *base = sq_rows_of(db, table, &n, &elem);
    for (size_t i = 0; base && i < k; i++) {
        if (rows[i] < n) {
            __builtin_prefetch(base + (size_t)rows[i] * elem);
        }
    }
#else
    (void)db, (void)table, (void)rows, (void)k;
#endif
}

uint32_t sq_row_trace(const sq_db *db, int table, size_t row) {
    if (table == SQ_T_TRACE) {
        return (uint32_t)row;
    }
    size_t lo = 0, hi = db->traces.n; /* the last trace whose first row is <= row */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (db->traces.v[mid].first_row[table] <= row) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return (uint32_t)lo;
}

int sq_col_sorted(int table, int col) {
    return col >= 0 && col < sq_tables[table].ncols &&
           (sq_tables[table].cols[col].get == g_row || sq_tables[table].cols[col].get == ar_set);
}

int sq_set_rows(const sq_db *db, int table, int col, int64_t k, size_t *lo, size_t *hi) {
    if (table != SQ_T_ARGS || col < 0 || col >= sq_tables[table].ncols ||
        sq_tables[table].cols[col].get != ar_set) {
        return 0;
    }
    if (k < 0 || (uint64_t)k >= db->set_first.n) {
        *lo = *hi = 0;
        return 1;
    }
    *lo = db->set_first.v[k];
    *hi = (uint64_t)k + 1 < db->set_first.n ? db->set_first.v[k + 1] : db->args.n;
    return 1;
}

int sq_col_nested(int table, int col) {
    return table == SQ_T_SLICE && col >= 0 && col < sq_tables[table].ncols &&
           (strcmp(c_slice[col].name, "depth") == 0 || strcmp(c_slice[col].name, "parent_id") == 0);
}

int sq_col_unique(int table, int col) {
    if (col < 0 || col >= sq_tables[table].ncols) {
        return 0;
    }
    const char *name = sq_tables[table].cols[col].name;
    int track = table == SQ_T_TRACK || table == SQ_T_THREAD_TRACK || table == SQ_T_PROCESS_TRACK ||
                table == SQ_T_COUNTER_TRACK;
    return sq_tables[table].cols[col].get == g_row || (track && strcmp(name, "id") == 0) ||
           (table == SQ_T_THREAD_TRACK && strcmp(name, "utid") == 0);
}

void sq_db_free(sq_db *db) {
    for (size_t i = 0; i < db->traces.n; i++) {
        free(db->traces.v[i].path);
        SQ_FREE(db->traces.v[i].acode);
        SQ_FREE(db->traces.v[i].ajoin);
        sq_nest_state_free(db->traces.v[i].nest);
    }
    SQ_FREE(db->traces);
    SQ_FREE(db->slices);
    SQ_FREE(db->skeys);
    sq_map_free(&db->long_row);
    SQ_FREE(db->long_dur);
    SQ_FREE(db->threads);
    SQ_FREE(db->procs);
    SQ_FREE(db->tracks);
    SQ_FREE(db->thread_tracks);
    SQ_FREE(db->process_tracks);
    SQ_FREE(db->counter_tracks);
    SQ_FREE(db->counters);
    SQ_FREE(db->flows);
    SQ_FREE(db->args);
    SQ_FREE(db->set_first);
    SQ_FREE(db->sched);
    SQ_FREE(db->tstates);
    SQ_FREE(db->logs);
    SQ_FREE(db->blobs);
    SQ_FREE(db->kobjs);
    SQ_FREE(db->uobjs);
    SQ_FREE(db->provs);
    SQ_FREE(db->errors);
    sq_strings_free(&db->str);
}
