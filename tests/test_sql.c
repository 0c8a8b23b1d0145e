/* SPDX-License-Identifier: MIT */
/*
 * The SQLite extension's tables (docs/sql.md), hand-computed: small traces written with
 * the writer, read by fxt_open() on an in-memory connection, queried, and every row
 * compared with what the spec and docs/sql.md say it must be.
 */
#include "test.h"

#include <fxt/reader.h>
#include <fxt/sqlite.h>
#include <fxt/writer.h>

#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- helpers ------------------------------------------------------------------------------- */

static char tmp_path[256];

/* Write `mb` to a fresh file in the build tree; returns its path (static storage). */
static const char *save(const fxt_membuf_t *mb, const char *name) {
    snprintf(tmp_path, sizeof tmp_path, "%s/sql-test-%s-%ld.fxt", FXT_BINARY_DIR, name, (long)getpid());
    FILE *f = fopen(tmp_path, "wb");
    CHECK(f != NULL);
    if (f) {
        CHECK_EQ_U64(fwrite(mb->data, 1, mb->len, f), mb->len);
        fclose(f);
    }
    return tmp_path;
}

static sqlite3 *open_db(void) {
    sqlite3 *db = NULL;
    CHECK(sqlite3_open(":memory:", &db) == SQLITE_OK);
    CHECK(fxt_sqlite_register(db) == FXT_OK);
    return db;
}

/* Rows of a query as "a|b|c;" ... (NULL as N); a prepare or step error as "ERR: message". */
static char result[16384];
static const char *q(sqlite3 *db, const char *sql) {
    sqlite3_stmt *st = NULL;
    size_t len = 0;
    result[0] = 0;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        snprintf(result, sizeof result, "ERR: %s", sqlite3_errmsg(db));
        return result;
    }
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        for (int i = 0; i < sqlite3_column_count(st); i++) {
            const char *v = (const char *)sqlite3_column_text(st, i);
            len += (size_t)snprintf(result + len, sizeof result - len, "%s%s", i ? "|" : "", v ? v : "N");
            if (len >= sizeof result) {
                len = sizeof result - 1;
            }
        }
        len += (size_t)snprintf(result + len, sizeof result - len, ";");
        if (len >= sizeof result) {
            len = sizeof result - 1;
        }
    }
    if (rc != SQLITE_DONE) {
        snprintf(result, sizeof result, "ERR: %s", sqlite3_errmsg(db));
    }
    sqlite3_finalize(st);
    return result;
}

#define CHECK_Q(db, sql, expect)                                                                             \
    do {                                                                                                     \
        const char *got_ = q(db, sql);                                                                       \
        fxt_test_checks++;                                                                                   \
        if (strcmp(got_, expect) != 0) {                                                                     \
            fprintf(stderr, "%s:%d: query %s\n  got    %s\n  expect %s\n", __FILE__, __LINE__, sql, got_,    \
                    expect);                                                                                 \
            fxt_test_failures++;                                                                             \
        }                                                                                                    \
    } while (0)

static fxt_writer_t *new_writer(fxt_membuf_t *mb) {
    fxt_writer_t *w = NULL;
    memset(mb, 0, sizeof *mb);
    CHECK(fxt_writer_create(NULL, fxt_sink_membuf(mb), &w) == FXT_OK);
    fxt_write_magic(w);
    return w;
}

static void finish_writer(fxt_writer_t *w) {
    CHECK(fxt_writer_finish(w) == FXT_OK);
    fxt_writer_destroy(w);
}

#define S(x) fxt_cstr(x)

/* ---- nesting ----------------------------------------------------------------------------- */

/* docs/stats.md's example, on thread 1/10: begin P@0, complete B 20..80, complete A 10..90,
 * end P@100, complete Y 220..280, complete X 200..300; an instant inside B; on thread 1/11 an
 * end without begin (ignored) and a begin never ended (dur -1). */
