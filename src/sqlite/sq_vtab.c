/* SPDX-License-Identifier: MIT */
/*
 * libfxt_sqlite: one eponymous virtual table per table of sq_tables[] over the column
 * arrays. xBestIndex takes an equality or a range on an INTEGER column: rows already in
 * that column's order (ids, timestamps of a single trace) are found by binary search on the
 * rows, other columns through a sort order built on the first such query (4 bytes a row).
 */
#include "sq_sqlite.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct sq_vtab {
    sqlite3_vtab base;
    sq_modarg *m;
} sq_vtab;

typedef struct sq_cursor {
    sqlite3_vtab_cursor base;
    size_t lo, pos, end;  /* positions [lo, end) of the order, pos the scan's count from lo */
    const uint32_t *perm; /* NULL: rows in order */
    int desc;             /* the positions from the last one down */
    uint64_t gen;
} sq_cursor;

#ifndef SQ_EQ_SHARE
#define SQ_EQ_SHARE 64
#endif
enum { SQ_EQ = 1, SQ_LO = 2, SQ_LO_STRICT = 4, SQ_HI = 8, SQ_HI_STRICT = 16, SQ_ORDER = 32, SQ_DESC = 64 };

static int x_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
                     char **err) {
    (void)argc;
    (void)argv;
    (void)err;
    sq_modarg *m = aux;
    const sq_table *t = &sq_tables[m->table];
    char sql[1024];
    size_t len = (size_t)snprintf(sql, sizeof sql, "CREATE TABLE x(");
    for (int i = 0; i < t->ncols && len < sizeof sql; i++) {
        len += (size_t)snprintf(sql + len, sizeof sql - len, "%s %s, ", t->cols[i].name, t->cols[i].decl);
    }
    if (len >= sizeof sql - 16) {
        return SQLITE_ERROR;
    }
    snprintf(sql + len, sizeof sql - len, "trace TEXT)");
    int rc = sqlite3_declare_vtab(db, sql);
    if (rc != SQLITE_OK) {
        return rc;
    }
    sq_vtab *v = sqlite3_malloc(sizeof *v);
    if (!v) {
        return SQLITE_NOMEM;
    }
    memset(v, 0, sizeof *v);
    v->m = m;
    *out = &v->base;
    return SQLITE_OK;
}

static int x_disconnect(sqlite3_vtab *v) {
    sqlite3_free(v);
    return SQLITE_OK;
}

static int sq_int_col(const sq_table *t, int col) {
    return col >= 0 && col < t->ncols && strcmp(t->cols[col].decl, "INTEGER") == 0;
}

/*
 * Whether the scan can deliver the one ORDER BY column's order itself: an INTEGER column (its
 * sort order, as for constraints), or for GROUP BY / DISTINCT (SQLite 3.38's
 * sqlite3_vtab_distinct: equal values adjacent is enough) an interned TEXT column in the order
 * of its strings. Descending is the same order read from its end: SQLite may give a GROUP BY
 * the direction of an ORDER BY it then relies on. Only when the scan is not constrained on
 * another column.
 */
static int sq_order_by(const sq_table *t, sqlite3_index_info *info, int col) {
    if (info->nOrderBy != 1) {
        return 0;
    }
    int oc = info->aOrderBy[0].iColumn;
    if (oc < 0 || oc >= t->ncols || (col >= 0 && col != oc)) {
        return 0;
    }
    int distinct = sqlite3_libversion_number() >= 3038000 ? sqlite3_vtab_distinct(info) : 0;
    if ((distinct == 1 || distinct == 2) && (sq_int_col(t, oc) || t->cols[oc].decl == sq_interned_text)) {
        return 1; /* TEXT in byte order: right for a GROUP BY that SQLite also uses for ORDER BY */
    }
    return distinct != 1 && distinct != 2 && sq_int_col(t, oc);
}

static void sq_drop_index(sq_conn *c, int t);

/* `args` read on first use (sq_load_args), when a statement that uses it is prepared: before
 * any of its cursors, so no scan sees the rows change. */
