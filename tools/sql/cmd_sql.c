/* SPDX-License-Identifier: MIT */
/*
 * fxt sql: SQL over traces (docs/sql.md). The traces are read into an in-memory SQLite
 * database through the fxt_sqlite extension (src/sqlite/, linked in), then the query (or the
 * `;`-separated queries on standard input) runs and its rows print as a table, CSV or JSON
 * Lines; --db writes the tables to a SQLite file, --export to CSV / JSON Lines files.
 * Built without SQLite, the command is there (help, docs) and says what is missing.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_io.h"

/* A fixed bound keeps the config static (no allocation while parsing arguments). */
#define MAX_TRACES 1024

typedef struct sql_config {
    const char *pos[MAX_TRACES + 1]; /* the traces, then maybe the query */
    unsigned npos;
    int csv, json, force;
    const char *db, *export_dir;
    unsigned export_format; /* 0 csv, 1 jsonl */
} sql_config_t;

static const char *const export_formats[] = {"csv", "jsonl", NULL};

static const cli_opt_t sql_opts[] = {
    CLI_FLAG(sql_config_t, csv, "csv", 0, "print rows as CSV (a header line, RFC 4180 quoting, NULL empty)"),
    CLI_FLAG(sql_config_t, json, "json", 0, "print rows as JSON Lines, one object per row"),
    CLI_STRING(sql_config_t, db, "db", 0, "FILE",
               "write every table, with indexes, to a new SQLite database FILE (any SQLite tool opens it)"),
    CLI_STRING(sql_config_t, export_dir, "export", 0, "DIR",
               "write every table to DIR/TABLE.csv (created if absent)"),
    CLI_CHOICE(sql_config_t, export_format, "export-format", export_formats, "FORMAT",
               "files of --export: csv (default) or jsonl (JSON Lines)"),
    CLI_FLAG(sql_config_t, force, "force", 0, "replace an existing --db file or --export files"),
};

static const cli_spec_t sql_spec = {
    "sql",
    sql_opts,
    sizeof sql_opts / sizeof sql_opts[0],
    NULL,
    sizeof(sql_config_t),
    "TRACE",
    offsetof(sql_config_t, pos),
    offsetof(sql_config_t, npos) + 1,
    1,
    MAX_TRACES + 1,
};

#ifndef FXT_HAVE_SQLITE

static int sql_run(void *config) {
    (void)config;
    fprintf(stderr, "fxt sql: this fxt was built without SQLite (install libsqlite3-dev and rebuild)\n");
    return CLI_EXIT_USAGE;
}

#else

#include <fxt/sqlite.h>

#include "sql.h"

/* The last argument is the query when it holds white space and names no file ("select 1" is
 * a query, "my trace.fxt" a trace when it exists): SQL needs a space, file names rarely have one. */
static int is_query(const char *a) {
    struct stat sb;
    return strpbrk(a, " \t\n\r") != NULL && stat(a, &sb) != 0;
}

/* Reads all of standard input (the queries). NULL after a message when it cannot. */
static char *read_stdin(void) {
    size_t len = 0, cap = 4096;
    char *buf = malloc(cap);
    while (buf != NULL) {
        if (len + 1 == cap) {
            char *nb = realloc(buf, cap * 2);
            if (nb == NULL) {
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t n = fread(buf + len, 1, cap - 1 - len, stdin);
        len += n;
        if (n == 0) {
            if (ferror(stdin)) {
                fprintf(stderr, "fxt sql: <stdin>: %s\n", strerror(errno));
                free(buf);
                return NULL;
            }
            buf[len] = '\0';
            return buf;
        }
    }
    free(buf);
    fprintf(stderr, "fxt sql: out of memory reading the queries\n");
    return NULL;
}

/* SQLite's code as an exit status: out of memory 4, I/O 3, anything else (a bad query) 2. */
static int sql_exit(int code) {
    code &= 0xff;
    return code == SQLITE_NOMEM ? CLI_EXIT_LIMIT : code == SQLITE_IOERR ? CLI_EXIT_IO : CLI_EXIT_USAGE;
}

/* Reads one trace into the database: SELECT fxt_open(path, label). 0 or an exit code. */
static int open_trace(sqlite3 *db, const char *path, const char *label) {
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, "SELECT fxt_open(?1, ?2)", -1, &st, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, label, -1, SQLITE_STATIC);
        rc = sqlite3_step(st);
    }
    if (rc != SQLITE_ROW) {
        fprintf(stderr, "fxt sql: %s: %s\n", label, sqlite3_errmsg(db));
        sqlite3_finalize(st);
        /* the extension's own errors (a missing file, an unreadable one) are the input's */
        return (rc & 0xff) == SQLITE_NOMEM ? CLI_EXIT_LIMIT : CLI_EXIT_IO;
    }
    sqlite3_finalize(st);
    return 0;
}

