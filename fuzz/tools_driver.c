/* SPDX-License-Identifier: MIT */
/*
 * Every fxt subcommand on one input, in-process (cli_main), so thousands of
 * hostile inputs cost milliseconds instead of a process launch each. The
 * subcommands write to stdout; the driver points file descriptor 1 (and 2)
 * at files in its scratch directory for the duration of each call.
 */
#include "tools_driver.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_json.h"

/* ---- a strict JSON validator (RFC 8259), recursive with a depth limit ---- */

typedef struct {
    const unsigned char *p, *end;
    int depth;
} jv_t;

static void jv_ws(jv_t *j) {
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')) {
        j->p++;
    }
}

static int jv_lit(jv_t *j, const char *lit) {
    size_t n = strlen(lit);
    if ((size_t)(j->end - j->p) < n || memcmp(j->p, lit, n) != 0) {
        return 0;
    }
    j->p += n;
    return 1;
}

static int jv_digits(jv_t *j) {
    const unsigned char *s = j->p;
    while (j->p < j->end && *j->p >= '0' && *j->p <= '9') {
        j->p++;
    }
    return j->p > s;
}

static int jv_number(jv_t *j) {
    if (j->p < j->end && *j->p == '-') {
        j->p++;
    }
    if (j->p < j->end && *j->p == '0') {
        j->p++; /* no leading zeros */
    } else if (!jv_digits(j)) {
        return 0;
    }
    if (j->p < j->end && *j->p == '.') {
        j->p++;
        if (!jv_digits(j)) {
            return 0;
        }
    }
    if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
        j->p++;
        if (j->p < j->end && (*j->p == '+' || *j->p == '-')) {
            j->p++;
        }
        if (!jv_digits(j)) {
            return 0;
        }
    }
    return 1;
}

static int jv_string(jv_t *j) {
    const unsigned char *start = ++j->p; /* after the opening quote */
    while (j->p < j->end) {
        unsigned c = *j->p;
        if (c == '"') {
            /* escapes are ASCII, so the raw span is UTF-8 exactly when its text is */
            int ok = cli_utf8_valid((const char *)start, (size_t)(j->p - start));
            j->p++;
            return ok;
        }
        if (c < 0x20) {
            return 0; /* control characters must be escaped */
        }
        j->p++;
        if (c != '\\') {
            continue;
        }
        if (j->p >= j->end) {
            return 0;
        }
        c = *j->p++;
        if (c == 'u') {
            for (int i = 0; i < 4; i++, j->p++) {
                if (j->p >= j->end || !isxdigit(*j->p)) {
                    return 0;
                }
            }
        } else if (c == 0 || strchr("\"\\/bfnrt", (int)c) == NULL) {
            return 0;
        }
    }
    return 0;
}

static int jv_value(jv_t *j);

/* An object or array: close is '}' or ']'; members of objects are "key": value. */
static int jv_container(jv_t *j, unsigned char close) {
    if (++j->depth > 512) {
        return 0;
    }
    j->p++;
    jv_ws(j);
    if (j->p < j->end && *j->p == close) {
        j->p++;
        j->depth--;
        return 1;
    }
    for (;;) {
        jv_ws(j);
        if (close == '}') {
            if (j->p >= j->end || *j->p != '"' || !jv_string(j)) {
                return 0;
            }
            jv_ws(j);
            if (j->p >= j->end || *j->p++ != ':') {
                return 0;
            }
        }
        if (!jv_value(j)) {
            return 0;
        }
        jv_ws(j);
        if (j->p >= j->end) {
            return 0;
        }
        if (*j->p == ',') {
            j->p++;
            continue;
        }
        if (*j->p != close) {
            return 0;
        }
        j->p++;
        j->depth--;
        return 1;
    }
}

