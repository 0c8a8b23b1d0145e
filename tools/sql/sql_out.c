/* SPDX-License-Identifier: MIT */
/*
 * fxt sql's output: the rows of a statement as an aligned table, CSV or JSON Lines
 * (docs/sql.md#fxt-sql). A table's column widths come from its first TABLE_ROWS rows, which are
 * held; later rows stream with those widths (a longer cell widens only its own line), so a
 * result of any size prints in bounded memory.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_json.h"
#include "sql.h"

#define TABLE_ROWS 1000
/* A table shows at most this many bytes of a blob (CSV and JSON have all of it). */
#define TABLE_BLOB 32

void sql_out_init(sql_out_t *o, fxt_sink_t sink) {
    o->sink = sink;
    o->err = 0;
    o->len = 0;
}

int sql_out_flush(sql_out_t *o) {
    if (o->err == 0 && o->len > 0) {
        errno = 0;
        if (o->sink.write(o->sink.ctx, o->buf, o->len) != FXT_OK) {
            o->err = errno != 0 ? errno : EIO;
        }
    }
    o->len = 0;
    return o->err;
}

void sql_out_put(sql_out_t *o, const char *s, size_t n) {
    if (o->err != 0) {
        return;
    }
    if (o->len + n > sizeof o->buf) {
        sql_out_flush(o);
        if (n > sizeof o->buf) {
            errno = 0;
            if (o->err == 0 && o->sink.write(o->sink.ctx, s, n) != FXT_OK) {
                o->err = errno != 0 ? errno : EIO;
            }
            return;
        }
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
}

static void put_s(sql_out_t *o, const char *s) { sql_out_put(o, s, strlen(s)); }

/* ---- one cell as text ------------------------------------------------------------------- */

/* A growable string; `oom` once an allocation failed (the text is then cut short). */
typedef struct dbuf {
    char *p;
    size_t len, cap;
    int oom;
} dbuf_t;

static void db_add(dbuf_t *b, const char *s, size_t n) {
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1) {
            cap *= 2;
        }
        char *p = realloc(b->p, cap);
        if (p == NULL) {
            b->oom = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void db_addc(dbuf_t *b, char c) { db_add(b, &c, 1); }

/* The shortest of %.15g..%.17g that reads back as the same double. */
static void real_text(double v, char *out, size_t cap) {
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(out, cap, "%.*g", prec, v);
        if (strtod(out, NULL) == v) {
            return;
        }
    }
}

static void hex_add(dbuf_t *b, const unsigned char *p, size_t n) {
    static const char hx[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        char two[2] = {hx[p[i] >> 4], hx[p[i] & 15]};
        db_add(b, two, 2);
    }
}

/* Text for a table cell: control characters escaped so a row stays on one line. */
static void table_text(dbuf_t *b, const unsigned char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        unsigned char c = s[i];
        if (c >= 0x20 && c != 0x7f) {
            db_addc(b, (char)c);
        } else if (c == '\n' || c == '\t' || c == '\r') {
            db_add(b, c == '\n' ? "\\n" : c == '\t' ? "\\t" : "\\r", 2);
        } else {
            char esc[8];
            snprintf(esc, sizeof esc, "\\x%02x", c);
            db_add(b, esc, 4);
        }
    }
}

static void db_put(void *ctx, const char *p, size_t n) { db_add(ctx, p, n); }

/* A JSON string literal (cli_json.h: control characters escaped, bytes that are not UTF-8
 * become U+FFFD, so a hostile trace's strings still make valid JSON). */
static void json_text(dbuf_t *b, const unsigned char *s, size_t n) {
    cli_json_str_to(db_put, b, (const char *)s, n);
}

/* CSV field: quoted when it holds a comma, quote, CR or LF (RFC 4180), or is empty text (so an
 * empty string differs from NULL, which is an empty field). */
static void csv_text(dbuf_t *b, const unsigned char *s, size_t n) {
    int quote = n == 0 || memchr(s, ',', n) || memchr(s, '"', n) || memchr(s, '\n', n) || memchr(s, '\r', n);
    if (!quote) {
        db_add(b, (const char *)s, n);
        return;
    }
    db_addc(b, '"');
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"') {
            db_addc(b, '"');
        }
        db_addc(b, (char)s[i]);
    }
    db_addc(b, '"');
}

