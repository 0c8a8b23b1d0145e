/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for the SQLite extension: the input is written to a file, read by fxt_open()
 * and every column of every table is read back (strings, blobs read from the file). Damaged
 * records must become rows of `error`; any crash, leak or out-of-bounds read (under ASan) is
 * a bug; so are arguments that differ between a file's two reads and a pipe's one. tests/
 * test_sql_hostile.c runs it over the reader corpus, the foreign samples and mutants.
 */
#include <fxt/sqlite.h>

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What the last input gave: rows of error, and all rows read (-1: fxt_open failed). */
long long fuzz_sqlite_errors, fuzz_sqlite_rows;

static const char *const fuzz_sqlite_tables[] = {
    "slice",        "thread",        "process",       "track",
    "thread_track", "process_track", "counter_track", "counter",
    "flow",         "args",          "sched_slice",   "thread_state",
    "log",          "blob",          "kernel_object", "userspace_object",
    "provider",     "error",         "trace_file"};

static long long fuzz_sqlite_scan(sqlite3 *db, const char *sql) {
    sqlite3_stmt *st = NULL;
    long long rows = 0;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        abort(); /* the tables always exist */
    }
    while (sqlite3_step(st) == SQLITE_ROW) {
        for (int i = 0; i < sqlite3_column_count(st); i++) {
            const unsigned char *t = sqlite3_column_text(st, i);
            int n = sqlite3_column_bytes(st, i);
            volatile unsigned char sink = n > 0 && t ? t[n - 1] : 0; /* touch the last byte */
            (void)sink;
        }
        rows++;
    }
    sqlite3_finalize(st);
    return rows;
}

/* FNV-1a over every value of every row of a query. */
static uint64_t fuzz_sqlite_hash(sqlite3 *db, const char *sql) {
    sqlite3_stmt *st = NULL;
    uint64_t h = 14695981039346656037ull;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        abort();
    }
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        for (int i = 0; i < sqlite3_column_count(st); i++) {
            const unsigned char *t = sqlite3_column_text(st, i);
            int n = sqlite3_column_bytes(st, i);
            for (int k = 0; k < n; k++) {
                h = (h ^ t[k]) * 1099511628211ull;
            }
            h = (h ^ (uint64_t)(sqlite3_column_type(st, i) + 0x100)) * 1099511628211ull;
        }
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? h : 0;
}

/* The arguments and the sets that refer to them. */
static const char fuzz_sqlite_argq[] =
    "select (select group_concat(arg_set_id || key || ifnull(int_value, '') || ifnull(string_value, '') || "
    "ifnull(real_value, '') || value_type, ',') from args), (select group_concat(ifnull(arg_set_id, '-'), "
    "',') "
    "from slice), (select group_concat(ifnull(arg_set_id, '-'), ',') from kernel_object), (select "
    "group_concat(ifnull(arg_set_id, '-'), ',') from userspace_object)";

/* A file's `args` is read on first use by a second read (sq_load_args); a pipe's in the one
 * read. Both must give the same rows: the same bytes through a pipe (when the pipe holds them). */
static void fuzz_sqlite_same_args(sqlite3 *db, const uint8_t *data, size_t size) {
    int p[2];
    if (size > 65536 || pipe(p) != 0) {
        return;
    }
    ssize_t w = write(p[1], data, size);
    close(p[1]);
    sqlite3 *db2 = NULL;
    char sql[128];
    snprintf(sql, sizeof sql, "select fxt_open('/dev/fd/%d')", p[0]);
    if (w == (ssize_t)size && sqlite3_open(":memory:", &db2) == SQLITE_OK &&
        fxt_sqlite_register(db2) == FXT_OK && fuzz_sqlite_scan(db2, sql) == 1) {
        if (fuzz_sqlite_hash(db, fuzz_sqlite_argq) != fuzz_sqlite_hash(db2, fuzz_sqlite_argq)) {
            abort(); /* the second read gave other arguments than the one read */
        }
    }
    sqlite3_close(db2);
    close(p[0]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char path[] = "/tmp/fxt-fuzz-sqlite-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        return 0;
    }
    if (write(fd, data, size) != (ssize_t)size) {
        close(fd);
        unlink(path);
        return 0;
    }
    close(fd);
    sqlite3 *db = NULL;
    if (sqlite3_open(":memory:", &db) != SQLITE_OK || fxt_sqlite_register(db) != FXT_OK) {
        abort();
    }
    char sql[128];
    snprintf(sql, sizeof sql, "select fxt_open('%s')", path);
    fuzz_sqlite_rows = fuzz_sqlite_scan(db, sql) == 1 ? 0 : -1;
    for (size_t t = 0; t < sizeof fuzz_sqlite_tables / sizeof fuzz_sqlite_tables[0] && fuzz_sqlite_rows >= 0;
         t++) {
        snprintf(sql, sizeof sql, "select * from %s", fuzz_sqlite_tables[t]);
        fuzz_sqlite_rows += fuzz_sqlite_scan(db, sql);
    }
    /* the index paths too: a join through track_id and parent_id, a time range */
    fuzz_sqlite_scan(db,
                     "select count(*) from slice s join slice p on p.id = s.parent_id join thread_track t on "
                     "t.id = s.track_id where s.ts between 0 and 9223372036854775807");
    if (fuzz_sqlite_rows >= 0) {
        fuzz_sqlite_same_args(db, data, size);
    }
    sqlite3_stmt *st = NULL;
    fuzz_sqlite_errors = -1;
    if (sqlite3_prepare_v2(db, "select count(*) from error", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW) {
        fuzz_sqlite_errors = sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    unlink(path);
    return 0;
}