static int jv_value(jv_t *j) {
    jv_ws(j);
    if (j->p >= j->end) {
        return 0;
    }
    switch (*j->p) {
    case '{':
        return jv_container(j, '}');
    case '[':
        return jv_container(j, ']');
    case '"':
        return jv_string(j);
    case 't':
        return jv_lit(j, "true");
    case 'f':
        return jv_lit(j, "false");
    case 'n':
        return jv_lit(j, "null");
    default:
        return jv_number(j);
    }
}

int fxt_json_valid(const char *text, size_t len) {
    jv_t j = {(const unsigned char *)text, (const unsigned char *)text + len, 0};
    if (!jv_value(&j)) {
        return 0;
    }
    jv_ws(&j);
    return j.p == j.end;
}

/* ---- the driver ---------------------------------------------------------- */

int fxt_tools_driver_init(char *dir, size_t dirlen) {
    const char *tmp = getenv("TMPDIR");
    if (tmp == NULL || tmp[0] == '\0') {
        tmp = "/tmp";
    }
    if ((size_t)snprintf(dir, dirlen, "%s/fxt-tools-XXXXXX", tmp) >= dirlen) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return mkdtemp(dir) != NULL ? 0 : -1;
}

static void path_in(char *out, size_t n, const char *dir, const char *name) {
    snprintf(out, n, "%s/%s", dir, name);
}

void fxt_tools_driver_fini(const char *dir) {
    static const char *const files[] = {"in.fxt", "out.txt", "err.txt", "out.json"};
    char p[4096];
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        path_in(p, sizeof p, dir, files[i]);
        unlink(p);
    }
    rmdir(dir);
}