static int sq_args_ready(sqlite3_vtab *vt, sq_conn *c) {
    int pending = 0;
    for (size_t i = 0; i < c->db.traces.n; i++) {
        pending |= c->db.traces.v[i].args_pending;
    }
    if (!pending) {
        return SQLITE_OK;
    }
    char err[600] = "";
    fxt_status st = sq_load_args(&c->db, err, sizeof err);
    /* The arguments interned new strings: the ranks cover the strings there were (the orders
     * built from them stay right: the old strings keep their relative order). Cursors never
     * read the ranks, only sq_order does. */
    free(c->rank);
    c->rank = NULL;
    sq_drop_index(c, SQ_T_ARGS); /* orders of the rows before */
    if (st == FXT_E_NOMEM) {
        return SQLITE_NOMEM;
    }
    if (st != FXT_OK) {
        sqlite3_free(vt->zErrMsg);
        vt->zErrMsg = sqlite3_mprintf("%s", err); /* says what (the arguments of which trace) */
        return SQLITE_ERROR;
    }
    return SQLITE_OK;
}

/* What a statement about to use this table needs made first: args (a second read), the
 * nesting (slice's depth and parent_id, flow). */
static int sq_ready(sqlite3_vtab *vt, const sqlite3_index_info *info) {
    const sq_vtab *v = (const sq_vtab *)vt;
    int ready = v->m->table == SQ_T_ARGS ? sq_args_ready(vt, v->m->conn) : SQLITE_OK;
    if (ready != SQLITE_OK) {
        return ready;
    }
    int nested = v->m->table == SQ_T_FLOW;
    for (int i = 0; i < sq_tables[v->m->table].ncols && i < 63 && !nested; i++) {
        nested = sq_col_nested(v->m->table, i) && (info->colUsed >> i & 1u);
    }
    return nested && sq_nest_pending(&v->m->conn->db) != 0 ? SQLITE_NOMEM : SQLITE_OK;
}

/* The constraints the scan takes: an equality on an INTEGER column (*best), else a range on one
 * (*lo, *hi); *col that column, -1 for none. */
static void sq_constraints(const sq_table *t, const sqlite3_index_info *info, int *best, int *lo, int *hi,
                           int *col) {
    *best = *lo = *hi = *col = -1;
    for (int i = 0; i < info->nConstraint; i++) { /* an equality first, the first one */
        const struct sqlite3_index_constraint *c = &info->aConstraint[i];
        if (c->usable && c->op == SQLITE_INDEX_CONSTRAINT_EQ && sq_int_col(t, c->iColumn) && *best < 0) {
            *best = i;
            *col = c->iColumn;
        }
    }
    for (int i = 0; *best < 0 && i < info->nConstraint; i++) { /* else a range on one column */
        const struct sqlite3_index_constraint *c = &info->aConstraint[i];
        int op = c->op;
        int is_lo = op == SQLITE_INDEX_CONSTRAINT_GT || op == SQLITE_INDEX_CONSTRAINT_GE;
        int is_hi = op == SQLITE_INDEX_CONSTRAINT_LT || op == SQLITE_INDEX_CONSTRAINT_LE;
        if (!c->usable || !(is_lo || is_hi) || !sq_int_col(t, c->iColumn) ||
            (*col >= 0 && c->iColumn != *col)) {
            continue;
        }
        if (is_lo && *lo < 0) {
            *lo = i;
            *col = c->iColumn;
        } else if (is_hi && *hi < 0) {
            *hi = i;
            *col = c->iColumn;
        }
    }
}

/* A scan in no order costs extra, as much as the biggest table's rows: SQLite prices the sort a
 * plan needs from its row estimates (ours are guesses), far below what sorting millions of rows
 * takes, and so would sort a join's rows rather than read a small table in a consumed order
 * first (issue 28's per-thread query: the threads by name, their tracks, their slices). */
static double sq_unordered_extra(const sq_db *db) {
    size_t most = 0;
    for (int i = 0; i < SQ_T_COUNT_; i++) {
        size_t r = sq_table_rows(db, i);
        most = r > most ? r : most;
    }
    return 1000.0 + (double)most;
}

