/* SPDX-License-Identifier: MIT */
/*
 * The option parser and help printer of the fxt subcommands (see cli_opts.h).
 * Every message is one line "fxt <cmd>: ..." and every failure is a usage
 * error (exit 2), so the commands never print their own parse errors.
 */
#include "cli_opts.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "cli.h"
#include "cli_trace.h"

/* ---- values ------------------------------------------------------------------------ */

/* Digits only (no sign, no spaces, no base prefix): strtoull would accept "-1" and " 5". */
int cli_parse_uint(const char *s, uint64_t *out) {
    uint64_t v = 0;
    if (*s == '\0') {
        return -1;
    }
    for (; *s; s++) {
        /* Exact overflow test: v * 10 + digit <= UINT64_MAX, so UINT64_MAX itself is accepted. */
        if (*s < '0' || *s > '9' || v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10) {
            return -1;
        }
        v = v * 10 + (uint64_t)(*s - '0');
    }
    *out = v;
    return 0;
}

/*
 * "300k", "1.5M", "2G", "64KB", "1000": exact decimal arithmetic (the digits of
 * the fraction beyond what the multiplier can show are truncated), so large
 * counts and seeds read back exactly, unlike through a double.
 */
int cli_parse_size(const char *s, uint64_t *out) {
    uint64_t ip = 0, frac = 0, fscale = 1;
    int digits = 0;
    for (; *s >= '0' && *s <= '9'; s++, digits++) {
        if (ip > (UINT64_MAX - (uint64_t)(*s - '0')) / 10) {
            return -1;
        }
        ip = ip * 10 + (uint64_t)(*s - '0');
    }
    if (*s == '.') {
        for (s++; *s >= '0' && *s <= '9'; s++, digits++) {
            if (fscale < UINT64_C(1000000000)) { /* nine digits are more than a 2^30 multiplier shows */
                frac = frac * 10 + (uint64_t)(*s - '0');
                fscale *= 10;
            }
        }
    }
    if (digits == 0) {
        return -1;
    }
    uint64_t mul = 1;
    switch (*s) {
    case 'k':
    case 'K':
        mul = UINT64_C(1) << 10;
        s++;
        break;
    case 'm':
    case 'M':
        mul = UINT64_C(1) << 20;
        s++;
        break;
    case 'g':
    case 'G':
        mul = UINT64_C(1) << 30;
        s++;
        break;
    default:
        break;
    }
    if (*s == 'B' || *s == 'b') {
        s++;
    }
    /* Overflow checks in the order of evaluation: ip * mul first, then adding the fraction.
     * frac * mul cannot overflow: frac < 10^9 and mul <= 2^30. */
    if (*s != '\0' || ip > UINT64_MAX / mul || ip * mul > UINT64_MAX - frac * mul / fscale) {
        return -1;
    }
    *out = ip * mul + frac * mul / fscale;
    return 0;
}

/* ---- storing into the config --------------------------------------------------------- */

/* Fields are reached by byte offset (offsetof) without the config's type: memcpy in and out. */
static void store_int(void *config, size_t offset, int v) { memcpy((char *)config + offset, &v, sizeof v); }

static void store_ptr(void *config, size_t offset, const char *v) {
    memcpy((char *)config + offset, &v, sizeof v);
}

/* Numeric fields are either uint64_t or unsigned (the CLI_* macros record which in size). */
static void store_unsigned(void *config, size_t offset, size_t size, uint64_t v) {
    if (size == sizeof(uint64_t)) {
        memcpy((char *)config + offset, &v, sizeof v);
    } else {
        unsigned u = (unsigned)v; /* callers keep v within the field's range (opt->max) */
        memcpy((char *)config + offset, &u, sizeof u);
    }
}

static unsigned load_unsigned(const void *config, size_t offset) {
    unsigned u;
    memcpy(&u, (const char *)config + offset, sizeof u);
    return u;
}

/* A number option's value: 0, or -1 with the reason in err. */
static int number_value(const cli_opt_t *o, const char *v, uint64_t *n, char *err, size_t errlen) {
    /* No explicit max: the field's own range, so store_unsigned never truncates. */
    uint64_t hi = o->max ? o->max : (o->size == sizeof(uint64_t) ? UINT64_MAX : (uint64_t)(unsigned)-1);
    int bad = o->kind == CLI_OPT_UINT ? cli_parse_uint(v, n) : cli_parse_size(v, n);
    if (bad != 0) {
        snprintf(err, errlen,
                 o->kind == CLI_OPT_UINT ? "a whole number" : "a number, with k, M or G allowed");
        return -1;
    }
    if (*n < o->min || *n > hi) {
        snprintf(err, errlen, "%" PRIu64 "..%" PRIu64, o->min, hi);
        return -1;
    }
    return 0;
}

