/* SPDX-License-Identifier: MIT */
/* libfxt_sqlite: registration on a connection, fxt_open(), the loadable entry point. */
#define SQ_EXT_MAIN
#include "sq_sqlite.h"

#include <fxt/sqlite.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef FXT_SQLITE_LOADABLE
SQLITE_EXTENSION_INIT1
#endif

/* fxt_open(path [, label]): read the trace, add its rows; returns its record count. */
static void sq_fxt_open(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    sq_conn *c = sqlite3_user_data(ctx);
    const char *path = (const char *)sqlite3_value_text(argv[0]);
    const char *label = argc > 1 ? (const char *)sqlite3_value_text(argv[1]) : NULL;
    if (!path || !*path) {
        sqlite3_result_error(ctx, "fxt_open: a trace file path is required", -1);
        return;
    }
    char err[512] = "";
    fxt_status st = sq_open_trace(&c->db, path, label, err, sizeof err);
    if (st == FXT_E_NOMEM) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    if (st != FXT_OK) {
        char msg[600];
        snprintf(msg, sizeof msg, "fxt_open: %s", err);
        sqlite3_result_error(ctx, msg, -1);
        return;
    }
    sqlite3_result_int64(ctx, (sqlite3_int64)c->db.traces.v[c->db.traces.n - 1].records);
}

static void sq_conn_free(void *p) {
    sq_conn *c = p;
    sq_drop_indexes(c);
    sq_db_free(&c->db);
    free(c);
}

fxt_status fxt_sqlite_register(struct sqlite3 *db) {
    if (!db) {
        return FXT_E_INVALID_ARG;
    }
    sq_conn *c = calloc(1, sizeof *c);
    if (!c) {
        return FXT_E_NOMEM;
    }
    /* the modules refer to c: registered first; the function owns c (freed when the
     * connection closes, after the modules are gone) */
    int rc = sq_register_tables(db, c);
    if (rc == SQLITE_OK) {
        int flags = SQLITE_UTF8 | SQLITE_DIRECTONLY; /* reads files: not from a schema's views */
        rc = sqlite3_create_function_v2(db, "fxt_open", 1, flags, c, sq_fxt_open, NULL, NULL, sq_conn_free);
        if (rc == SQLITE_OK) {
            rc = sqlite3_create_function_v2(db, "fxt_open", 2, flags, c, sq_fxt_open, NULL, NULL, NULL);
        }
        return rc == SQLITE_OK ? FXT_OK : FXT_E_STATE;
    }
    free(c);
    return rc == SQLITE_NOMEM ? FXT_E_NOMEM : FXT_E_STATE;
}

#ifdef FXT_SQLITE_LOADABLE
/* The name SQLite derives from libfxt_sqlite.so. */
FXT_API int sqlite3_fxtsqlite_init(sqlite3 *db, char **err, const sqlite3_api_routines *api);
FXT_API int sqlite3_fxtsqlite_init(sqlite3 *db, char **err, const sqlite3_api_routines *api) {
    SQLITE_EXTENSION_INIT2(api);
    fxt_status st = fxt_sqlite_register(db);
    if (st != FXT_OK) {
        *err = sqlite3_mprintf("fxt_sqlite: registration failed: %s", fxt_status_str(st));
        return SQLITE_ERROR;
    }
    return SQLITE_OK;
}
#endif