static int x_best_index(sqlite3_vtab *vt, sqlite3_index_info *info) {
    const sq_vtab *v = (const sq_vtab *)vt;
    const sq_table *t = &sq_tables[v->m->table];
    int ready = sq_ready(vt, info);
    if (ready != SQLITE_OK) {
        return ready;
    }
    double rows = (double)sq_table_rows(&v->m->conn->db, v->m->table) + 1;
    int best, col, lo, hi;
    sq_constraints(t, info, &best, &lo, &hi, &col);
    int flags = 0, argi = 1;
    if (best >= 0) {
        /* a row number gives one row; another column some share of the table (unknown: a guess
         * that makes SQLite look up a big table by a small one's rows, not the other way) */
        flags = SQ_EQ;
        info->aConstraintUsage[best].argvIndex = argi++;
        if (sq_col_unique(v->m->table, col)) {
            info->estimatedCost = 1 + log2(rows);
            info->estimatedRows = 1;
            info->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
        } else {
            info->estimatedRows = 4 + (sqlite3_int64)(rows / SQ_EQ_SHARE);
            info->estimatedCost = 1 + log2(rows) + (double)info->estimatedRows;
        }
    } else if (lo >= 0 || hi >= 0) {
        if (lo >= 0) {
            flags |= SQ_LO | (info->aConstraint[lo].op == SQLITE_INDEX_CONSTRAINT_GT ? SQ_LO_STRICT : 0);
            info->aConstraintUsage[lo].argvIndex = argi++;
        }
        if (hi >= 0) {
            flags |= SQ_HI | (info->aConstraint[hi].op == SQLITE_INDEX_CONSTRAINT_LT ? SQ_HI_STRICT : 0);
            info->aConstraintUsage[hi].argvIndex = argi++;
        }
        info->estimatedCost = 20 + rows / (lo >= 0 && hi >= 0 ? 8 : 3);
        info->estimatedRows = (sqlite3_int64)(rows / (lo >= 0 && hi >= 0 ? 8 : 3)) + 1;
    } else {
        info->estimatedCost = rows * 2;
        info->estimatedRows = (sqlite3_int64)rows;
    }
    if (sq_order_by(t, info, col)) {
        col = info->aOrderBy[0].iColumn;
        flags |= SQ_ORDER | (info->aOrderBy[0].desc ? SQ_DESC : 0);
        info->orderByConsumed = 1;
    } else if (flags == 0) {
        info->estimatedCost += sq_unordered_extra(&v->m->conn->db);
    }
    info->idxNum = flags ? (col + 1) | (flags << 16) : 0;
    return SQLITE_OK;
}

static int x_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out) {
    (void)vt;
    sq_cursor *c = sqlite3_malloc(sizeof *c);
    if (!c) {
        return SQLITE_NOMEM;
    }
    memset(c, 0, sizeof *c);
    *out = &c->base;
    return SQLITE_OK;
}

static int x_close(sqlite3_vtab_cursor *cur) {
    sqlite3_free(cur);
    return SQLITE_OK;
}

/* ---- per-column orders ------------------------------------------------------------------ */

/* Forget table t's column orders. */
static void sq_drop_index(sq_conn *c, int t) {
    if (c->idx[t]) {
        for (int i = 0; i < sq_tables[t].ncols; i++) {
            free(c->idx[t][i].perm);
        }
        free(c->idx[t]);
        c->idx[t] = NULL;
    }
}

void sq_drop_indexes(sq_conn *c) {
    for (int t = 0; t < SQ_T_COUNT_; t++) {
        sq_drop_index(c, t);
    }
    free(c->rank);
    c->rank = NULL;
    c->idx_generation = c->db.generation;
}

typedef struct sq_rk {
    const char *p;
    uint32_t len, id;
} sq_rk;

static int sq_rk_cmp(const void *x, const void *y) {
    const sq_rk *a = x, *b = y;
    int c = memcmp(a->p, b->p, a->len < b->len ? a->len : b->len);
    return c ? c : (a->len > b->len) - (a->len < b->len);
}

/* Every string's rank in byte order (SQLite's BINARY collation of UTF-8). */
static const uint32_t *sq_ranks(sq_conn *c) {
    size_t n = c->db.str.tab.n;
    if (c->rank || n == 0) {
        return c->rank;
    }
    sq_rk *tmp = malloc(n * sizeof *tmp);
    c->rank = tmp ? malloc(n * sizeof *c->rank) : NULL;
    if (!c->rank) {
        free(tmp);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        tmp[i].p = c->db.str.tab.v[i].p ? c->db.str.tab.v[i].p : "";
        tmp[i].len = c->db.str.tab.v[i].len;
        tmp[i].id = (uint32_t)i;
    }
    qsort(tmp, n, sizeof *tmp, sq_rk_cmp);
    for (size_t i = 0; i < n; i++) {
        c->rank[tmp[i].id] = (uint32_t)i;
    }
    free(tmp);
    return c->rank;
}

