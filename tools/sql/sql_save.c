/* SPDX-License-Identifier: MIT */
/*
 * fxt sql --db and --export (docs/sql.md#fxt-sql): the extension's tables copied out, to a
 * plain SQLite file (real tables, indexes) or to one CSV / JSON Lines file per table. Every
 * file is written beside its name and renamed when complete (tools/cli/cli_io.h), and an
 * existing one is replaced only with --force.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cli_io.h"
#include "sql.h"

const char *const sql_tables[] = {
    "trace_file", "provider", "process",       "thread",           "track",   "thread_track", "process_track",
    "slice",      "args",     "flow",          "counter_track",    "counter", "sched_slice",  "thread_state",
    "log",        "blob",     "kernel_object", "userspace_object", "error",
};
const size_t sql_ntables = sizeof sql_tables / sizeof sql_tables[0];

/* Columns that queries join or filter on: each gets an index in --db's file where it exists. */
static const char *const indexed[] = {"id",         "ts",        "track_id",  "utid",    "upid",
                                      "arg_set_id", "parent_id", "slice_out", "slice_in"};

/* Runs one statement; 0, or the SQLite code after "fxt sql: WHAT: message" on stderr. */
static int exec(sqlite3 *db, const char *sql, const char *what) {
    char *msg = NULL;
    int rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
    if (rc != SQLITE_OK) {
        fprintf(stderr, "fxt sql: %s: %s\n", what, msg != NULL ? msg : sqlite3_errstr(rc));
    }
    sqlite3_free(msg);
    return rc;
}

/* The indexes of one copied table: its columns found in `indexed`. */
static int index_table(sqlite3 *db, const char *table, const char *path) {
    char *q = sqlite3_mprintf("SELECT name FROM fxtout.pragma_table_info(%Q)", table);
    sqlite3_stmt *st = NULL;
    int rc = q != NULL ? sqlite3_prepare_v2(db, q, -1, &st, NULL) : SQLITE_NOMEM;
    sqlite3_free(q);
    while (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
        const char *col = (const char *)sqlite3_column_text(st, 0);
        for (size_t i = 0; col != NULL && i < sizeof indexed / sizeof indexed[0]; i++) {
            if (strcmp(col, indexed[i]) != 0) {
                continue;
            }
            char *ddl =
                sqlite3_mprintf("CREATE INDEX fxtout.\"%w_by_%w\" ON \"%w\"(\"%w\")", table, col, table, col);
            rc = ddl != NULL ? exec(db, ddl, path) : SQLITE_NOMEM;
            sqlite3_free(ddl);
        }
    }
    sqlite3_finalize(st);
    return rc;
}

/* The tables and their indexes into the attached database fxtout. */
static int copy_tables(sqlite3 *db, const char *path) {
    int rc = exec(db, "PRAGMA fxtout.journal_mode=OFF; PRAGMA fxtout.synchronous=OFF; BEGIN", path);
    for (size_t i = 0; i < sql_ntables && rc == SQLITE_OK; i++) {
        char *q = sqlite3_mprintf("CREATE TABLE fxtout.\"%w\" AS SELECT * FROM \"%w\"", sql_tables[i],
                                  sql_tables[i]);
        rc = q != NULL ? exec(db, q, path) : SQLITE_NOMEM;
        sqlite3_free(q);
        if (rc == SQLITE_OK) {
            rc = index_table(db, sql_tables[i], path);
        }
    }
    if (rc == SQLITE_OK) {
        rc = exec(db, "COMMIT", path);
    } else {
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    }
    return rc;
}

/* 0 when `path` may be written: absent, or --force; else a usage error after one line. */
static int may_replace(const char *path, int force) {
    struct stat sb;
    if (!force && lstat(path, &sb) == 0) {
        fprintf(stderr, "fxt sql: %s exists: refused (--force replaces it)\n", path);
        return CLI_EXIT_USAGE;
    }
    return 0;
}

int sql_write_db(sqlite3 *db, const char *path, int force, const char *const *ins, size_t nins) {
    int rc = may_replace(path, force);
    if (rc == 0) {
        rc = cli_output_check("sql", path, ins, nins);
    }
    if (rc != 0) {
        return rc;
    }
    char err[512];
    cli_output_t *o = NULL;
    rc = cli_output_open(path, "none", &o, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "fxt sql: %s\n", err);
        return rc;
    }
    const char *tmp = cli_output_tmp_path(o);
    if (tmp == NULL) {
        fprintf(stderr, "fxt sql: %s: --db writes a regular file in a writable directory\n", path);
        cli_output_close(o, 1);
        return CLI_EXIT_IO;
    }
    char *attach = sqlite3_mprintf("ATTACH %Q AS fxtout", tmp);
    int src = attach != NULL ? exec(db, attach, path) : SQLITE_NOMEM;
    sqlite3_free(attach);
    if (src == SQLITE_OK) {
        src = copy_tables(db, path);
        int drc = exec(db, "DETACH fxtout", path);
        src = src != SQLITE_OK ? src : drc;
    }
    if (cli_output_close(o, src != SQLITE_OK) != 0 && src == SQLITE_OK) {
        fprintf(stderr, "fxt sql: %s: %s\n", path, strerror(errno));
        return CLI_EXIT_IO;
    }
    return src == SQLITE_OK ? 0 : (src & 0xff) == SQLITE_NOMEM ? CLI_EXIT_LIMIT : CLI_EXIT_IO;
}