static void test_nesting(void) {
    fxt_membuf_t mb;
    fxt_writer_t *w = new_writer(&mb);
    fxt_write_provider_info(w, 1, S("p"));
    fxt_thread_ref_t t = fxt_thread(1, 10), u = fxt_thread(1, 11);
    fxt_write_duration_begin(w, 0, t, S("c"), S("P"), NULL, 0);
    fxt_write_duration_complete(w, 20, 80, t, S("c"), S("B"), NULL, 0);
    fxt_write_instant(w, 50, t, S("c"), S("i"), NULL, 0);
    fxt_write_duration_complete(w, 10, 90, t, S("c"), S("A"), NULL, 0);
    fxt_write_duration_end(w, 100, t, S("c"), S("P"), NULL, 0);
    fxt_write_duration_complete(w, 220, 280, t, S("c"), S("Y"), NULL, 0);
    fxt_write_duration_complete(w, 200, 300, t, S("c"), S("X"), NULL, 0);
    fxt_write_duration_end(w, 5, u, S("c"), S("orphan"), NULL, 0);
    fxt_write_duration_begin(w, 400, u, S("c"), S("open"), NULL, 0);
    finish_writer(w);
    sqlite3 *db = open_db();
    CHECK_Q(db, "select fxt_open('" FXT_BINARY_DIR "/none.fxt') is null",
            "ERR: fxt_open: cannot open " FXT_BINARY_DIR "/none.fxt: No such file or directory");
    CHECK_Q(db, "select count(*) from slice", "0;");
    CHECK_Q(db, "select fxt_open(null)", "ERR: fxt_open: a trace file path is required");
    char sql[512];
    snprintf(sql, sizeof sql, "select fxt_open('%s', 'nest')", save(&mb, "nesting"));
    CHECK_Q(db, sql, "22;"); /* with the writer's string and thread records */
    CHECK_Q(db,
            "select s.id, ts, dur, s.name, depth, parent_id, t.tid from slice s join thread_track tt on "
            "s.track_id = tt.id join thread t using(utid) order by s.id",
            "0|0|100|P|0|N|10;1|10|80|A|1|0|10;2|20|60|B|2|1|10;3|50|0|i|3|2|10;4|200|100|X|0|N|10;"
            "5|220|60|Y|1|4|10;6|400|-1|open|0|N|11;");
    /* self time through parent_id, as fxt stats computes it */
    CHECK_Q(
        db,
        "select p.name, p.dur - coalesce(sum(c.dur), 0) from slice p left join slice c on c.parent_id = p.id "
        "where p.dur > 0 group by p.id order by p.id",
        "P|20;A|20;B|60;X|40;Y|60;");
    CHECK_Q(db, "select sum(dur) from slice where depth = 0 and dur > 0", "200;");
    CHECK_Q(db, "select distinct trace from slice", "nest;");
    CHECK_Q(db, "select name from thread order by utid", "N;N;");
    /* the index paths give what a full scan gives */
    CHECK_Q(db, "select id from slice where ts between 10 and 50 order by id", "1;2;3;");
    CHECK_Q(db, "select id from slice where ts > 10 and ts < 220 order by id", "2;3;4;");
    CHECK_Q(db, "select id from slice where ts >= 10.5 and ts <= 49.5 order by id", "2;");
    CHECK_Q(db, "select id from slice where id = 5", "5;");
    CHECK_Q(db, "select id from slice where parent_id = 1", "2;");
    CHECK_Q(db, "select count(*) from slice where track_id = (select track_id from slice where id = 6)",
            "1;");
    CHECK_Q(db, "select count(*) from slice where ts = null", "0;");
    CHECK_Q(db, "select count(*) from slice where dur = -1", "1;");
    sqlite3_close(db);
    fxt_membuf_free(&mb);
    unlink(tmp_path);
}

/* ---- arguments ------------------------------------------------------------------------------ */

static void test_args(void) {
    fxt_membuf_t mb;
    fxt_writer_t *w = new_writer(&mb);
    fxt_thread_ref_t t = fxt_thread(1, 10);
    fxt_arg_t a[10] = {fxt_arg_null(S("n")),
                       fxt_arg_int32(S("i32"), -5),
                       fxt_arg_uint32(S("u32"), 4000000000u),
                       fxt_arg_int64(S("i64"), -2),
                       fxt_arg_uint64(S("u64"), 18446744073709551615ull),
                       fxt_arg_double(S("d"), 1.5),
                       fxt_arg_string(S("s"), S("hi")),
                       fxt_arg_pointer(S("p"), 0x1234),
                       fxt_arg_koid(S("k"), 153),
                       fxt_arg_bool(S("b"), 1)};
    fxt_write_instant(w, 1, t, S("c"), S("all"), a, 10);
    fxt_arg_t b1 = fxt_arg_int32(S("at_begin"), 1), e1 = fxt_arg_int32(S("at_end"), 2);
    fxt_arg_t m1 = fxt_arg_int32(S("mid"), 3);
    fxt_write_duration_begin(w, 2, t, S("c"), S("pair"), &b1, 1);
    fxt_write_instant(w, 3, t, S("c"), S("noargs"), NULL, 0);
    fxt_write_instant(w, 3, t, S("c"), S("between"), &m1, 1);
    fxt_write_duration_end(w, 4, t, S("c"), S("pair"), &e1, 1);
    /* nested pairs on another thread: two sets take late rows, one more set between them */
    fxt_thread_ref_t u = fxt_thread(1, 11);
    fxt_arg_t ob = fxt_arg_int32(S("ob"), 1), ib = fxt_arg_int32(S("ib"), 2), x = fxt_arg_int32(S("x"), 3);
    fxt_arg_t ie[2] = {fxt_arg_int32(S("ie"), 4), fxt_arg_int32(S("ie2"), 5)}, oe = fxt_arg_int32(S("oe"), 6);
    fxt_write_duration_begin(w, 5, u, S("c"), S("outer"), &ob, 1);
    fxt_write_duration_begin(w, 6, u, S("c"), S("inner"), &ib, 1);
    fxt_write_instant(w, 7, u, S("c"), S("x"), &x, 1);
    fxt_write_duration_end(w, 8, u, S("c"), S("inner"), ie, 2);
    fxt_write_duration_end(w, 9, u, S("c"), S("outer"), &oe, 1);
    finish_writer(w);
    sqlite3 *db = open_db();
    char sql[512];
    snprintf(sql, sizeof sql, "select fxt_open('%s')", save(&mb, "args"));
    q(db, sql);
    CHECK_Q(db,
            "select key, flat_key = key, int_value, string_value, real_value, value_type from args where "
            "arg_set_id = (select arg_set_id from slice where name = 'all') order by id",
            "n|1|N|N|N|null;i32|1|-5|N|N|int;u32|1|4000000000|N|N|int;i64|1|-2|N|N|int;u64|1|-1|N|N|uint;"
            "d|1|N|N|1.5|real;s|1|N|hi|N|string;p|1|4660|N|N|pointer;k|1|153|N|N|uint;b|1|1|N|N|bool;");
    /* the end's arguments join the begin's set (as Perfetto does) */
    CHECK_Q(
        db,
        "select s.name, a.key, a.int_value from slice s join args a using(arg_set_id) where s.name = 'pair' "
        "order by a.id",
        "pair|at_begin|1;pair|at_end|2;");
    CHECK_Q(db, "select arg_set_id from slice where name = 'noargs'", "N;");
    CHECK_Q(db, "select count(distinct arg_set_id), count(*) from args", "6|19;");
    CHECK_Q(db, "select group_concat(key || ':' || arg_set_id, ' ') from args where id >= 13",
            "ob:3 oe:3 ib:4 ie:4 ie2:4 x:5;");
    CHECK_Q(
        db,
        "select s.name, group_concat(a.key, ' ') from slice s join args a using(arg_set_id) where s.name in "
        "('outer', 'inner', 'x') group by s.name order by s.name",
        "inner|ib ie ie2;outer|ob oe;x|x;");
    /* rows grouped by set although the end's argument came after another set's */
    CHECK_Q(db, "select key, arg_set_id from args where key in ('at_begin', 'at_end', 'mid') order by id",
            "at_begin|1;at_end|1;mid|2;");
    sqlite3_close(db);
    fxt_membuf_free(&mb);
    unlink(tmp_path);
}