/* Runs every statement of `sql`, printing their rows. 0 or an exit code (a bad statement: 2,
 * with SQLite's message; the statements before it have run and printed). */
static int run_queries(sqlite3 *db, const char *sql, sql_fmt fmt, sql_out_t *o) {
    int printed = 0;
    while (sql != NULL && *sql != '\0') {
        sqlite3_stmt *st = NULL;
        const char *tail = NULL;
        int rc = sqlite3_prepare_v2(db, sql, -1, &st, &tail);
        if (rc == SQLITE_OK && st == NULL) {
            break; /* only white space or comments left */
        }
        if (rc == SQLITE_OK) {
            int cols = sqlite3_column_count(st);
            rc = sql_print_rows(st, fmt, o, printed);
            printed |= cols > 0;
            rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
        }
        if (rc != SQLITE_OK) {
            sql_out_flush(o);
            if (rc == SQLITE_IOERR && o->err != 0) {
                cli_output_error("sql", o->err);
                sqlite3_finalize(st);
                return CLI_EXIT_IO;
            }
            fprintf(stderr, "fxt sql: %s\n", sqlite3_errmsg(db));
            sqlite3_finalize(st);
            return sql_exit(rc);
        }
        sqlite3_finalize(st);
        sql = tail;
    }
    return 0;
}

/* Damaged records of all the traces (rows of `error`): said on stderr, exit status 1. */
static int damage(sqlite3 *db) {
    sqlite3_stmt *st = NULL;
    long long n = 0;
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM error", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW) {
        n = sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    if (n > 0) {
        fprintf(stderr, "fxt sql: %lld damaged record%s (the rows of table error)\n", n, n == 1 ? "" : "s");
        return CLI_EXIT_DATA;
    }
    return 0;
}

/* Opens the database and reads every trace into it. 0 or an exit code. */
/* Reads the traces; standard input's copy stays open in *spool (the extension reads a trace's
 * arguments again when a query first uses them: docs/sql.md), closed after the queries. */
static int load(sqlite3 **dbp, const char *const *traces, unsigned n, int *spool) {
    sqlite3 *db = NULL;
    if (sqlite3_open(":memory:", &db) != SQLITE_OK || fxt_sqlite_register(db) != FXT_OK) {
        fprintf(stderr, "fxt sql: cannot start SQLite: %s\n", db ? sqlite3_errmsg(db) : "out of memory");
        sqlite3_close(db);
        return CLI_EXIT_LIMIT;
    }
    *dbp = db;
    int rc = 0;
    for (unsigned i = 0; i < n && rc == 0; i++) {
        char path[4096];
        int fd = -1;
        /* standard input ("-") is copied to a file the extension reads */
        rc = strcmp(traces[i], "-") == 0 ? cli_input_spool("sql", traces[i], path, sizeof path, &fd)
                                         : cli_input_check("sql", traces[i]);
        if (rc == 0) {
            rc = open_trace(db, fd >= 0 ? path : traces[i], traces[i]);
        }
        if (fd >= 0 && *spool >= 0) {
            close(fd); /* "-" again: standard input has nothing more, its copy is empty */
        } else if (fd >= 0) {
            *spool = fd;
        }
    }
    return rc;
}