static int64_t sq_key(const sq_db *db, sq_get_fn get, size_t row, const uint32_t *rank) {
    sq_val v;
    v.kind = SQ_NUL;
    v.i = 0;
    get(db, row, &v);
    /* NULL first: no comparison matches it; interned TEXT: its string's rank */
    if (v.kind == SQ_TEXT && rank) {
        return rank[v.i];
    }
    return v.kind == SQ_INT ? v.i : INT64_MIN;
}

/* The rows in key order by counting when the keys (NULL aside) span less than twice the rows:
 * track ids, string ranks, depths. No 8-byte key and radix buffer per row at the peak. 1 not
 * applicable, 0 done, -1 out of memory. */
static int sq_order_counting(const sq_db *db, sq_get_fn get, const uint32_t *rank, size_t n, uint32_t *out) {
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t i = 0; i < n; i++) {
        int64_t k = sq_key(db, get, i, rank);
        if (k != INT64_MIN) { /* NULL: the first bucket */
            lo = k < lo ? k : lo;
            hi = k > hi ? k : hi;
        }
    }
    uint64_t span = lo <= hi ? (uint64_t)hi - (uint64_t)lo + 1 : 0;
    if (span > 2 * (uint64_t)n + 1024 || span >= UINT32_MAX) {
        return 1;
    }
    uint32_t *at = calloc((size_t)span + 2, sizeof *at);
    if (!at) {
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        int64_t k = sq_key(db, get, i, rank);
        at[k == INT64_MIN ? 1 : (uint64_t)k - (uint64_t)lo + 2]++;
    }
    for (size_t b = 1; b < (size_t)span + 2; b++) {
        at[b] += at[b - 1]; /* at[b]: the first position of bucket b (NULL is bucket 0) */
    }
    for (size_t i = 0; i < n; i++) {
        int64_t k = sq_key(db, get, i, rank);
        out[at[k == INT64_MIN ? 0 : (uint64_t)k - (uint64_t)lo + 1]++] = (uint32_t)i;
    }
    free(at);
    return 0;
}

/* The order of `col` of table `t`: 0 and *perm NULL when the rows are in it already. */
static int sq_order(sq_conn *c, int t, int col, const uint32_t **perm) {
    if (c->idx_generation != c->db.generation) {
        sq_drop_indexes(c);
    }
    if (!c->idx[t] && !(c->idx[t] = calloc((size_t)sq_tables[t].ncols, sizeof *c->idx[t]))) {
        return -1;
    }
    struct sq_colidx *x = &c->idx[t][col];
    size_t n = sq_table_rows(&c->db, t);
    sq_get_fn get = sq_tables[t].cols[col].get;
    const uint32_t *rank = sq_tables[t].cols[col].decl == sq_interned_text ? sq_ranks(c) : NULL;
    if (sq_tables[t].cols[col].decl == sq_interned_text && !rank && c->db.str.tab.n) {
        return -1;
    }
    if (x->state == 0 && sq_col_sorted(t, col)) {
        x->state = 1;
    }
    if (x->state == 0) {
        int64_t prev = INT64_MIN;
        x->state = 1;
        for (size_t i = 0; i < n && x->state == 1; i++) {
            int64_t k = sq_key(&c->db, get, i, rank);
            x->state = k < prev ? 2 : 1;
            prev = k;
        }
    }
    if (x->state == 2 && !x->perm) {
        x->perm = malloc((n ? n : 1) * sizeof *x->perm);
        int rc = x->perm ? sq_order_counting(&c->db, get, rank, n, x->perm) : -1;
        uint64_t *keys = rc == 1 ? malloc((n ? n : 1) * sizeof *keys) : NULL;
        for (size_t i = 0; keys && i < n; i++) {
            keys[i] = (uint64_t)sq_key(&c->db, get, i, rank) ^ (UINT64_C(1) << 63); /* signed order */
        }
        rc = rc == 1 ? (keys ? sq_sort_u64(keys, n, x->perm) : -1) : rc;
        free(keys);
        if (rc != 0) {
            free(x->perm);
            x->perm = NULL;
            return -1;
        }
    }
    *perm = x->perm;
    return 0;
}