/* `args` comes from a second read of the file when first used (sq_load_args); a pipe, read once,
 * gives the rows in that read. The same bytes both ways must give the same rows: a writer with
 * 3 string slots re-registers them between records (the second read's string cache must follow),
 * ends add to their begins' sets, objects and async events have sets too. */
static void args_shapes(fxt_membuf_t *mb) {
    fxt_writer_options_t opt = FXT_WRITER_OPTIONS_INIT;
    opt.max_strings = 3;
    fxt_writer_t *w = NULL;
    memset(mb, 0, sizeof *mb);
    CHECK(fxt_writer_create(&opt, fxt_sink_membuf(mb), &w) == FXT_OK);
    fxt_write_magic(w);
    fxt_thread_ref_t t = fxt_thread(1, 10);
    char key[16], val[16], name[16];
    for (int i = 0; i < 24; i++) {
        snprintf(key, sizeof key, "k%d", i);
        snprintf(val, sizeof val, "v%d", i);
        snprintf(name, sizeof name, "e%d", i);
        fxt_arg_t a[2] = {fxt_arg_string(S(key), S(val)), fxt_arg_int64(S("n"), i)};
        if (i % 3 == 0) {
            fxt_write_duration_begin(w, (uint64_t)(10 * i), t, S("c"), S(name), a, 2);
        } else if (i % 3 == 1) {
            fxt_write_instant(w, (uint64_t)(10 * i), t, S("c"), S(name), a, 1);
        } else {
            fxt_write_duration_end(w, (uint64_t)(10 * i), t, S("c"), S(name), a, 2);
        }
    }
    fxt_arg_t ka = fxt_arg_string(S("kobj"), S("yes"));
    fxt_write_kernel_object(w, 99, FXT_OBJ_PROCESS, S("proc"), &ka, 1);
    fxt_event_desc_t ev;
    memset(&ev, 0, sizeof ev);
    ev.type = FXT_EVENT_ASYNC_BEGIN;
    ev.ts = 500;
    ev.thread = t;
    ev.category = S("c");
    ev.name = S("async");
    ev.id = 5;
    ev.args = &ka;
    ev.nargs = 1;
    CHECK(fxt_write_event(w, &ev) == FXT_OK);
    finish_writer(w);
}

#define ARGS_Q                                                                                               \
    "select group_concat(arg_set_id || ':' || key || '=' || ifnull(int_value, '') || ifnull(string_value, "  \
    "''), ' ') from args"

