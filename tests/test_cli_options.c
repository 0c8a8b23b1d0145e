/* SPDX-License-Identifier: MIT */
/*
 * The fxt command line: the shared option parser (tools/cli/cli_opts.c) on a
 * test table, every command's help text and docs/cli.md against the
 * commands' option tables (so help, docs and parser cannot drift apart), and
 * the shared output handling (-o NAME.gz / .zst compresses, or is refused
 * before the file is created when compression is not built in). Runs the CLI
 * in-process (cli_main from the fxt_cli_objs object library).
 */
#include "test.h"

#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_opts.h"
#include "cli_trace.h"

/* ---- helpers ------------------------------------------------------------------------ */

static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return NULL;
    }
    size_t cap = 1 << 16, n = 0, got;
    char *p = malloc(cap + 1);
    while (p != NULL && (got = fread(p + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *np = realloc(p, (cap *= 2) + 1);
            if (np == NULL) {
                free(p);
            }
            p = np;
        }
    }
    fclose(f);
    if (p != NULL) {
        p[n] = '\0';
    }
    if (len != NULL) {
        *len = n;
    }
    return p;
}

static char scratch[256];

static void scratch_init(void) {
    if (scratch[0] == '\0') {
        const char *tmp = getenv("TMPDIR");
        snprintf(scratch, sizeof scratch, "%s/fxt-cliopt-XXXXXX", tmp != NULL && tmp[0] ? tmp : "/tmp");
        CHECK(mkdtemp(scratch) != NULL);
    }
}

static void scratch_path(char *out, size_t n, const char *name) {
    scratch_init();
    snprintf(out, n, "%s/%s", scratch, name);
}

/* Point fd `fd` at `path` (or /dev/null) until redirect_end(). */
typedef struct redirect {
    int fd, saved;
} redirect_t;