/* Column i of the current row, appended to b in fmt. */
static void cell(dbuf_t *b, sqlite3_stmt *st, int i, sql_fmt fmt) {
    char num[40];
    switch (sqlite3_column_type(st, i)) {
    case SQLITE_NULL:
        db_add(b,
               fmt == SQL_FMT_TABLE  ? "NULL"
               : fmt == SQL_FMT_JSON ? "null"
                                     : "",
               fmt == SQL_FMT_CSV ? 0 : 4);
        return;
    case SQLITE_INTEGER:
        snprintf(num, sizeof num, "%lld", (long long)sqlite3_column_int64(st, i));
        db_add(b, num, strlen(num));
        return;
    case SQLITE_FLOAT: {
        double v = sqlite3_column_double(st, i);
        if (!isfinite(v)) {
            /* JSON has no infinity or NaN */
            snprintf(num, sizeof num, "%s",
                     fmt == SQL_FMT_JSON ? "null"
                     : isnan(v)          ? "NaN"
                     : v > 0             ? "Inf"
                                         : "-Inf");
        } else {
            real_text(v, num, sizeof num);
        }
        db_add(b, num, strlen(num));
        return;
    }
    case SQLITE_BLOB: {
        const unsigned char *p = sqlite3_column_blob(st, i);
        size_t n = (size_t)sqlite3_column_bytes(st, i);
        int cut = fmt == SQL_FMT_TABLE && n > TABLE_BLOB;
        db_add(b,
               fmt == SQL_FMT_TABLE  ? "x'"
               : fmt == SQL_FMT_JSON ? "\""
                                     : "",
               fmt == SQL_FMT_CSV ? 0 : 2 - (fmt == SQL_FMT_JSON));
        hex_add(b, p, cut ? TABLE_BLOB : n);
        if (fmt != SQL_FMT_CSV) {
            db_add(b, cut ? "'..." : fmt == SQL_FMT_TABLE ? "'" : "\"", cut ? 4 : 1);
        }
        return;
    }
    default: {
        const unsigned char *s = sqlite3_column_text(st, i);
        size_t n = (size_t)sqlite3_column_bytes(st, i);
        if (s == NULL) {
            s = (const unsigned char *)"";
        }
        if (fmt == SQL_FMT_TABLE) {
            table_text(b, s, n);
        } else if (fmt == SQL_FMT_JSON) {
            json_text(b, s, n);
        } else {
            csv_text(b, s, n);
        }
    }
    }
}

/* ---- CSV and JSON Lines: streamed ------------------------------------------------------- */

static void csv_header(sql_out_t *o, sqlite3_stmt *st, dbuf_t *b) {
    int n = sqlite3_column_count(st);
    b->len = 0;
    for (int i = 0; i < n; i++) {
        const char *name = sqlite3_column_name(st, i);
        if (i > 0) {
            db_addc(b, ',');
        }
        csv_text(b, (const unsigned char *)(name ? name : ""), name ? strlen(name) : 0);
    }
    db_addc(b, '\n');
    sql_out_put(o, b->p, b->len);
}

/* One row as a CSV line or a JSON object line. */
static void stream_row(sql_out_t *o, sqlite3_stmt *st, sql_fmt fmt, dbuf_t *b) {
    int n = sqlite3_column_count(st);
    b->len = 0;
    if (fmt == SQL_FMT_JSON) {
        db_addc(b, '{');
    }
    for (int i = 0; i < n; i++) {
        if (i > 0) {
            db_addc(b, ',');
        }
        if (fmt == SQL_FMT_JSON) {
            const char *name = sqlite3_column_name(st, i);
            json_text(b, (const unsigned char *)(name ? name : ""), name ? strlen(name) : 0);
            db_addc(b, ':');
        }
        cell(b, st, i, fmt);
    }
    db_add(b, fmt == SQL_FMT_JSON ? "}\n" : "\n", fmt == SQL_FMT_JSON ? 2 : 1);
    sql_out_put(o, b->p, b->len);
}

/* ---- the aligned table ------------------------------------------------------------------ */

/* The first rows, held to size the columns: cell text in one arena, offsets per cell. */
typedef struct held {
    dbuf_t text;
    size_t *off; /* rows * ncols + 1 offsets into text */
    size_t rows, cap;
    int ncols;
    size_t *width;
    unsigned char *right; /* numbers are right-aligned, from the first row's types */
} held_t;

/* Display width: UTF-8 code points (continuation bytes do not count). */
static size_t width_of(const char *s, size_t n) {
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        w += ((unsigned char)s[i] & 0xc0) != 0x80;
    }
    return w;
}

static void pad(sql_out_t *o, size_t n) {
    static const char sp[] = "                                ";
    while (n > 0) {
        size_t k = n < sizeof sp - 1 ? n : sizeof sp - 1;
        sql_out_put(o, sp, k);
        n -= k;
    }
}

/* One line: cells separated by two spaces, padded to the widths (the last left cell unpadded). */
static void table_line(sql_out_t *o, const held_t *h, const char *const *cells, const size_t *lens) {
    for (int i = 0; i < h->ncols; i++) {
        size_t w = width_of(cells[i], lens[i]);
        size_t fill = w < h->width[i] ? h->width[i] - w : 0;
        if (i > 0) {
            sql_out_put(o, "  ", 2);
        }
        if (h->right[i]) {
            pad(o, fill);
        }
        sql_out_put(o, cells[i], lens[i]);
        if (!h->right[i] && i + 1 < h->ncols) {
            pad(o, fill);
        }
    }
    sql_out_put(o, "\n", 1);
}

/* Renders the current row into h; `sizing`: it also widens the columns (and the first row
 * decides the alignment). */