char *fxt_tools_read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    size_t cap = 4096, n = 0, got;
    char *buf = malloc(cap);
    while (buf != NULL && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *nb = realloc(buf, cap * 2);
            if (nb == NULL) {
                free(buf);
                buf = NULL;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

/* Run `fxt ARGS...` with stdout and stderr sent to files in dir; returns the exit status. */
static int run_cli(const char *dir, char **argv, int argc) {
    char out[4096], err[4096];
    path_in(out, sizeof out, dir, "out.txt");
    path_in(err, sizeof err, dir, "err.txt");
    fflush(stdout);
    fflush(stderr);
    int save1 = dup(1), save2 = dup(2);
    int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (save1 < 0 || save2 < 0 || fo < 0 || fe < 0) {
        return -1;
    }
    dup2(fo, 1);
    dup2(fe, 2);
    close(fo);
    close(fe);
    int rc = cli_main(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(save1, 1);
    dup2(save2, 2);
    close(save1);
    close(save2);
    return rc;
}

/* Every line of path is one valid JSON value (JSON Lines); whole = the file is one value. */
static int output_valid(const char *path, int whole) {
    size_t len = 0;
    char *t = fxt_tools_read_file(path, &len);
    if (t == NULL) {
        return 0;
    }
    int ok = 1;
    if (whole) {
        ok = fxt_json_valid(t, len);
    } else {
        for (size_t at = 0; at < len && ok;) {
            char *nl = memchr(t + at, '\n', len - at);
            size_t end = nl != NULL ? (size_t)(nl - t) : len;
            ok = fxt_json_valid(t + at, end - at);
            at = end + 1;
        }
    }
    free(t);
    return ok;
}

int fxt_tools_driver_run(const char *dir, const uint8_t *data, size_t size, fxt_tools_result_t *res,
                         char *why, size_t whylen) {
    char in[4096], json[4096], out[4096];
    path_in(in, sizeof in, dir, "in.fxt");
    path_in(json, sizeof json, dir, "out.json");
    path_in(out, sizeof out, dir, "out.txt");
    FILE *f = fopen(in, "wb");
    if (f == NULL || (size > 0 && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
        snprintf(why, whylen, "cannot write %s: %s", in, strerror(errno));
        return -1;
    }
    /* command, its options, then the input; jsonl: stdout is JSON Lines */
    static const struct {
        const char *args[4];
        int jsonl;
        const char *tail; /* an argument after the input (fxt sql's query) */
    } cmds[] = {
        {{"dump"}, 0, NULL},
        {{"dump", "--json"}, 1, NULL},
        {{"check"}, 0, NULL},
        {{"check", "--json"}, 1, NULL},
        {{"stats"}, 0, NULL},
        {{"stats", "--json"}, 1, NULL},
        {{"cut", "--from", "1us"}, 0, NULL},
        {{"merge"}, 0, NULL},
#ifdef FXT_HAVE_SQLITE
        /* every table, joined as queries join them (at most 1000 rows a statement: the foreign
         * samples' 20,000 slices would cost seconds under ASan); one of the three per input, by
         * its size, so each input builds the tables once and the corpus covers every format */
        {{"sql", "--json"},
         1,
         "select * from slice s left join args a on a.arg_set_id = s.arg_set_id left join thread_track tt on "
         "s.track_id = tt.id left join thread t on t.utid = tt.utid left join process p on p.upid = t.upid "
         "limit 1000"},
        {{"sql"},
         0,
         "select * from log limit 1000; select * from kernel_object limit 1000; select * from "
         "userspace_object "
         "limit 1000; select * from blob limit 1000; select * from provider; select * from error limit 1000; "
         "select * from flow f left join slice a on a.id = f.slice_out limit 1000; select * from counter c "
         "join "
         "counter_track ct on c.track_id = ct.id limit 1000; select * from sched_slice limit 1000; select * "
         "from thread_state limit 1000; select * from process_track limit 1000"},
        {{"sql", "--csv"},
         0,
         "select * from args limit 1000; select * from process; select * from track limit 1000; select * "
         "from "
         "trace_file"},
#endif
    };
    memset(res, 0, sizeof *res);
    size_t sql_seen = 0;
    for (size_t c = 0; c <= sizeof cmds / sizeof cmds[0]; c++) {
        if (c < sizeof cmds / sizeof cmds[0] && strcmp(cmds[c].args[0], "sql") == 0 &&
            sql_seen++ != size % 3) {
            continue;
        }
        char *argv[8];
        int argc = 0;
        argv[argc++] = (char *)"fxt";
        int jsonl = 0, is_json = c == sizeof cmds / sizeof cmds[0];
        if (is_json) {
            argv[argc++] = (char *)"json";
            argv[argc++] = in;
            argv[argc++] = (char *)"-o";
            argv[argc++] = json;
        } else {
            for (int a = 0; a < 4 && cmds[c].args[a] != NULL; a++) {
                argv[argc++] = (char *)cmds[c].args[a];
            }
            argv[argc++] = in;
            if (cmds[c].tail != NULL) {
                argv[argc++] = (char *)cmds[c].tail;
            }
            jsonl = cmds[c].jsonl;
        }
        argv[argc] = NULL;
        int rc = run_cli(dir, argv, argc);
        res->runs++;
        if (strcmp(argv[1], "check") == 0 && argc == 3) {
            res->check_rc = rc;
        }
        if (rc != 0 && rc != 1) {
            char err[4096];
            size_t elen = 0;
            path_in(err, sizeof err, dir, "err.txt");
            char *e = fxt_tools_read_file(err, &elen);
            snprintf(why, whylen, "fxt %s%s: exit %d: %.*s", argv[1], jsonl ? " --json" : "", rc,
                     e != NULL ? (int)(elen > 200 ? 200 : elen) : 0, e != NULL ? e : "");
            free(e);
            return -1;
        }
        if (is_json && !output_valid(json, 1)) {
            snprintf(why, whylen, "fxt json: output is not valid JSON (exit %d)", rc);
            return -1;
        }
        if (jsonl && !output_valid(out, 0)) {
            snprintf(why, whylen, "fxt %s --json: a line is not valid JSON (exit %d)", argv[1], rc);
            return -1;
        }
    }
    return 0;
}