/* Checks the command line; the query (NULL: none given) and the number of traces. */
static int sql_check(const sql_config_t *cfg, const char **query, unsigned *ntraces) {
    *query = NULL;
    *ntraces = cfg->npos;
    if (cfg->npos > 0 && is_query(cfg->pos[cfg->npos - 1])) {
        *query = cfg->pos[--*ntraces];
    }
    if (*ntraces == 0) {
        fprintf(stderr, "fxt sql: no trace given (usage: fxt sql TRACE... [QUERY])\n");
        return CLI_EXIT_USAGE;
    }
    if (*ntraces > MAX_TRACES) {
        fprintf(stderr, "fxt sql: at most %d traces\n", MAX_TRACES);
        return CLI_EXIT_USAGE;
    }
    if (cfg->csv && cfg->json) {
        fprintf(stderr, "fxt sql: --csv and --json exclude each other\n");
        return CLI_EXIT_USAGE;
    }
    for (unsigned i = 0; i < *ntraces && *query == NULL && !cfg->db && !cfg->export_dir; i++) {
        if (strcmp(cfg->pos[i], "-") == 0) {
            fprintf(stderr, "fxt sql: the trace is standard input, so the query must be an argument\n");
            return CLI_EXIT_USAGE;
        }
    }
    /* stdout appended to an input (`>> IN`) would change the trace while it is read */
    int rc = cli_output_check("sql", NULL, cfg->pos, *ntraces);
    /* a refused output is said before a long read, not after */
    return rc != 0 ? rc
                   : sql_outputs_check(cfg->db, cfg->export_dir, cfg->export_format == 1, cfg->force,
                                       cfg->pos, *ntraces);
}

static int sql_run(void *config) {
    const sql_config_t *cfg = config;
    const char *query;
    unsigned n;
    int rc = sql_check(cfg, &query, &n);
    sqlite3 *db = NULL;
    int spool = -1;
    if (rc == 0) {
        rc = load(&db, cfg->pos, n, &spool);
    }
    if (rc == 0 && cfg->db != NULL) {
        rc = sql_write_db(db, cfg->db, cfg->force, cfg->pos, n);
    }
    if (rc == 0 && cfg->export_dir != NULL) {
        rc = sql_export(db, cfg->export_dir, cfg->export_format == 1, cfg->force);
    }
    /* With --db or --export the query is optional: standard input is read only when asked. */
    char *in = NULL;
    if (rc == 0 && query == NULL && cfg->db == NULL && cfg->export_dir == NULL) {
        in = read_stdin();
        rc = in == NULL ? CLI_EXIT_IO : 0;
        query = in;
    }
    if (rc == 0 && query != NULL) {
        static sql_out_t out;
        static int fd1 = 1;
        sql_out_init(&out, fxt_sink_fd(&fd1));
        rc = run_queries(db, query, cfg->csv ? SQL_FMT_CSV : cfg->json ? SQL_FMT_JSON : SQL_FMT_TABLE, &out);
        if (sql_out_flush(&out) != 0 && rc == 0) {
            cli_output_error("sql", out.err);
            rc = CLI_EXIT_IO;
        }
    }
    if (rc == 0) {
        rc = damage(db);
    }
    free(in);
    sqlite3_close(db);
    if (spool >= 0) {
        close(spool);
    }
    return rc;
}

#endif /* FXT_HAVE_SQLITE */

const cli_command_t cli_cmd_sql = {
    "sql",
    sql_run,
    NULL,
    "SQL over traces: Perfetto-shaped tables (slice, thread, args, ...)",
    "fxt sql [options] TRACE... [QUERY]",
    "Read the traces into an in-memory SQLite database (tables slice, thread, process,\n"
    "thread_track, counter, flow, args, sched_slice, thread_state, log, provider, error, ...:\n"
    "docs/sql.md; a `trace` column says which trace a row is from) and run QUERY, or the\n"
    "`;`-separated queries read from standard input; rows print as an aligned table.\n"
    "The last argument is the QUERY when it contains white space and is not a file.\n"
    "--db and --export write the tables (then a query is optional).\n",
    &sql_spec,
    "exit status: 0 ok, 1 a trace had damaged records (rows of table error; the queries\n"
    "ran over everything readable), 2 usage error or a bad query (SQLite's message),\n"
    "3 I/O error (a trace that cannot be read, an output that cannot be written),\n"
    "4 out of memory\n",
};