static int held_add_row(held_t *h, sqlite3_stmt *st, int sizing) {
    if (h->rows == h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 64;
        size_t *off = realloc(h->off, (cap * (size_t)h->ncols + 1) * sizeof *off);
        if (off == NULL) {
            return -1;
        }
        h->off = off;
        h->cap = cap;
    }
    for (int i = 0; i < h->ncols; i++) {
        size_t k = h->rows * (size_t)h->ncols + (size_t)i;
        h->off[k] = h->text.len;
        cell(&h->text, st, i, SQL_FMT_TABLE);
        if (!sizing || h->text.oom) {
            continue;
        }
        size_t w = width_of(h->text.p + h->off[k], h->text.len - h->off[k]);
        if (w > h->width[i]) {
            h->width[i] = w;
        }
        if (h->rows == 0) {
            int t = sqlite3_column_type(st, i);
            h->right[i] = t == SQLITE_INTEGER || t == SQLITE_FLOAT;
        }
    }
    h->rows++;
    h->off[h->rows * (size_t)h->ncols] = h->text.len;
    return h->text.oom ? -1 : 0;
}

/* Prints the held rows (cells: scratch of ncols pointers and lengths). */
static void held_print(sql_out_t *o, const held_t *h, const char **cells, size_t *lens) {
    for (size_t r = 0; r < h->rows; r++) {
        for (int i = 0; i < h->ncols; i++) {
            size_t k = r * (size_t)h->ncols + (size_t)i;
            cells[i] = h->text.p + h->off[k];
            lens[i] = h->off[k + 1] - h->off[k];
        }
        table_line(o, h, cells, lens);
    }
}

/* Header and rule under it. */
static int table_head(sql_out_t *o, held_t *h, sqlite3_stmt *st, const char **cells, size_t *lens) {
    dbuf_t rule = {0};
    for (int i = 0; i < h->ncols; i++) {
        cells[i] = sqlite3_column_name(st, i);
        cells[i] = cells[i] ? cells[i] : "";
        lens[i] = strlen(cells[i]);
        size_t w = width_of(cells[i], lens[i]);
        if (w > h->width[i]) {
            h->width[i] = w;
        }
    }
    table_line(o, h, cells, lens);
    for (int i = 0; i < h->ncols; i++) {
        if (i > 0) {
            db_add(&rule, "  ", 2);
        }
        for (size_t k = 0; k < h->width[i]; k++) {
            db_addc(&rule, '-');
        }
    }
    db_addc(&rule, '\n');
    sql_out_put(o, rule.p, rule.len);
    int oom = rule.oom;
    free(rule.p);
    return oom ? -1 : 0;
}

static void held_free(held_t *h) {
    free(h->text.p);
    free(h->off);
    free(h->width);
    free(h->right);
}

/* The aligned table: the first TABLE_ROWS rows held, then streamed. SQLITE_DONE or an error. */
static int print_table(sqlite3_stmt *st, sql_out_t *o) {
    held_t h = {.ncols = sqlite3_column_count(st)};
    h.width = calloc((size_t)h.ncols, sizeof *h.width);
    h.right = calloc((size_t)h.ncols, 1);
    const char **cells = calloc((size_t)h.ncols, sizeof *cells);
    size_t *lens = calloc((size_t)h.ncols, sizeof *lens);
    int rc = h.width && h.right && cells && lens ? SQLITE_ROW : SQLITE_NOMEM;
    while (rc == SQLITE_ROW && h.rows < TABLE_ROWS && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        rc = held_add_row(&h, st, 1) == 0 ? SQLITE_ROW : SQLITE_NOMEM;
    }
    if (rc == SQLITE_ROW || rc == SQLITE_DONE) {
        if (table_head(o, &h, st, cells, lens) != 0) {
            rc = SQLITE_NOMEM;
        }
        held_print(o, &h, cells, lens);
    }
    while (rc == SQLITE_ROW && o->err == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        h.rows = 0;
        h.text.len = 0;
        rc = held_add_row(&h, st, 0) == 0 ? SQLITE_ROW : SQLITE_NOMEM;
        held_print(o, &h, cells, lens);
    }
    held_free(&h);
    free(cells);
    free(lens);
    return o->err != 0 ? SQLITE_IOERR : rc;
}

int sql_print_rows(sqlite3_stmt *st, sql_fmt fmt, sql_out_t *o, int sep) {
    if (sqlite3_column_count(st) == 0) {
        int rc;
        while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        }
        return rc;
    }
    if (sep && fmt != SQL_FMT_JSON) {
        put_s(o, "\n");
    }
    if (fmt == SQL_FMT_TABLE) {
        return print_table(st, o);
    }
    dbuf_t b = {0};
    if (fmt == SQL_FMT_CSV) {
        csv_header(o, st, &b);
    }
    int rc = SQLITE_OK; /* set by the first step; gcc -Og cannot see it */
    while (o->err == 0 && !b.oom && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        stream_row(o, st, fmt, &b);
    }
    int oom = b.oom;
    free(b.p);
    return o->err != 0 ? SQLITE_IOERR : oom ? SQLITE_NOMEM : rc;
}