static void test_args_second_read(void) {
    fxt_membuf_t mb;
    args_shapes(&mb);
    CHECK(mb.len < 65536); /* a pipe holds it */
    const char *path = save(&mb, "args2");
    sqlite3 *file = open_db(), *once = open_db();
    char sql[600], expect[16384];
    snprintf(sql, sizeof sql, "select fxt_open('%s')", path);
    q(file, sql);
    int p[2];
    CHECK(pipe(p) == 0);
    CHECK_EQ_U64((uint64_t)write(p[1], mb.data, mb.len), mb.len);
    close(p[1]);
    snprintf(sql, sizeof sql, "select fxt_open('/dev/fd/%d')", p[0]);
    q(once, sql);
    close(p[0]);
    snprintf(expect, sizeof expect, "%s", q(once, ARGS_Q));
    CHECK(strstr(expect, "k4=v4") != NULL && strstr(expect, "kobj=yes") != NULL);
    CHECK_Q(file, ARGS_Q, expect);
    CHECK_Q(file, "select group_concat(ifnull(arg_set_id, '-'), ' ') from slice",
            q(once, "select group_concat(ifnull(arg_set_id, '-'), ' ') from slice"));
    /* an end's string argument in its begin's set, through a re-registered slot */
    CHECK_Q(file,
            "select group_concat(key || '=' || ifnull(string_value, int_value), ' ') from args where "
            "arg_set_id = (select arg_set_id from slice where name = 'e3')",
            "k3=v3 n=3 k5=v5 n=5;");
    sqlite3_close(once);

    /* the file changed (or went away) before `args` was first used: an error, no rows */
    sqlite3 *late = open_db();
    snprintf(sql, sizeof sql, "select fxt_open('%s')", path);
    q(late, sql);
    FILE *f = fopen(path, "ab");
    CHECK(f != NULL);
    if (f) {
        fputs("12345678", f);
        fclose(f);
    }
    snprintf(expect, sizeof expect,
             "ERR: the arguments of %s cannot be read: the file changed since fxt_open", path);
    CHECK_Q(late, "select count(*) from args", expect);
    CHECK_Q(late, "select count(*) from slice where name = 'e3'", "1;"); /* the other tables stay */
    sqlite3_close(late);
    /* rewritten in place with its size and time put back: the second read sees other records */
    FILE *g = fopen(path, "wb");
    CHECK(g != NULL);
    if (g) {
        CHECK_EQ_U64(fwrite(mb.data, 1, mb.len, g), mb.len);
        fclose(g);
    }
    struct stat sb;
    CHECK(stat(path, &sb) == 0);
    late = open_db();
    q(late, sql);
    int fd = open(path, O_WRONLY);
    CHECK(fd >= 0);
    if (fd >= 0) {
        static const char zeros[4096];
        size_t half = mb.len / 2 & ~(size_t)7, n = mb.len - half;
        CHECK(pwrite(fd, zeros, n < sizeof zeros ? n : sizeof zeros, (off_t)half) > 0);
        struct timespec times[2] = {sb.st_atim, sb.st_mtim};
        CHECK(futimens(fd, times) == 0);
        close(fd);
    }
    CHECK_Q(late, "select count(*) from args", expect);
    unlink(path);
    snprintf(expect, sizeof expect,
             "ERR: the arguments of %s cannot be read: the file went away since fxt_open", path);
    CHECK_Q(late, "select count(*) from args", expect);
    sqlite3_close(late);
    sqlite3_close(file);
    fxt_membuf_free(&mb);
}

/* An order by a string column built before `args` is read (string ranks), then one by an
 * argument's key: the keys are strings the ranks did not know. */
static void test_args_after_orders(void) {
    fxt_membuf_t mb;
    args_shapes(&mb);
    const char *path = save(&mb, "args3");
    sqlite3 *db = open_db();
    char sql[600];
    snprintf(sql, sizeof sql, "select fxt_open('%s')", path);
    q(db, sql);
    CHECK_Q(db, "select name from slice group by name order by name limit 3", "async;e0;e1;");
    CHECK_Q(db, "select group_concat(key, ' ') from (select key from args group by key order by key)",
            "k0 k1 k10 k11 k12 k13 k14 k15 k16 k17 k18 k19 k2 k20 k21 k22 k23 k3 k4 k5 k6 k7 k8 k9 kobj n;");
    CHECK_Q(
        db,
        "select group_concat(key, ' ') from (select key from args group by key order by key desc limit 3)",
        "n kobj k9;");
    sqlite3_close(db);
    fxt_membuf_free(&mb);
    unlink(path);
}

/* ---- flows and async ------------------------------------------------------------------------ */

/* Flow 7: begin inside S1 (thread 10), step inside S2 (thread 11), end inside S3 (thread 10).
 * Flow 8 begins in provider 1 and ends in provider 2 (parent to child). Flow 9 is open in
 * providers 1 and 2 and ends in provider 3: ambiguous, no row. Async 5: begin, instant, end. */
static void flow_event(fxt_writer_t *w, uint32_t type, uint64_t ts, fxt_thread_ref_t t, uint64_t id) {
    fxt_event_desc_t ev;
    memset(&ev, 0, sizeof ev);
    ev.type = type;
    ev.ts = ts;
    ev.thread = t;
    ev.category = S("c");
    ev.name = S("f");
    ev.id = id;
    CHECK(fxt_write_event(w, &ev) == FXT_OK);
}

