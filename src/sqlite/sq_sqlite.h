/* SPDX-License-Identifier: MIT */
/* libfxt_sqlite: SQLite's API, through the extension's function table in the loadable
 * build (FXT_SQLITE_LOADABLE, sqlite3ext.h) and directly in the one linked into fxt. */
#ifndef FXT_SQ_SQLITE_H
#define FXT_SQ_SQLITE_H

#ifdef FXT_SQLITE_LOADABLE
#include <sqlite3ext.h>
#ifndef SQ_EXT_MAIN
SQLITE_EXTENSION_INIT3
#endif
#else
#include <sqlite3.h>
#endif

#include "sq_internal.h"

/* Per connection: the data, and one module client-data per table. */
typedef struct sq_conn sq_conn;
typedef struct sq_modarg {
    sq_conn *conn;
    int table;
} sq_modarg;
struct sq_conn {
    sq_db db;
    sq_modarg mods[SQ_T_COUNT_];
    /* lazy per-column orders (sq_vtab.c): state 0 unknown, 1 rows already in order, 2 perm */
    struct sq_colidx {
        int state;
        uint32_t *perm;
    } * idx[SQ_T_COUNT_];
    uint32_t *rank; /* string id -> rank in byte order (ORDER/GROUP BY on TEXT), lazy */
    uint64_t idx_generation;
};

int sq_register_tables(sqlite3 *db, sq_conn *c);
void sq_drop_indexes(sq_conn *c);

#endif