/* First position in [0, n) whose key is > k (strict) or >= k. */
static size_t sq_bound(const sq_db *db, sq_get_fn get, const uint32_t *perm, size_t n, int64_t k,
                       int strict) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int64_t v = sq_key(db, get, perm ? perm[mid] : mid, NULL);
        if (v < k || (strict && v == k)) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/* An argument as an integer bound. 0 ok, 1 no rows can match (NULL), 2 not usable (text). */
static int sq_arg_int(sqlite3_value *a, int is_upper, int64_t *out, int *strict) {
    switch (sqlite3_value_numeric_type(a)) {
    case SQLITE_INTEGER:
        *out = sqlite3_value_int64(a);
        return 0;
    case SQLITE_NULL:
        return 1;
    case SQLITE_FLOAT: {
        /* widen to the integers around it, not strict: SQLite checks the rows it gets again */
        double d = sqlite3_value_double(a);
        if (isnan(d)) {
            return 1;
        }
        d = is_upper ? ceil(d) : floor(d);
        *out = d >= 9.2e18 ? INT64_MAX : d <= -9.2e18 ? INT64_MIN : (int64_t)d;
        *strict = 0;
        return 0;
    }
    default:
        return 2;
    }
}

static int x_filter(sqlite3_vtab_cursor *cur, int idx_num, const char *idx_str, int argc,
                    sqlite3_value **argv) {
    (void)idx_str;
    sq_cursor *c = (sq_cursor *)cur;
    sq_vtab *v = (sq_vtab *)cur->pVtab;
    sq_conn *conn = v->m->conn;
    int t = v->m->table, col = (idx_num & 0xffff) - 1, flags = idx_num >> 16;
    size_t n = sq_table_rows(&conn->db, t);
    c->gen = conn->db.generation;
    c->perm = NULL;
    c->pos = c->lo = 0;
    c->end = n;
    c->desc = (flags & SQ_DESC) != 0;
    if (col < 0 || col >= sq_tables[t].ncols) {
        return SQLITE_OK;
    }
    if (sq_order(conn, t, col, &c->perm) != 0) {
        return SQLITE_NOMEM;
    }
    sq_get_fn get = sq_tables[t].cols[col].get;
    int ai = 0;
    for (int bit = SQ_EQ; bit <= SQ_HI; bit <<= 1) {
        if (!(flags & bit) || bit == SQ_LO_STRICT || ai >= argc) {
            continue;
        }
        int64_t k = 0;
        int strict = bit == SQ_LO   ? (flags & SQ_LO_STRICT) != 0
                     : bit == SQ_HI ? (flags & SQ_HI_STRICT) != 0
                                    : 0;
        int rc = sq_arg_int(argv[ai++], bit == SQ_HI, &k, &strict);
        if (rc == 1) {
            c->end = 0;
            return SQLITE_OK;
        }
        if (rc == 2) {
            continue;
        }
        size_t lo = 0, hi = 0;
        if (bit == SQ_EQ && sq_set_rows(&conn->db, t, col, k, &lo, &hi)) {
            c->pos = lo > c->pos ? lo : c->pos;
            c->end = hi < c->end ? hi : c->end;
            continue;
        }
        if (bit == SQ_EQ || bit == SQ_LO) {
            size_t p = sq_bound(&conn->db, get, c->perm, n, k, bit == SQ_LO && strict);
            c->pos = p > c->pos ? p : c->pos;
        }
        if (bit == SQ_EQ || bit == SQ_HI) {
            size_t p = sq_bound(&conn->db, get, c->perm, n, k, bit == SQ_EQ || !strict);
            c->end = p < c->end ? p : c->end;
        }
    }
    c->lo = c->pos;
    return SQLITE_OK;
}

/* An ordered scan prefetches its rows this many ahead, a block at a time: in an order the rows
 * are random accesses, and a block's misses overlap where one row's at a time do not. */
#define SQ_AHEAD 64u

static int x_next(sqlite3_vtab_cursor *cur) {
    sq_cursor *c = (sq_cursor *)cur;
    const sq_vtab *v = (const sq_vtab *)cur->pVtab;
    /* a trace opened meanwhile freed the orders (x_eof ends the scan): perm is not read again */
    if (++c->pos % SQ_AHEAD == 0 && c->perm && c->pos + SQ_AHEAD < c->end &&
        c->gen == v->m->conn->db.generation) {
        size_t k = c->end - c->pos - SQ_AHEAD;
        k = k < SQ_AHEAD ? k : SQ_AHEAD;
        /* the next block's positions: pos + AHEAD on, or down from the end when descending */
        size_t at = c->desc ? c->end - (c->pos - c->lo) - SQ_AHEAD - k : c->pos + SQ_AHEAD;
        sq_prefetch_rows(&v->m->conn->db, v->m->table, c->perm + at, k);
    }
    return SQLITE_OK;
}