static void test_flows(void) {
    fxt_membuf_t mb;
    fxt_writer_t *w = new_writer(&mb);
    fxt_thread_ref_t t = fxt_thread(1, 10), u = fxt_thread(1, 11);
    fxt_write_provider_info(w, 1, S("one"));
    fxt_write_duration_complete(w, 10, 20, t, S("c"), S("S1"), NULL, 0);
    flow_event(w, FXT_EVENT_FLOW_BEGIN, 15, t, 7);
    fxt_write_duration_complete(w, 30, 40, u, S("c"), S("S2"), NULL, 0);
    flow_event(w, FXT_EVENT_FLOW_STEP, 35, u, 7);
    fxt_write_duration_begin(w, 50, t, S("c"), S("S3"), NULL, 0);
    flow_event(w, FXT_EVENT_FLOW_END, 50, t, 7); /* at the slice's start: it encloses it */
    fxt_write_duration_end(w, 60, t, S("c"), S("S3"), NULL, 0);
    fxt_write_duration_complete(w, 100, 110, t, S("c"), S("P1"), NULL, 0);
    flow_event(w, FXT_EVENT_FLOW_BEGIN, 105, t, 8);
    flow_event(w, FXT_EVENT_FLOW_BEGIN, 105, t, 9);
    flow_event(w, FXT_EVENT_FLOW_BEGIN, 111, t, 10); /* outside any slice: no binding */
    fxt_write_event(w, &(fxt_event_desc_t){.type = FXT_EVENT_ASYNC_BEGIN,
                                           .ts = 1,
                                           .thread = t,
                                           .category = S("c"),
                                           .name = S("op"),
                                           .id = 5});
    fxt_write_event(w, &(fxt_event_desc_t){.type = FXT_EVENT_ASYNC_INSTANT,
                                           .ts = 2,
                                           .thread = u,
                                           .category = S("c"),
                                           .name = S("step"),
                                           .id = 5});
    fxt_write_event(
        w,
        &(fxt_event_desc_t){
            .type = FXT_EVENT_ASYNC_END, .ts = 9, .thread = u, .category = S("c"), .name = S("op"), .id = 5});
    fxt_write_provider_info(w, 2, S("two"));
    fxt_thread_ref_t v = fxt_thread(2, 20);
    fxt_write_duration_complete(w, 120, 130, v, S("c"), S("C2"), NULL, 0);
    flow_event(w, FXT_EVENT_FLOW_END, 125, v, 8);
    flow_event(w, FXT_EVENT_FLOW_BEGIN, 126, v, 9);
    fxt_write_provider_info(w, 3, S("three"));
    fxt_thread_ref_t x = fxt_thread(3, 30);
    fxt_write_duration_complete(w, 140, 150, x, S("c"), S("C3"), NULL, 0);
    flow_event(w, FXT_EVENT_FLOW_END, 145, x, 9);
    flow_event(w, FXT_EVENT_FLOW_END, 146, x, 10);
    finish_writer(w);
    sqlite3 *db = open_db();
    char sql[1024];
    snprintf(sql, sizeof sql, "select fxt_open('%s')", save(&mb, "flows"));
    q(db, sql);
    CHECK_Q(
        db,
        "select o.name, i.name, f.trace_id from flow f join slice o on o.id = f.slice_out join slice i on "
        "i.id = f.slice_in order by f.id",
        "S1|S2|7;S2|S3|7;P1|C2|8;");
    CHECK_Q(
        db,
        "select s.ts, s.dur, s.name, s.depth, coalesce(p.name, 'N'), t.type, t.name from slice s join track "
        "t on "
        "t.id = s.track_id left join slice p on p.id = s.parent_id where t.type = 'fxt_async' order by s.id",
        "1|8|op|0|N|fxt_async|op;2|0|step|1|op|fxt_async|op;");
    CHECK_Q(db, "select count(*), min(upid) from process_track", "1|0;");
    sqlite3_close(db);
    /* The nesting (depth, parent_id, flows) is made when a statement first uses it, for every
     * trace in order: two traces opened before it, queried first without it. */
    db = open_db();
    snprintf(sql, sizeof sql, "select fxt_open('%s', 'a'), fxt_open('%s', 'b')", tmp_path, tmp_path);
    q(db, sql);
    CHECK_Q(db, "select trace, count(*) from slice group by trace order by trace", "a|8;b|8;");
    CHECK_Q(db,
            "select f.trace, o.trace, o.name, i.trace, i.name from flow f join slice o on o.id = f.slice_out "
            "join "
            "slice i on i.id = f.slice_in order by f.id",
            "a|a|S1|a|S2;a|a|S2|a|S3;a|a|P1|a|C2;b|b|S1|b|S2;b|b|S2|b|S3;b|b|P1|b|C2;");
    CHECK_Q(db, "select trace, sum(depth), count(parent_id) from slice group by trace order by trace",
            "a|1|1;b|1|1;");
    sqlite3_close(db);
    fxt_membuf_free(&mb);
    unlink(tmp_path);
}

/* ---- counters, ticks ------------------------------------------------------------------------ */

