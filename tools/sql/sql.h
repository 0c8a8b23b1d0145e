/* SPDX-License-Identifier: MIT */
/* fxt sql (docs/sql.md): query output (sql_out.c) and the --db / --export writers (sql_save.c). */
#ifndef FXT_SQL_H
#define FXT_SQL_H

#include <fxt/writer.h>
#include <sqlite3.h>
#include <stddef.h>

/* How rows are printed: an aligned table, CSV (RFC 4180, a header line), JSON Lines. */
typedef enum sql_fmt { SQL_FMT_TABLE, SQL_FMT_CSV, SQL_FMT_JSON } sql_fmt;

/* A buffered writer over a sink; the first failed write is kept in err (an errno) and every
 * later write is skipped. */
typedef struct sql_out {
    fxt_sink_t sink;
    int err;
    size_t len;
    char buf[1 << 16];
} sql_out_t;

void sql_out_init(sql_out_t *o, fxt_sink_t sink);
void sql_out_put(sql_out_t *o, const char *s, size_t n);
/* Writes what is buffered; 0, or the errno of the first failed write. */
int sql_out_flush(sql_out_t *o);

/*
 * Steps `st` to its end, printing its rows in `fmt` (a statement without result columns prints
 * nothing). `sep`: a blank line goes before this result (the results of several statements).
 * Returns SQLITE_DONE, or the error code of the failed step (message from sqlite3_errmsg), or
 * SQLITE_IOERR when the output failed (o->err says why), or SQLITE_NOMEM.
 */
int sql_print_rows(sqlite3_stmt *st, sql_fmt fmt, sql_out_t *o, int sep);

/* The tables fxt_open makes (include/fxt/sqlite.h), in the order --db and --export write them. */
extern const char *const sql_tables[];
extern const size_t sql_ntables;

/* Before the traces are read: --db FILE and the --export files may be written (absent, or
 * `force`; FILE not one of the inputs). 0 or an exit code after one line on stderr. */
int sql_outputs_check(const char *db, const char *dir, int jsonl, int force, const char *const *ins,
                      size_t nins);
/* --db FILE: every table as a real table with indexes, in a new SQLite file. 0 or an exit code
 * after one line on stderr. `force`: an existing FILE may be replaced. */
int sql_write_db(sqlite3 *db, const char *path, int force, const char *const *ins, size_t nins);
/* --export DIR: each table as DIR/TABLE.csv or .jsonl. 0 or an exit code. */
int sql_export(sqlite3 *db, const char *dir, int jsonl, int force);

#endif /* FXT_SQL_H */