static redirect_t redirect_begin(int fd, const char *path) {
    fflush(fd == 1 ? stdout : stderr);
    redirect_t r = {fd, dup(fd)};
    int t = open(path != NULL ? path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CHECK(r.saved >= 0 && t >= 0);
    dup2(t, fd);
    close(t);
    return r;
}

static void redirect_end(redirect_t r) {
    fflush(r.fd == 1 ? stdout : stderr);
    dup2(r.saved, r.fd);
    close(r.saved);
}

/* Run `fxt ARGS...` in-process with stdout discarded and stderr kept in `err` (may be NULL). */
static int run_fxt(char *err, size_t errlen, const char *const *args) {
    char *argv[32];
    int argc = 0;
    argv[argc++] = (char *)"fxt";
    for (; *args != NULL && argc < 31; args++) {
        argv[argc++] = (char *)*args;
    }
    argv[argc] = NULL;
    char errpath[512];
    scratch_path(errpath, sizeof errpath, "stderr.txt");
    redirect_t o = redirect_begin(1, NULL), e = redirect_begin(2, errpath);
    int rc = cli_main(argc, argv);
    redirect_end(e);
    redirect_end(o);
    if (err != NULL) {
        char *t = read_file(errpath, NULL);
        snprintf(err, errlen, "%s", t != NULL ? t : "");
        free(t);
    }
    return rc;
}

/* ---- the parser, on a table made for the test ------------------------------------------- */

typedef struct tcfg {
    const char *pos[3];
    unsigned npos;
    int flag, seen_size;
    const char *out;
    unsigned count;
    uint64_t big, size, time_ns;
    int has_time;
    unsigned mode;
    const char *pats[2];
    unsigned npats;
    const char *custom;
} tcfg_t;

static const char *const kModes[] = {"fast", "slow", NULL};

static int custom_parse(void *config, const char *value, char *err, size_t errlen) {
    if (strcmp(value, "no") == 0) {
        snprintf(err, errlen, "not 'no'");
        return -1;
    }
    ((tcfg_t *)config)->custom = value;
    return 0;
}

static const cli_opt_t topts[] = {
    CLI_FLAG(tcfg_t, flag, "flag", 'f', "a flag"),
    CLI_STRING(tcfg_t, out, "output", 'o', "FILE", "a string"),
    CLI_UINT(tcfg_t, count, unsigned, "count", 1, 10, "N", "a small number"),
    CLI_UINT(tcfg_t, big, uint64_t, "big", 0, 0, "N", "any number"),
    {.name = "size",
     .kind = CLI_OPT_SIZE,
     CLI_FIELD(tcfg_t, size, uint64_t),
     .seen = CLI_SEEN(tcfg_t, seen_size),
     .value_name = "N",
     .help = "a size"},
    CLI_TIME(tcfg_t, time_ns, has_time, "time", "T", "a time"),
    CLI_CHOICE(tcfg_t, mode, "mode", kModes, "MODE", "a choice"),
    CLI_LIST(tcfg_t, pats, npats, "pat", "P", "repeatable"),
    CLI_CUSTOM("custom", custom_parse, "X", "custom"),
};

static const tcfg_t tdefaults = {{NULL}, 0, 0, 0, "default-out", 5, 7, 0, 0, 0, 1, {NULL}, 0, NULL};

static const cli_spec_t tspec = {
    "t",
    topts,
    sizeof topts / sizeof topts[0],
    &tdefaults,
    sizeof(tcfg_t),
    "IN",
    offsetof(tcfg_t, pos),
    offsetof(tcfg_t, npos) + 1,
    1,
    3,
};

/* cli_parse on a NULL-terminated argument list (argv[0] = "t"); stderr's one line in msg. */
static int parse(tcfg_t *cfg, char *msg, size_t msglen, const char *const *args) {
    char *argv[32];
    int argc = 0;
    argv[argc++] = (char *)"t";
    for (; *args != NULL; args++) {
        argv[argc++] = (char *)*args;
    }
    argv[argc] = NULL;
    char errpath[512];
    scratch_path(errpath, sizeof errpath, "parse.txt");
    redirect_t e = redirect_begin(2, errpath);
    int rc = cli_parse(&tspec, argc, argv, cfg);
    redirect_end(e);
    char *t = read_file(errpath, NULL);
    snprintf(msg, msglen, "%s", t != NULL ? t : "");
    free(t);
    return rc;
}

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* A usage error: exit 2 and exactly one line starting "fxt t: " containing `want`. */
static void check_usage_error(const char *const *args, const char *want) {
    tcfg_t c;
    char msg[512];
    CHECK_EQ_I64(parse(&c, msg, sizeof msg, args), CLI_EXIT_USAGE);
    CHECK(strncmp(msg, "fxt t: ", 7) == 0);
    CHECK(strchr(msg, '\n') == msg + strlen(msg) - 1);
    if (strstr(msg, want) == NULL) {
        fprintf(stderr, "message '%s' lacks '%s'\n", msg, want);
    }
    CHECK(strstr(msg, want) != NULL);
}

static void test_parse_defaults(void) {
    tcfg_t c;
    char msg[256];
    CHECK_EQ_I64(parse(&c, msg, sizeof msg, ARGS("in")), 0);
    CHECK(msg[0] == '\0');
    CHECK_EQ_U64(c.npos, 1);
    CHECK(strcmp(c.pos[0], "in") == 0);
    CHECK(strcmp(c.out, "default-out") == 0);
    CHECK_EQ_U64(c.count, 5);
    CHECK_EQ_U64(c.big, 7);
    CHECK_EQ_U64(c.flag, 0);
    CHECK_EQ_U64(c.seen_size, 0);
    CHECK_EQ_U64(c.has_time, 0);
    CHECK_EQ_U64(c.mode, 1);
    CHECK_EQ_U64(c.npats, 0);
    CHECK(c.custom == NULL);
}

static void test_parse_every_kind(void) {
    tcfg_t c;
    char msg[256];
    CHECK_EQ_I64(parse(&c, msg, sizeof msg,
                       ARGS("-f", "--output", "o.txt", "a", "--count", "10", "--big", "18446744073709551615",
                            "--size", "1.5M", "b", "--time", "2.5us", "--mode", "fast", "--pat", "x*",
                            "--pat", "y", "--custom", "yes")),
                 0);
    CHECK(msg[0] == '\0');
    CHECK_EQ_U64(c.flag, 1);
    CHECK(strcmp(c.out, "o.txt") == 0);
    CHECK_EQ_U64(c.count, 10);
    CHECK_EQ_U64(c.big, UINT64_MAX);
    CHECK_EQ_U64(c.size, 1572864);
    CHECK_EQ_U64(c.seen_size, 1);
    CHECK_EQ_U64(c.time_ns, 2500);
    CHECK_EQ_U64(c.has_time, 1);
    CHECK_EQ_U64(c.mode, 0);
    CHECK_EQ_U64(c.npats, 2);
    CHECK(strcmp(c.pats[0], "x*") == 0 && strcmp(c.pats[1], "y") == 0);
    CHECK(strcmp(c.custom, "yes") == 0);
    /* options and arguments mix in any order */
    CHECK_EQ_U64(c.npos, 2);
    CHECK(strcmp(c.pos[0], "a") == 0 && strcmp(c.pos[1], "b") == 0);
}

static void test_parse_equals_and_space(void) {
    tcfg_t a, b;
    char msg[256];
    CHECK_EQ_I64(
        parse(&a, msg, sizeof msg, ARGS("--output=x.gz", "--count=3", "--time=1ms", "--pat=a=b", "in")), 0);
    CHECK_EQ_I64(parse(&b, msg, sizeof msg,
                       ARGS("--output", "x.gz", "--count", "3", "--time", "1ms", "--pat", "a=b", "in")),
                 0);
    CHECK(strcmp(a.out, "x.gz") == 0 && strcmp(b.out, "x.gz") == 0);
    CHECK_EQ_U64(a.count, 3);
    CHECK_EQ_U64(b.count, 3);
    CHECK_EQ_U64(a.time_ns, 1000000);
    CHECK_EQ_U64(b.time_ns, 1000000);
    CHECK(strcmp(a.pats[0], "a=b") == 0 && strcmp(b.pats[0], "a=b") == 0); /* split at the first '=' only */
    CHECK_EQ_I64(parse(&a, msg, sizeof msg, ARGS("--output=", "in")), 0);  /* an empty value is a value */
    CHECK(strcmp(a.out, "") == 0);
    /* a value that looks like an option is still the value */
    CHECK_EQ_I64(parse(&a, msg, sizeof msg, ARGS("-o", "--flag", "in")), 0);
    CHECK(strcmp(a.out, "--flag") == 0);
    CHECK_EQ_U64(a.flag, 0);
}

static void test_parse_double_dash(void) {
    tcfg_t c;
    char msg[256];
    CHECK_EQ_I64(parse(&c, msg, sizeof msg, ARGS("--flag", "--", "--count", "-", "-o")), 0);
    CHECK_EQ_U64(c.flag, 1);
    CHECK_EQ_U64(c.count, 5);
    CHECK_EQ_U64(c.npos, 3);
    CHECK(strcmp(c.pos[0], "--count") == 0 && strcmp(c.pos[1], "-") == 0 && strcmp(c.pos[2], "-o") == 0);
    /* "-" alone is an argument (stdin/stdout), not an option */
    CHECK_EQ_I64(parse(&c, msg, sizeof msg, ARGS("-")), 0);
    CHECK(c.npos == 1 && strcmp(c.pos[0], "-") == 0);
}

static void test_parse_unknown_option(void) {
    check_usage_error(ARGS("--bogus", "in"), "unknown option '--bogus'");
    check_usage_error(ARGS("-x", "in"), "unknown option '-x'");
    check_usage_error(ARGS("-fo", "in"), "unknown option '-fo'");     /* no bundling of short options */
    check_usage_error(ARGS("--fla", "in"), "unknown option '--fla'"); /* no abbreviations */
}

static void test_parse_missing_value(void) {
    check_usage_error(ARGS("in", "--output"), "--output needs a value (FILE)");
    check_usage_error(ARGS("in", "-o"), "--output needs a value (FILE)");
    check_usage_error(ARGS("in", "--count"), "--count needs a value (N)");
    check_usage_error(ARGS("in", "--flag=1"), "--flag takes no value");
}

static void test_parse_bad_value(void) {
    check_usage_error(ARGS("--count", "x", "in"), "bad value for --count: 'x' (a whole number)");
    check_usage_error(ARGS("--count", "0", "in"), "bad value for --count: '0' (1..10)");
    check_usage_error(ARGS("--count", "11", "in"), "(1..10)");
    check_usage_error(ARGS("--count", "-1", "in"), "bad value for --count");
    check_usage_error(ARGS("--count", "", "in"), "bad value for --count");
    check_usage_error(ARGS("--big", "18446744073709551616", "in"), "bad value for --big");
    check_usage_error(ARGS("--size", "1e3", "in"), "bad value for --size");
    check_usage_error(ARGS("--size", "16E", "in"), "bad value for --size");
    check_usage_error(ARGS("--time", "3 ms", "in"), "bad value for --time");
    check_usage_error(ARGS("--mode", "medium", "in"), "bad value for --mode: 'medium' (one of fast, slow)");
    check_usage_error(ARGS("--pat", "1", "--pat", "2", "--pat", "3", "in"), "bad value for --pat: '3'");
    check_usage_error(ARGS("--custom", "no", "in"), "bad value for --custom: 'no' (not 'no')");
}

static void test_parse_positionals(void) {
    check_usage_error(ARGS("--flag"), "missing IN");
    check_usage_error(ARGS("a", "b", "c", "d"), "too many IN arguments ('d')");
}

static void test_parse_size_values(void) {
    static const struct {
        const char *s;
        int ok;
        uint64_t v;
    } cases[] = {
        {"0", 1, 0},
        {"1000", 1, 1000},
        {"300k", 1, 307200},
        {"300K", 1, 307200},
        {"1.5M", 1, 1572864},
        {"2G", 1, 2147483648u},
        {"64KB", 1, 65536},
        {"10b", 1, 10},
        {"0.5k", 1, 512},
        {"1.", 1, 1},
        {".5k", 1, 512},
        {"18446744073709551615", 1, UINT64_MAX},
        {"", 0, 0},
        {"k", 0, 0},
        {"-1", 0, 0},
        {"1e3", 0, 0},
        {" 1", 0, 0},
        {"1 ", 0, 0},
        {"0x10", 0, 0},
        {"18446744073709551616", 0, 0},
        {"17179869184G", 0, 0},
        {"1kk", 0, 0},
        {"nan", 0, 0},
        {"inf", 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t v = 12345;
        int rc = cli_parse_size(cases[i].s, &v);
        if ((rc == 0) != cases[i].ok || (cases[i].ok && v != cases[i].v)) {
            fprintf(stderr, "cli_parse_size(\"%s\"): rc %d value %" PRIu64 "\n", cases[i].s, rc, v);
        }
        CHECK((rc == 0) == cases[i].ok);
        CHECK(!cases[i].ok || v == cases[i].v);
    }
    uint64_t v;
    CHECK(cli_parse_uint("007", &v) == 0 && v == 7);
    CHECK(cli_parse_uint("1.0", &v) != 0);
    CHECK(cli_parse_uint("+1", &v) != 0);
}

/* ---- the commands: help and docs/cli.md against the option tables ------------------------ */

/* `--name` occurs in text as a whole option name (not the prefix of a longer one). */
static int has_long(const char *text, const char *name) {
    size_t n = strlen(name);
    for (const char *p = strstr(text, "--"); p != NULL; p = strstr(p + 1, "--")) {
        char after = p[2 + n];
        if (strncmp(p + 2, name, n) == 0 &&
            !((after >= 'a' && after <= 'z') || (after >= '0' && after <= '9') || after == '-' ||
              after == '_')) {
            return 1;
        }
    }
    return 0;
}

static const cli_opt_t *find_opt(const cli_command_t *cmd, const char *name, size_t len) {
    for (size_t i = 0; i < cmd->spec->nopts; i++) {
        if (strlen(cmd->spec->opts[i].name) == len && strncmp(cmd->spec->opts[i].name, name, len) == 0) {
            return &cmd->spec->opts[i];
        }
    }
    return NULL;
}

/* Every --word in text[0..len) names an option of cmd (or --help). Returns how many do not. */
static int unknown_longs(const cli_command_t *cmd, const char *text, size_t len, const char *where) {
    int bad = 0;
    for (size_t i = 0; i + 2 < len; i++) {
        /* an option starts "--" and a letter: table rules (|---|) and "--" alone are not options */
        if (text[i] != '-' || text[i + 1] != '-' || (i > 0 && text[i - 1] == '-') || text[i + 2] < 'a' ||
            text[i + 2] > 'z') {
            continue;
        }
        size_t n = 0;
        while (i + 2 + n < len &&
               ((text[i + 2 + n] >= 'a' && text[i + 2 + n] <= 'z') ||
                (text[i + 2 + n] >= '0' && text[i + 2 + n] <= '9') || text[i + 2 + n] == '-')) {
            n++;
        }
        if (n == 0 || (n == 4 && strncmp(text + i + 2, "help", 4) == 0)) {
            continue;
        }
        if (find_opt(cmd, text + i + 2, n) == NULL) {
            fprintf(stderr, "%s: fxt %s: --%.*s is not an option of the command\n", where, cmd->name, (int)n,
                    text + i + 2);
            bad++;
        }
    }
    return bad;
}

static char *help_text(const cli_command_t *cmd) {
    char path[512];
    scratch_path(path, sizeof path, "help.txt");
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f == NULL) {
        return NULL;
    }
    cli_print_help(f, cmd);
    fclose(f);
    return read_file(path, NULL);
}

static void test_help_lists_every_option(void) {
    CHECK(cli_ncommands == 9);
    for (size_t c = 0; c < cli_ncommands; c++) {
        const cli_command_t *cmd = cli_commands[c];
        char *help = help_text(cmd);
        CHECK(help != NULL);
        if (help == NULL) {
            continue;
        }
        char usage[64];
        snprintf(usage, sizeof usage, "usage: fxt %s", cmd->name);
        CHECK(strncmp(help, usage, strlen(usage)) == 0);
        for (size_t i = 0; i < cmd->spec->nopts; i++) {
            const cli_opt_t *o = &cmd->spec->opts[i];
            char line[128];
            /* the option's own line: "  -x, --name VALUE" or "  --name VALUE" */
            if (o->short_name) {
                snprintf(line, sizeof line, "\n  -%c, --%s%s%s", o->short_name, o->name,
                         o->value_name ? " " : "", o->value_name ? o->value_name : "");
            } else if (o->kind == CLI_OPT_OPTIONAL_CHOICE) {
                snprintf(line, sizeof line, "\n  --%s[=%s]", o->name, o->value_name);
            } else {
                snprintf(line, sizeof line, "\n  --%s%s%s", o->name, o->value_name ? " " : "",
                         o->value_name ? o->value_name : "");
            }
            if (strstr(help, line) == NULL) {
                fprintf(stderr, "fxt %s: help lacks the line '%s'\n", cmd->name, line + 1);
            }
            CHECK(strstr(help, line) != NULL);
            CHECK(o->help != NULL && o->help[0] != '\0');
            CHECK((o->kind == CLI_OPT_FLAG) == (o->value_name == NULL));
        }
        /* the hand-written parts (usage, about, notes) name no option the parser lacks */
        CHECK_EQ_I64(unknown_longs(cmd, help, strlen(help), "help"), 0);
        free(help);
    }
}

/* docs/cli.md's section "## fxt NAME" (up to the next "## "), or NULL. */
static const char *doc_section(const char *doc, const char *name, size_t *len) {
    char head[64];
    snprintf(head, sizeof head, "\n## fxt %s\n", name);
    const char *s = strstr(doc, head);
    if (s == NULL) {
        return NULL;
    }
    s++;
    const char *e = strstr(s + 3, "\n## ");
    *len = e != NULL ? (size_t)(e - s) : strlen(s);
    return s;
}

static void test_docs_list_every_option(void) {
    char *doc = read_file(FXT_SOURCE_DIR "/docs/cli.md", NULL);
    CHECK(doc != NULL);
    if (doc == NULL) {
        return;
    }
    for (size_t c = 0; c < cli_ncommands; c++) {
        const cli_command_t *cmd = cli_commands[c];
        size_t len = 0;
        const char *sec = doc_section(doc, cmd->name, &len);
        if (sec == NULL) {
            fprintf(stderr, "docs/cli.md has no section '## fxt %s'\n", cmd->name);
        }
        CHECK(sec != NULL);
        if (sec == NULL) {
            continue;
        }
        char *text = malloc(len + 1);
        memcpy(text, sec, len);
        text[len] = '\0';
        for (size_t i = 0; i < cmd->spec->nopts; i++) {
            const cli_opt_t *o = &cmd->spec->opts[i];
            if (!has_long(text, o->name)) {
                fprintf(stderr, "docs/cli.md, fxt %s: --%s is not documented\n", cmd->name, o->name);
            }
            CHECK(has_long(text, o->name));
            if (o->short_name) {
                char sh[8];
                snprintf(sh, sizeof sh, "`-%c`", o->short_name);
                if (strstr(text, sh) == NULL) {
                    fprintf(stderr, "docs/cli.md, fxt %s: -%c is not documented\n", cmd->name, o->short_name);
                }
                CHECK(strstr(text, sh) != NULL);
            }
        }
        /* and it documents nothing the command does not take: long options ... */
        CHECK_EQ_I64(unknown_longs(cmd, text, len, "docs/cli.md"), 0);
        /* ... and short ones, written `-x` */
        for (const char *p = strstr(text, "`-"); p != NULL; p = strstr(p + 1, "`-")) {
            if (p[2] != '-' && p[2] != '\0' && p[3] == '`') {
                int known = 0;
                for (size_t i = 0; i < cmd->spec->nopts; i++) {
                    known |= cmd->spec->opts[i].short_name == p[2];
                }
                if (!known) {
                    fprintf(stderr, "docs/cli.md, fxt %s: -%c is not an option of the command\n", cmd->name,
                            p[2]);
                }
                CHECK(known);
            }
        }
        free(text);
    }
    free(doc);
}

/* ---- the commands: usage errors and shared output handling ------------------------------- */

static void test_commands_usage_errors(void) {
    static const struct {
        const char *args[6];
        const char *msg;
    } cases[] = {
        {{"dump", "--bogus"}, "fxt dump: unknown option '--bogus'"},
        {{"json", "--time-range", "1x:2"}, "fxt json: bad value for --time-range"},
        {{"json", "--time-range", "12"}, "fxt json: bad value for --time-range"},
        {{"check", "--max-per-rule", "many"}, "fxt check: bad value for --max-per-rule"},
        {{"stats", "--top"}, "fxt stats: --top needs a value"},
        {{"synth", "--threads", "0"}, "fxt synth: bad value for --threads"},
        {{"synth", "--args-mix", "bogus"}, "fxt synth: bad value for --args-mix"},
        {{"synth", "stray"}, "fxt synth: unexpected argument 'stray'"},
        {{"merge"}, "fxt merge: missing IN"},
        {{"merge", "a.fxt", "--offset", "b.fxt=5"}, "fxt merge: --offset names 'b.fxt'"},
        {{"merge", "a.fxt", "--offset", "a.fxt=x"}, "fxt merge: bad offset 'x'"},
        {{"cut", "a.fxt", "b.fxt"}, "fxt cut: more than one IN"},
        {{"cut", "--from", "soon"}, "fxt cut: bad value for --from"},
        {{"cut", "--compress", "lz4", "-o", "/nonexistent/x"}, "fxt cut: unknown compression 'lz4'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *args[8] = {NULL};
        memcpy(args, cases[i].args, sizeof cases[i].args);
        char err[1024];
        int rc = run_fxt(err, sizeof err, args);
        if (rc != CLI_EXIT_USAGE || strncmp(err, cases[i].msg, strlen(cases[i].msg)) != 0) {
            fprintf(stderr, "fxt %s ...: exit %d, '%s' (wanted 2, '%s')\n", cases[i].args[0], rc, err,
                    cases[i].msg);
        }
        CHECK_EQ_I64(rc, CLI_EXIT_USAGE);
        CHECK(strncmp(err, cases[i].msg, strlen(cases[i].msg)) == 0);
        CHECK(strchr(err, '\n') == err + strlen(err) - 1); /* one line */
    }
}

/* cli_main runs every command the same way: a config of spec->config_size bytes, then run. */
static void test_commands_table(void) {
    for (size_t c = 0; c < cli_ncommands; c++) {
        const cli_command_t *cmd = cli_commands[c];
        CHECK(cmd->run != NULL && cmd->spec != NULL && cmd->spec->config_size > 0);
        CHECK(strcmp(cmd->spec->cmd, cmd->name) == 0);
        /* only fxt record rewrites its arguments (CMD's options are not fxt's) */
        CHECK((cmd->prepare_args != NULL) == (strcmp(cmd->name, "record") == 0));
    }
    const cli_command_t *rec = cli_find_command("record");
    char *in[] = {"record", "-o", "x.fxt", "prog", "-o", "y", NULL};
    char *out[sizeof in / sizeof in[0] + 1];
    int n = rec->prepare_args(6, in, out);
    static const char *const want[] = {"record", "-o", "x.fxt", "--", "prog", "-o", "y"};
    CHECK_EQ_I64(n, 7);
    for (int i = 0; i < n && i < 7; i++) {
        CHECK(strcmp(out[i], want[i]) == 0);
    }
    CHECK(out[n < 7 ? n : 7] == NULL);
}

/*
 * Every command that writes a file compresses by the name (or --compress); a
 * build without compression refuses before creating the file.
 */
static void check_compressed_output(const char *const *args, const char *path, int zstd) {
    unlink(path);
    char err[1024];
    int rc = run_fxt(err, sizeof err, args);
    struct stat st;
    if (rc == CLI_EXIT_USAGE && strstr(err, "without compression support") != NULL) {
        CHECK(stat(path, &st) != 0); /* refused before the file was created */
        return;
    }
    if (rc != CLI_EXIT_OK) {
        fprintf(stderr, "fxt %s -> %s: exit %d: %s\n", args[0], path, rc, err);
    }
    CHECK_EQ_I64(rc, CLI_EXIT_OK);
    size_t len = 0;
    char *p = read_file(path, &len);
    CHECK(p != NULL && len > 4);
    if (p != NULL && len > 4) {
        static const unsigned char gz[] = {0x1f, 0x8b}, zs[] = {0x28, 0xb5, 0x2f, 0xfd};
        CHECK(zstd ? memcmp(p, zs, 4) == 0 : memcmp(p, gz, 2) == 0);
    }
    free(p);
}

static void test_outputs_compress_by_name(void) {
    char in[512], jgz[512], jzst[512], sgz[512], mzst[512], cgz[512], forced[512];
    scratch_path(in, sizeof in, "in.fxt");
    scratch_path(jgz, sizeof jgz, "t.json.gz");
    scratch_path(jzst, sizeof jzst, "t.json.zst");
    scratch_path(sgz, sizeof sgz, "s.fxt.gz");
    scratch_path(mzst, sizeof mzst, "m.fxt.zst");
    scratch_path(cgz, sizeof cgz, "c.fxt.gz");
    scratch_path(forced, sizeof forced, "forced.out");
    CHECK_EQ_I64(run_fxt(NULL, 0, ARGS("synth", "--events", "2000", "--all-records", "-o", in)), 0);
    check_compressed_output(ARGS("json", in, "-o", jgz), jgz, 0);
    check_compressed_output(ARGS("json", in, "--output", jzst), jzst, 1);
    check_compressed_output(ARGS("synth", "--events", "100", "-o", sgz), sgz, 0);
    check_compressed_output(ARGS("merge", in, in, "-o", mzst), mzst, 1);
    check_compressed_output(ARGS("cut", in, "--from", "10us", "-o", cgz), cgz, 0);
    check_compressed_output(ARGS("json", in, "--compress", "zstd", "-o", forced), forced, 1);
    /* --compress none writes plain output whatever the name */
    CHECK_EQ_I64(run_fxt(NULL, 0, ARGS("json", in, "--compress", "none", "-o", jgz)), 0);
    char *p = read_file(jgz, NULL);
    CHECK(p != NULL && strncmp(p, "{\"displayTimeUnit\"", 18) == 0);
    free(p);
}

static void test_output_write_error(void) {
    struct stat st;
    if (stat("/dev/full", &st) != 0) {
        TEST_SKIP("/dev/full absent");
        return;
    }
    char in[512], err[1024];
    scratch_path(in, sizeof in, "in2.fxt");
    CHECK_EQ_I64(run_fxt(NULL, 0, ARGS("synth", "--events", "3000", "-o", in)), 0);
    CHECK_EQ_I64(run_fxt(err, sizeof err, ARGS("json", in, "-o", "/dev/full")), CLI_EXIT_IO);
    CHECK(strstr(err, "fxt json: error writing output") != NULL);
    CHECK_EQ_I64(run_fxt(err, sizeof err, ARGS("synth", "-o", "/dev/full")), CLI_EXIT_IO);
}

static void cleanup(void) {
    static const char *const names[] = {"stderr.txt", "parse.txt", "help.txt",   "in.fxt",
                                        "in2.fxt",    "t.json.gz", "t.json.zst", "s.fxt.gz",
                                        "m.fxt.zst",  "c.fxt.gz",  "forced.out"};
    if (scratch[0] == '\0') {
        return;
    }
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char p[512];
        scratch_path(p, sizeof p, names[i]);
        unlink(p);
    }
    rmdir(scratch);
}

/* Times with units, exact up to UINT64_MAX ns, overflow refused. */
static void test_parse_times(void) {
    uint64_t v = 0;
    CHECK(cli_parse_ns("18446744073709551615", &v) == 0 && v == UINT64_MAX);
    CHECK(cli_parse_ns("18446744073709551615ns", &v) == 0 && v == UINT64_MAX);
    CHECK(cli_parse_ns("18446744073709551616", &v) != 0);
    CHECK(cli_parse_ns("18446744073709551610", &v) == 0 && v == UINT64_MAX - 5);
    CHECK(cli_parse_ns("1.5ms", &v) == 0 && v == 1500000);
    CHECK(cli_parse_ns("2s", &v) == 0 && v == 2000000000);
    CHECK(cli_parse_ns("18446744073.709551615s", &v) == 0 && v == UINT64_MAX);
    CHECK(cli_parse_ns("18446744074s", &v) != 0);
    CHECK(cli_parse_ns("3us", &v) == 0 && v == 3000);
    CHECK(cli_parse_ns("", &v) != 0);
    CHECK(cli_parse_ns("5h", &v) != 0);
}

int main(int argc, char **argv) {
    TEST_INIT(argc, argv);
    RUN(test_parse_defaults);
    RUN(test_parse_every_kind);
    RUN(test_parse_equals_and_space);
    RUN(test_parse_double_dash);
    RUN(test_parse_unknown_option);
    RUN(test_parse_missing_value);
    RUN(test_parse_bad_value);
    RUN(test_parse_positionals);
    RUN(test_parse_size_values);
    RUN(test_parse_times);
    RUN(test_help_lists_every_option);
    RUN(test_docs_list_every_option);
    RUN(test_commands_usage_errors);
    RUN(test_commands_table);
    RUN(test_outputs_compress_by_name);
    RUN(test_output_write_error);
    cleanup();
    return TEST_EXIT();
}