static void test_counters(void) {
    fxt_membuf_t mb;
    fxt_writer_t *w = new_writer(&mb);
    fxt_write_provider_info(w, 1, S("p"));
    fxt_write_init(w, 1000000); /* 1 tick = 1 us */
    fxt_thread_ref_t t = fxt_thread(1, 10);
    fxt_arg_t a[3] = {fxt_arg_int64(S("value"), 5), fxt_arg_double(S("rate"), 0.25),
                      fxt_arg_string(S("s"), S("x"))};
    fxt_write_counter(w, 3, t, S("c"), S("mem"), 2, a, 3);
    a[0] = fxt_arg_int64(S("value"), 7);
    fxt_write_counter(w, 4, t, S("c"), S("mem"), 2, a, 1);
    fxt_write_instant(w, 7, t, S("c"), S("i"), NULL, 0);
    finish_writer(w);
    sqlite3 *db = open_db();
    char sql[512];
    snprintf(sql, sizeof sql, "select fxt_open('%s')", save(&mb, "counters"));
    q(db, sql);
    CHECK_Q(db,
            "select c.ts, t.name, c.value, t.upid from counter c join counter_track t on t.id = c.track_id "
            "order by "
            "c.id",
            "3000|mem:value:2|5.0|0;3000|mem:rate:2|0.25|0;4000|mem:value:2|7.0|0;");
    CHECK_Q(db, "select ts from slice", "7000;");
    CHECK_Q(db, "select provider_id, name, ticks_per_second, events from provider where provider_id = 1",
            "1|p|1000000|3;");
    sqlite3_close(db);
    fxt_membuf_free(&mb);
    unlink(tmp_path);
}

/* ---- scheduling ------------------------------------------------------------------------------- */

/* cpu 0: t=100 A(1) in, idle out; t=150 wakeup of B(2); t=200 B in, A out blocked (3);
 * t=300 A in (legacy record, prio 20), B out suspended (2). */
static void test_sched(void) {
    fxt_membuf_t mb;
    fxt_writer_t *w = new_writer(&mb);
    fxt_write_provider_info(w, 1, S("k"));
    fxt_write_kernel_object(w, 5, FXT_OBJ_PROCESS, S("proc"), NULL, 0);
    fxt_arg_t pa = fxt_arg_koid(S("process"), 5);
    fxt_write_kernel_object(w, 1, FXT_OBJ_THREAD, S("A"), &pa, 1);
    fxt_write_kernel_object(w, 2, FXT_OBJ_THREAD, S("B"), &pa, 1);
    fxt_write_context_switch(w, 100, 0, FXT_THREAD_RUNNING, 0, 1, NULL, 0);
    fxt_write_thread_wakeup(w, 150, 0, 2, NULL, 0);
    fxt_write_context_switch(w, 200, 0, FXT_THREAD_BLOCKED, 1, 2, NULL, 0);
    fxt_write_legacy_context_switch(w, 300, 0, FXT_THREAD_SUSPENDED, fxt_thread(5, 2), fxt_thread(5, 1), 10,
                                    20);
    finish_writer(w);
    sqlite3 *db = open_db();
    char sql[512];
    snprintf(sql, sizeof sql, "select fxt_open('%s')", save(&mb, "sched"));
    q(db, sql);
    CHECK_Q(db,
            "select s.ts, s.dur, s.cpu, t.tid, coalesce(t.name, 'N'), coalesce(s.end_state, 'N'), "
            "coalesce(s.priority, "
            "'N') from sched_slice s join thread t using(utid) order by s.ts",
            "100|100|0|1|A|S|N;200|100|0|2|B|T|N;300|-1|0|1|A|N|20;");
    CHECK_Q(db,
            "select s.ts, s.dur, t.tid, s.state, coalesce(w.tid, 'N') from thread_state s join thread t "
            "using(utid) "
            "left join thread w on w.utid = s.waker_utid where t.tid != 0 order by s.id",
            "100|100|1|Running|N;150|50|2|W|1;200|100|1|S|N;200|100|2|Running|N;300|-1|2|T|N;300|-1|1|"
            "Running|N;");
    CHECK_Q(db, "select p.pid, p.name from thread t join process p using(upid) where t.tid = 1", "5|proc;");
    CHECK_Q(db, "select koid, type, name, process_koid from kernel_object order by id",
            "5|process|proc|N;1|thread|A|5;2|thread|B|5;");
    sqlite3_close(db);
    fxt_membuf_free(&mb);
    unlink(tmp_path);
}

/* ---- the other records, several traces, errors -------------------------------------------- */