static int x_eof(sqlite3_vtab_cursor *cur) {
    const sq_cursor *c = (const sq_cursor *)cur;
    const sq_vtab *v = (const sq_vtab *)cur->pVtab;
    /* a trace opened meanwhile (fxt_open in the same statement) ends the scan */
    return c->pos >= c->end || c->gen != v->m->conn->db.generation;
}

static size_t sq_cur_row(const sq_cursor *c) {
    size_t i = c->desc ? c->end - 1 - (c->pos - c->lo) : c->pos;
    return c->perm ? c->perm[i] : i;
}

/* A blob's payload, read from the file when asked for. */
static void sq_payload(sqlite3_context *ctx, const sq_trace *tr, const sq_val *val) {
    if (tr->compressed || val->len > (size_t)INT32_MAX) {
        sqlite3_result_null(ctx);
        return;
    }
    unsigned char *buf = sqlite3_malloc64(val->len ? val->len : 1);
    int fd = buf ? open(tr->path, O_RDONLY) : -1;
    ssize_t got = fd >= 0 ? pread(fd, buf, val->len, (off_t)val->i) : -1;
    if (fd >= 0) {
        close(fd);
    }
    if (got != (ssize_t)val->len) {
        sqlite3_free(buf);
        sqlite3_result_null(ctx); /* the file changed or went away since fxt_open */
        return;
    }
    sqlite3_result_blob64(ctx, buf, val->len, sqlite3_free);
}

static int x_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col) {
    const sq_cursor *c = (const sq_cursor *)cur;
    const sq_vtab *v = (const sq_vtab *)cur->pVtab;
    const sq_db *db = &v->m->conn->db;
    int t = v->m->table;
    size_t row = sq_cur_row(c);
    if (col >= sq_tables[t].ncols) {
        const sq_strv *s = &db->str.tab.v[db->traces.v[sq_row_trace(db, t, row)].label];
        sqlite3_result_text(ctx, s->p ? s->p : "", (int)s->len, SQLITE_STATIC);
        return SQLITE_OK;
    }
    sq_val val;
    memset(&val, 0, sizeof val);
    sq_tables[t].cols[col].get(db, row, &val);
    switch (val.kind) {
    case SQ_INT:
        sqlite3_result_int64(ctx, val.i);
        break;
    case SQ_REAL:
        sqlite3_result_double(ctx, val.d);
        break;
    case SQ_TEXT:
        sqlite3_result_text64(ctx, val.p, val.len, SQLITE_STATIC, SQLITE_UTF8);
        break;
    case SQ_BLOBREF:
        sq_payload(ctx, &db->traces.v[sq_row_trace(db, t, row)], &val);
        break;
    default:
        sqlite3_result_null(ctx);
        break;
    }
    return SQLITE_OK;
}

static int x_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *out) {
    *out = (sqlite3_int64)sq_cur_row((const sq_cursor *)cur);
    return SQLITE_OK;
}

static const sqlite3_module sq_module = {
    .iVersion = 0,
    .xCreate = NULL, /* eponymous only: the table exists under the module's name */
    .xConnect = x_connect,
    .xBestIndex = x_best_index,
    .xDisconnect = x_disconnect,
    .xDestroy = x_disconnect,
    .xOpen = x_open,
    .xClose = x_close,
    .xFilter = x_filter,
    .xNext = x_next,
    .xEof = x_eof,
    .xColumn = x_column,
    .xRowid = x_rowid,
};

int sq_register_tables(sqlite3 *db, sq_conn *c) {
    for (int t = 0; t < SQ_T_COUNT_; t++) {
        c->mods[t].conn = c;
        c->mods[t].table = t;
        int rc = sqlite3_create_module_v2(db, sq_tables[t].name, &sq_module, &c->mods[t], NULL);
        if (rc != SQLITE_OK) {
            return rc;
        }
    }
    return SQLITE_OK;
}