/* Stores the index of the matching choice; otherwise err lists the choices. */
static int choice_value(const cli_opt_t *o, const char *v, void *config, char *err, size_t errlen) {
    size_t used = 0;
    err[0] = '\0';
    for (unsigned i = 0; o->choices[i] != NULL; i++) {
        if (strcmp(v, o->choices[i]) == 0) {
            store_unsigned(config, o->offset, sizeof(unsigned), i);
            return 0;
        }
        int n = snprintf(err + used, errlen - used, "%s%s", i ? ", " : "one of ", o->choices[i]);
        /* Stop advancing once err is full: snprintf's return would run past the buffer. */
        used += n > 0 && (size_t)n < errlen - used ? (size_t)n : 0;
    }
    return -1;
}

/* Apply one option with its value (NULL for flags). 0, or -1 with the reason in err. */
static int apply(const cli_opt_t *o, const char *v, void *config, char *err, size_t errlen) {
    uint64_t n = 0;
    switch (o->kind) {
    case CLI_OPT_FLAG:
        store_int(config, o->offset, 1);
        break;
    case CLI_OPT_STRING:
        store_ptr(config, o->offset, v);
        break;
    case CLI_OPT_UINT:
    case CLI_OPT_SIZE:
        if (number_value(o, v, &n, err, errlen) != 0) {
            return -1;
        }
        store_unsigned(config, o->offset, o->size, n);
        break;
    case CLI_OPT_TIME:
        if (cli_parse_ns(v, &n) != 0) {
            snprintf(err, errlen, "a time: ns, or with a unit: 1.5us, 2ms, 0.25s");
            return -1;
        }
        store_unsigned(config, o->offset, sizeof(uint64_t), n);
        break;
    case CLI_OPT_CHOICE:
        if (choice_value(o, v, config, err, errlen) != 0) {
            return -1;
        }
        break;
    case CLI_OPT_OPTIONAL_CHOICE:
        if (v == NULL) {
            store_unsigned(config, o->offset, sizeof(unsigned), o->min);
        } else if (choice_value(o, v, config, err, errlen) != 0) {
            return -1;
        }
        break;
    case CLI_OPT_LIST: {
        unsigned k = load_unsigned(config, o->count);
        /* The list is a fixed array in the config: max is its length. */
        if (k >= o->max) {
            snprintf(err, errlen, "given more than %" PRIu64 " times", o->max);
            return -1;
        }
        store_ptr(config, o->offset + k * sizeof(const char *), v);
        store_unsigned(config, o->count, sizeof(unsigned), k + 1);
        break;
    }
    case CLI_OPT_CUSTOM:
        if (o->parse(config, v, err, errlen) != 0) {
            return -1;
        }
        break;
    }
    if (o->seen) {
        /* seen is offset + 1, so 0 means "no seen field". */
        store_int(config, o->seen - 1, 1);
    }
    return 0;
}

/* ---- the parser ------------------------------------------------------------------------ */

/* Exact names only, no unique-prefix abbreviations: adding an option cannot break a script. */
static const cli_opt_t *find_long(const cli_spec_t *spec, const char *name, size_t len) {
    for (size_t i = 0; i < spec->nopts; i++) {
        if (strncmp(spec->opts[i].name, name, len) == 0 && spec->opts[i].name[len] == '\0') {
            return &spec->opts[i];
        }
    }
    return NULL;
}

static const cli_opt_t *find_short(const cli_spec_t *spec, char c) {
    for (size_t i = 0; i < spec->nopts; i++) {
        if (spec->opts[i].short_name == c) {
            return &spec->opts[i];
        }
    }
    return NULL;
}

int cli_opt_takes_next(const cli_spec_t *spec, const char *a) {
    const cli_opt_t *o = NULL;
    if (a[0] != '-' || a[1] == '\0') {
        return 0;
    }
    if (a[1] == '-') {
        o = strchr(a + 2, '=') == NULL ? find_long(spec, a + 2, strlen(a + 2)) : NULL;
    } else if (a[2] == '\0') {
        o = find_short(spec, a[1]);
    }
    return o != NULL && o->kind != CLI_OPT_FLAG && o->kind != CLI_OPT_OPTIONAL_CHOICE;
}

/* One line "fxt <cmd>: ..." on stderr; returns the usage exit status. */
__attribute__((format(printf, 2, 3))) static int usage_error(const cli_spec_t *spec, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "fxt %s: ", spec->cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return CLI_EXIT_USAGE;
}

/* Operands go into an array of pointers in the config; pos_max bounds it. */
static int add_positional(const cli_spec_t *spec, void *config, unsigned *npos, const char *arg) {
    if (*npos >= spec->pos_max) {
        if (spec->pos_max == 0) {
            return usage_error(spec, "unexpected argument '%s'", arg);
        }
        if (spec->pos_max == 1) {
            return usage_error(spec, "more than one %s ('%s')", spec->pos_name, arg);
        }
        return usage_error(spec, "too many %s arguments ('%s')", spec->pos_name, arg);
    }
    store_ptr(config, spec->pos_offset + *npos * sizeof(const char *), arg);
    (*npos)++;
    return 0;
}

/*
 * One option at argv[*i]: finds it, takes its value (after '=' or the next
 * argument) and applies it. Returns 0 or a usage error.
 */