static void test_records(void) {
    fxt_membuf_t mb;
    fxt_writer_t *w = new_writer(&mb);
    fxt_write_provider_info(w, 4, S("p4"));
    fxt_arg_t clk[4] = {fxt_arg_uint64(S("clock_ticks"), 1000),
                        fxt_arg_uint64(S("clock_ticks_per_second"), 1000000000),
                        fxt_arg_uint64(S("clock_monotonic_ns"), 77),
                        fxt_arg_uint64(S("clock_realtime_ns"), 1700000000000000000ull)};
    fxt_write_kernel_object(w, 9, FXT_OBJ_PROCESS, S("app"), clk, 4);
    fxt_thread_ref_t t = fxt_thread(9, 90);
    fxt_write_log(w, 12, t, S("hello log"));
    fxt_write_blob(w, S("b"), 1, "abcde", 5);
    fxt_write_userspace_object(w, 0xabc, 9, S("obj"), NULL, 0);
    fxt_write_provider_event(w, 4, FXT_PROVIDER_EVENT_BUFFER_FULL);
    fxt_arg_t cnt = fxt_arg_uint64(S("count"), 17);
    fxt_write_instant(w, 13, fxt_thread(9, 0), S("fxt"), S("records_dropped"), &cnt, 1);
    finish_writer(w);
    sqlite3 *db = open_db();
    char sql[512];
    snprintf(sql, sizeof sql, "select fxt_open('%s', 'first')", save(&mb, "records"));
    q(db, sql);
    CHECK_Q(db, "select l.ts, l.msg, t.tid from log l join thread t using(utid)", "12|hello log|90;");
    CHECK_Q(db, "select name, record, blob_type, size, payload, ts from blob", "b|blob|1|5|abcde|N;");
    CHECK_Q(db, "select ptr, pid, name from userspace_object", "2748|9|obj;");
    CHECK_Q(db,
            "select provider_id, name, buffer_full_reports, records_dropped, clock_ticks, clock_realtime_ns, "
            "clock_monotonic_ns from provider where provider_id = 4",
            "4|p4|1|17|1000|1700000000000000000|77;");
    CHECK_Q(db, "select name from process", "app;");
    /* a second trace: its rows follow, with its own label */
    snprintf(sql, sizeof sql, "select fxt_open('%s')", tmp_path);
    q(db, sql);
    snprintf(sql, sizeof sql, "select trace, count(*) from log group by 1 order by 1");
    char expect[600];
    snprintf(expect, sizeof expect, "%s|1;first|1;", tmp_path);
    CHECK_Q(db, sql, expect);
    CHECK_Q(db, "select id, records, errors from trace_file", "0|20|0;1|20|0;");
    CHECK_Q(db, "select count(*) from log where ts = 12", "2;");
    CHECK_Q(db, "select count(distinct utid) from log", "2;");
    sqlite3_close(db);
    /* a damaged record: a row of error, the rest read */
    size_t cut = mb.len;
    uint64_t bad = 0x0000000000000ff4ull; /* an event record claiming 255 words at the end */
    fxt_membuf_t mb2 = {NULL, 0, 0};
    fxt_sink_t sk = fxt_sink_membuf(&mb2);
    (void)sk;
    mb2.data = malloc(cut + 16);
    CHECK(mb2.data != NULL);
    if (!mb2.data) {
        return;
    }
    memcpy(mb2.data, mb.data, cut);
    memcpy(mb2.data + cut, &bad, 8);
    mb2.len = cut + 8;
    db = open_db();
    snprintf(sql, sizeof sql, "select fxt_open('%s')", save(&mb2, "damaged"));
    q(db, sql);
    snprintf(expect, sizeof expect, "%zu|FXT_E_TRUNCATED|1;", cut);
    CHECK_Q(db, "select offset, status, length(message) > 0 from error", expect);
    CHECK_Q(db, "select count(*) from log", "1;");
    CHECK_Q(db, "select errors from trace_file", "1;");
    sqlite3_close(db);
    free(mb2.data);
    fxt_membuf_free(&mb);
    unlink(tmp_path);
}

/* ORDER BY, GROUP BY and DISTINCT answered by the tables' own orders give what SQLite gives
 * on a plain copy of the same rows (names first met out of byte order, NULLs, DESC). */
static void test_order(void) {
    fxt_membuf_t mb;
    fxt_writer_t *w = new_writer(&mb);
    static const char *const names[] = {"zeta", "Alpha", "mid", "alpha", "", "zeta", "mid", "b"};
    for (unsigned i = 0; i < 40; i++) {
        fxt_thread_ref_t t = fxt_thread(1, 10 + i % 3);
        fxt_arg_t a = fxt_arg_int32(S("k"), (int32_t)(i * 7 % 5));
        fxt_write_duration_complete(w, 1000 - i * 13 % 700, 1000 - i * 13 % 700 + i % 4, t,
                                    S(names[(i * 5) % 8]), S(names[i % 8]), &a, i % 2);
    }
    finish_writer(w);
    sqlite3 *db = open_db();
    char sql[512];
    snprintf(sql, sizeof sql, "select fxt_open('%s')", save(&mb, "order"));
    q(db, sql);
    q(db, "create table s as select * from slice");
    q(db, "create table a as select * from args");
    static const char *const queries[] = {
        "select name, count(*), sum(dur) from %s group by name",
        "select category, count(*) from %s group by 1 order by 1",
        "select category, count(*) from %s group by 1 order by 1 desc",
        "select distinct name from %s order by 1",
        "select distinct name from %s order by 1 desc",
        "select name from %s group by name order by name collate nocase, name",
        "select ts, id from %s order by ts, id",
        "select ts from %s order by ts desc",
        "select dur, count(*) from %s group by dur",
        "select category, name, count(*) from %s group by 1, 2 order by 1 desc, 2",
        "select arg_set_id, count(*) from %s where arg_set_id is not null group by 1",
    };
    for (size_t i = 0; i < sizeof queries / sizeof queries[0]; i++) {
        char qv[512], qt[512], expect[sizeof result];
        snprintf(qt, sizeof qt, queries[i], "s");
        snprintf(expect, sizeof expect, "%s", q(db, qt));
        snprintf(qv, sizeof qv, queries[i], "slice");
        CHECK_Q(db, qv, expect);
    }
    CHECK_Q(db, "select count(*) from (select key from args group by key order by key)", "1;");
    sqlite3_close(db);
    fxt_membuf_free(&mb);
    unlink(tmp_path);
}