/* One table into one file. 0 or an exit code. */
static int export_table(sqlite3 *db, const char *table, const char *path, int jsonl) {
    char err[512];
    cli_output_t *o = NULL;
    int rc = cli_output_open(path, "none", &o, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "fxt sql: %s\n", err);
        return rc;
    }
    static sql_out_t out;
    sql_out_init(&out, cli_output_sink(o));
    char *q = sqlite3_mprintf("SELECT * FROM \"%w\"", table);
    sqlite3_stmt *st = NULL;
    int src = q != NULL ? sqlite3_prepare_v2(db, q, -1, &st, NULL) : SQLITE_NOMEM;
    sqlite3_free(q);
    if (src == SQLITE_OK) {
        src = sql_print_rows(st, jsonl ? SQL_FMT_JSON : SQL_FMT_CSV, &out, 0);
        src = src == SQLITE_DONE && sql_out_flush(&out) == 0 ? SQLITE_OK
              : src == SQLITE_DONE                           ? SQLITE_IOERR
                                                             : src;
    }
    if (src != SQLITE_OK && out.err == 0) {
        fprintf(stderr, "fxt sql: %s: %s\n", path, sqlite3_errmsg(db));
    }
    sqlite3_finalize(st);
    int failed = src != SQLITE_OK;
    if (cli_output_close(o, failed) != 0 && !failed) {
        out.err = errno;
        src = SQLITE_IOERR;
    }
    if (out.err != 0) {
        fprintf(stderr, "fxt sql: %s: %s\n", path, strerror(out.err));
    }
    return src == SQLITE_OK ? 0 : (src & 0xff) == SQLITE_NOMEM ? CLI_EXIT_LIMIT : CLI_EXIT_IO;
}

/* DIR/TABLE.EXT of table i; 0, or a usage error when the name does not fit. */
static int export_path(char *path, size_t cap, const char *dir, size_t i, int jsonl) {
    if ((size_t)snprintf(path, cap, "%s/%s.%s", dir, sql_tables[i], jsonl ? "jsonl" : "csv") >= cap) {
        fprintf(stderr, "fxt sql: %s: name too long\n", dir);
        return CLI_EXIT_USAGE;
    }
    return 0;
}

int sql_outputs_check(const char *db, const char *dir, int jsonl, int force, const char *const *ins,
                      size_t nins) {
    int rc = 0;
    if (db != NULL) {
        rc = may_replace(db, force);
        rc = rc != 0 ? rc : cli_output_check("sql", db, ins, nins);
    }
    char path[4096];
    for (size_t i = 0; dir != NULL && rc == 0 && i < sql_ntables; i++) {
        rc = export_path(path, sizeof path, dir, i, jsonl);
        rc = rc != 0 ? rc : may_replace(path, force);
        rc = rc != 0 ? rc : cli_output_check("sql", path, ins, nins); /* a trace named slice.csv */
    }
    return rc;
}

int sql_export(sqlite3 *db, const char *dir, int jsonl, int force) {
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "fxt sql: %s: %s\n", dir, strerror(errno));
        return CLI_EXIT_IO;
    }
    struct stat sb;
    if (stat(dir, &sb) != 0) {
        fprintf(stderr, "fxt sql: %s: %s\n", dir, strerror(errno));
        return CLI_EXIT_IO;
    }
    if (!S_ISDIR(sb.st_mode)) {
        fprintf(stderr, "fxt sql: %s: Not a directory\n", dir);
        return CLI_EXIT_IO;
    }
    /* Every name is checked before any file is written: a refusal leaves the directory as it was. */
    char path[4096];
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < sql_ntables; i++) {
            int rc = export_path(path, sizeof path, dir, i, jsonl);
            if (rc == 0) {
                rc = pass == 0 ? may_replace(path, force) : export_table(db, sql_tables[i], path, jsonl);
            }
            if (rc != 0) {
                return rc;
            }
        }
    }
    return 0;
}