static int take_option(const cli_spec_t *spec, int argc, char **argv, int *i, void *config) {
    const char *a = argv[*i];
    const char *inline_val = NULL;
    const cli_opt_t *o;
    if (a[1] == '-') {
        const char *eq = strchr(a + 2, '=');
        size_t len = eq ? (size_t)(eq - (a + 2)) : strlen(a + 2);
        o = find_long(spec, a + 2, len);
        inline_val = eq ? eq + 1 : NULL;
    } else {
        /* Short options are not bundled; a value may be attached ("-j2", "-ofile"). */
        o = find_short(spec, a[1]);
        if (o != NULL && a[2] != '\0') {
            if (o->kind == CLI_OPT_FLAG) {
                o = NULL; /* "-qx" is not a bundle of flags here */
            } else {
                inline_val = a + 2;
            }
        }
    }
    if (o == NULL) {
        return usage_error(spec, "unknown option '%s' (see 'fxt help %s')", a, spec->cmd);
    }
    if (o->kind == CLI_OPT_FLAG && inline_val != NULL) {
        return usage_error(spec, "--%s takes no value", o->name);
    }
    const char *v = inline_val;
    if (o->kind != CLI_OPT_FLAG && o->kind != CLI_OPT_OPTIONAL_CHOICE && v == NULL) {
        /* The next argument is the value even if it starts with '-': "-o -" means stdout. */
        if (*i + 1 >= argc) {
            return usage_error(spec, "--%s needs a value (%s)", o->name, o->value_name);
        }
        v = argv[++*i];
    }
    char why[256];
    if (apply(o, v, config, why, sizeof why) != 0) {
        return usage_error(spec, "bad value for --%s: '%s' (%s)", o->name, v, why);
    }
    return 0;
}

/* Parses argv into config (defaults first): options anywhere, "--" ends them. 0 or exit 2. */
int cli_parse(const cli_spec_t *spec, int argc, char **argv, void *config) {
    if (spec->defaults != NULL) {
        memcpy(config, spec->defaults, spec->config_size);
    } else {
        memset(config, 0, spec->config_size);
    }
    unsigned npos = 0;
    int only_pos = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int rc;
        if (only_pos || a[0] != '-' || a[1] == '\0') {
            rc = add_positional(spec, config, &npos, a); /* "-" is stdin/stdout, not an option */
        } else if (strcmp(a, "--") == 0) {
            only_pos = 1;
            rc = 0;
        } else {
            rc = take_option(spec, argc, argv, &i, config);
        }
        if (rc != 0) {
            return rc;
        }
    }
    if (npos < spec->pos_min) {
        return usage_error(spec, "missing %s (see 'fxt help %s')", spec->pos_name, spec->cmd);
    }
    if (spec->pos_count) {
        /* pos_count is offset + 1 like seen: 0 means the command keeps no operand count. */
        store_unsigned(config, spec->pos_count - 1, sizeof(unsigned), npos);
    }
    return 0;
}

/* ---- help ------------------------------------------------------------------------------ */

#define HELP_COL 25 /* where the descriptions start */
#define HELP_WIDTH 80

/* Print text wrapped at HELP_WIDTH, continuation lines indented to HELP_COL. */
static void print_wrapped(FILE *f, const char *text, int col) {
    const char *p = text;
    while (*p) {
        size_t room = (size_t)(HELP_WIDTH - col), len = strlen(p);
        size_t take = len;
        if (len > room) {
            take = room;
            while (take > 0 && p[take] != ' ') {
                /* Break at the last space that fits. */
                take--;
            }
            if (take == 0) { /* one word longer than the line: print it whole */
                take = strcspn(p, " ");
            }
        }
        fprintf(f, "%.*s\n", (int)take, p);
        p += take;
        while (*p == ' ') {
            p++;
        }
        if (*p) {
            fprintf(f, "%*s", HELP_COL, "");
            col = HELP_COL;
        }
    }
}

/* The options table of `fxt help CMD`: names in the first column, wrapped help from HELP_COL. */
void cli_opts_print(FILE *f, const cli_opt_t *opts, size_t nopts) {
    for (size_t i = 0; i < nopts; i++) {
        const cli_opt_t *o = &opts[i];
        char head[96];
        int n;
        if (o->short_name) {
            n = snprintf(head, sizeof head, "  -%c, --%s", o->short_name, o->name);
        } else {
            n = snprintf(head, sizeof head, "  --%s", o->name);
        }
        if (o->kind == CLI_OPT_OPTIONAL_CHOICE && n > 0 && (size_t)n < sizeof head) {
            n += snprintf(head + n, sizeof head - (size_t)n, "[=%s]", o->value_name);
        } else if (o->value_name != NULL && n > 0 && (size_t)n < sizeof head) {
            n += snprintf(head + n, sizeof head - (size_t)n, " %s", o->value_name);
        }
        fputs(head, f);
        /* A long option head gets its help on the next line, keeping the column straight. */
        if (n + 1 >= HELP_COL) {
            fprintf(f, "\n%*s", HELP_COL, "");
        } else {
            fprintf(f, "%*s", HELP_COL - n, "");
        }
        print_wrapped(f, o->help, HELP_COL);
    }
}