/* A long run of slices starting at the same time (sorted apart from short runs): the longer
 * encloses the shorter whatever the file order; instants come after the durations. */
static void test_same_time(void) {
    fxt_membuf_t mb;
    fxt_writer_t *w = new_writer(&mb);
    fxt_thread_ref_t t = fxt_thread(1, 10);
    for (unsigned i = 1; i <= 50; i++) {
        fxt_write_duration_complete(w, 100, 100 + (i * 37 % 50) + 1, t, S("c"), S("d"), NULL, 0);
        if (i % 10 == 0) {
            fxt_write_instant(w, 100, t, S("c"), S("i"), NULL, 0);
        }
    }
    fxt_write_duration_begin(w, 100, t, S("c"), S("open"), NULL, 0);
    finish_writer(w);
    sqlite3 *db = open_db();
    char sql[512];
    snprintf(sql, sizeof sql, "select fxt_open('%s')", save(&mb, "same"));
    q(db, sql);
    CHECK_Q(db, "select name, dur, depth from slice order by id limit 3", "open|-1|0;d|50|1;d|49|2;");
    CHECK_Q(db, "select count(*), min(depth), max(depth) from slice where name = 'i'", "5|51|51;");
    CHECK_Q(db,
            "select count(*) from slice s join slice p on p.id = s.parent_id where p.dur != -1 and p.dur <= "
            "s.dur",
            "0;");
    sqlite3_close(db);
    fxt_membuf_free(&mb);
    unlink(tmp_path);
}

/* Durations of 2^32 - 2 ns (4.29 s) and more are kept apart from the slices' 32-bit ones: the
 * same values, order of equal starts (longer first) and nesting as short ones. */
static void test_long_durations(void) {
    fxt_membuf_t mb;
    fxt_writer_t *w = new_writer(&mb);
    fxt_thread_ref_t t = fxt_thread(1, 10);
    const uint64_t s = 1000000000u;
    fxt_write_duration_begin(w, 0, t, S("c"), S("P"), NULL, 0);
    fxt_write_async_begin(w, 0, t, S("c"), S("as"), 7, NULL, 0);
    fxt_write_duration_complete(w, s, s + 4294967293u, t, S("c"), S("B"), NULL, 0);
    fxt_write_duration_complete(w, s, s + 4294967294u, t, S("c"), S("C"), NULL, 0);
    fxt_write_duration_complete(w, s, 9 * s, t, S("c"), S("A"), NULL, 0);
    fxt_write_instant(w, 2 * s, t, S("c"), S("i"), NULL, 0);
    fxt_write_async_end(w, 6 * s, t, S("c"), S("as"), 7, NULL, 0);
    fxt_write_duration_end(w, 10 * s, t, S("c"), S("P"), NULL, 0);
    finish_writer(w);
    sqlite3 *db = open_db();
    char sql[512];
    snprintf(sql, sizeof sql, "select fxt_open('%s', 'first')", save(&mb, "long"));
    q(db, sql);
    CHECK_Q(db, "select id, dur, name, depth, parent_id from slice order by id",
            "0|10000000000|P|0|N;1|6000000000|as|0|N;2|8000000000|A|1|0;3|4294967294|C|2|2;"
            "4|4294967293|B|3|3;5|0|i|4|4;");
    CHECK_Q(db, "select sum(dur), count(*) from slice where dur >= 4294967293", "32589934587|5;");
    CHECK_Q(db, "select name from slice where dur = 4294967294", "C;");
    /* a second trace: its long durations and the first one's both stay */
    snprintf(sql, sizeof sql, "select fxt_open('%s', 'again')", tmp_path);
    q(db, sql);
    CHECK_Q(db,
            "select trace, sum(dur), count(*) from slice where dur >= 4294967293 group by trace order by 1",
            "again|32589934587|5;first|32589934587|5;");
    sqlite3_close(db);
    fxt_membuf_free(&mb);
    unlink(tmp_path);
}

int main(int argc, char **argv) {
    TEST_INIT(argc, argv);
    RUN(test_nesting);
    RUN(test_args);
    RUN(test_args_second_read);
    RUN(test_args_after_orders);
    RUN(test_flows);
    RUN(test_counters);
    RUN(test_sched);
    RUN(test_records);
    RUN(test_order);
    RUN(test_same_time);
    RUN(test_long_durations);
    return TEST_EXIT();
}
