/* SPDX-License-Identifier: MIT */
/*
 * libfxt_sqlite: SQL over FXT traces, as SQLite virtual tables (docs/sql.md).
 *
 * Loadable:   SELECT load_extension('libfxt_sqlite');   (or `.load ./libfxt_sqlite` in the shell)
 * Linked in:  fxt_sqlite_register(db);                   (the fxt_sqlite_objs CMake target)
 *
 * Then `SELECT fxt_open('trace.fxt' [, 'label'])` reads a trace into memory (one sequential
 * pass) and the tables slice, thread, process, thread_track, track, process_track, counter,
 * counter_track, flow, args, sched_slice, thread_state, log, blob, kernel_object,
 * userspace_object, provider, error and trace_file answer queries over it. Calling fxt_open
 * again adds that trace's rows; every table has a `trace` column (the label, default the path).
 *
 * The header needs no sqlite3.h: it only names `struct sqlite3`.
 */
#ifndef FXT_SQLITE_H
#define FXT_SQLITE_H

#include <fxt/common.h>

#ifdef __cplusplus
extern "C" {
#endif

struct sqlite3;

/**
 * Register the fxt_open() function and the tables on a connection (what the loadable
 * extension's entry point sqlite3_fxtsqlite_init() calls). The tables are empty until
 * fxt_open() is called on that connection; the data is freed when the connection closes.
 * @return FXT_OK, FXT_E_INVALID_ARG (db NULL), FXT_E_NOMEM, FXT_E_STATE (SQLite refused a
 *         registration, e.g. a function or module of the same name is in use).
 */
FXT_API fxt_status fxt_sqlite_register(struct sqlite3 *db);

#ifdef __cplusplus
}
#endif

#endif /* FXT_SQLITE_H */
