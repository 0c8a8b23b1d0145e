/* SPDX-License-Identifier: MIT */
/*
 * Command-line options of the fxt subcommands, declared as data.
 *
 * Each command declares a `static const cli_opt_t` table: long name, optional
 * short name, the kind of value, where the value goes in the command's config
 * struct (offsetof), the value's name and a help line. cli_parse() fills the
 * config struct from argv (after copying the command's defaults into it) and
 * collects the positional arguments; the help text and the docs test read the
 * same table, so usage, help and docs/cli.md cannot drift apart.
 *
 * Syntax accepted (the same for every command):
 *   --name VALUE, --name=VALUE, -x VALUE   options with a value
 *   --name, -x                             flags
 *   -                                      a positional argument (stdin/stdout)
 *   --                                     the rest are positional arguments
 * Options and positional arguments may be mixed in any order.
 */
#ifndef FXT_CLI_OPTS_H
#define FXT_CLI_OPTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum cli_opt_kind {
    CLI_OPT_FLAG,            /* no value: sets an int to 1 */
    CLI_OPT_STRING,          /* const char *: the value as given (the last one wins) */
    CLI_OPT_UINT,            /* whole decimal number in [min, max]: an unsigned or uint64_t field */
    CLI_OPT_SIZE,            /* like UINT, also decimals and a k/M/G (x1024) suffix, optional B: "1.5M" */
    CLI_OPT_TIME,            /* nanoseconds, uint64_t: "1500", "1.5us", "2ms", "0.25s" (cli_parse_ns) */
    CLI_OPT_CHOICE,          /* one of `choices`: its index, in an unsigned field */
    CLI_OPT_OPTIONAL_CHOICE, /* like CHOICE, the value only after '=' ("--sched=tree"); bare
                                ("--sched") it takes choices[min]; printed "--name[=V]" */
    CLI_OPT_LIST,            /* repeatable: appended to a const char *[max] array, count in an unsigned */
    CLI_OPT_CUSTOM           /* the value goes to `parse` */
} cli_opt_kind;

/* The config struct the parser fills is passed as void *; custom parsers cast it back. */
typedef int (*cli_opt_parse_fn)(void *config, const char *value, char *err, size_t errlen);

typedef struct cli_opt {
    const char *name; /* long name without the dashes: "output" */
    char short_name;  /* 'o' for -o; 0 for none */
    cli_opt_kind kind;
    size_t offset;              /* the value's field in the config struct */
    size_t size;                /* sizeof that field (numbers: 4 or 8 bytes) */
    size_t count;               /* LIST: offset of the unsigned count */
    size_t seen;                /* offset + 1 of an int set to 1 when the option is given; 0 = none */
    uint64_t min, max;          /* UINT, SIZE: accepted range; LIST: capacity of the array */
    const char *const *choices; /* CHOICE: NULL-terminated */
    cli_opt_parse_fn parse;     /* CUSTOM */
    const char *value_name;     /* "FILE", "N"; NULL for flags */
    const char *help;           /* one line; the help printer wraps it */
} cli_opt_t;

/* ---- declaring options --------------------------------------------------------------
 * The macros check the field's type at compile time (an assignment of the field's
 * address to a pointer of the expected type, inside sizeof, never evaluated). */

/* .offset and .size of field f (of type `type`) of T; for entries written out by hand. */
#define CLI_FIELD(T, f, type)                                                                                \
    .offset = offsetof(T, f) + 0 * sizeof((type *){0} = &((T *)0)->f), .size = sizeof(((T *)0)->f)

/* .seen of an option recording in int field f that it was given (any kind). */
#define CLI_SEEN(T, f) (offsetof(T, f) + 1 + 0 * sizeof((int *){0} = &((T *)0)->f))

#define CLI_FLAG(T, f, lname, sname, helptext)                                                               \
    { .name = lname, .short_name = sname, .kind = CLI_OPT_FLAG, CLI_FIELD(T, f, int), .help = helptext }
#define CLI_STRING(T, f, lname, sname, vname, helptext)                                                      \
    {                                                                                                        \
        .name = lname, .short_name = sname, .kind = CLI_OPT_STRING, CLI_FIELD(T, f, const char *),           \
        .value_name = vname, .help = helptext                                                                \
    }
/* `type` is the field's type: unsigned or uint64_t. */
#define CLI_UINT(T, f, type, lname, lo, hi, vname, helptext)                                                 \
    {                                                                                                        \
        .name = lname, .kind = CLI_OPT_UINT, CLI_FIELD(T, f, type), .min = lo, .max = hi,                    \
        .value_name = vname, .help = helptext                                                                \
    }
#define CLI_SIZE(T, f, type, lname, lo, hi, vname, helptext)                                                 \
    {                                                                                                        \
        .name = lname, .kind = CLI_OPT_SIZE, CLI_FIELD(T, f, type), .min = lo, .max = hi,                    \
        .value_name = vname, .help = helptext                                                                \
    }
/* `given` (an int field) is set to 1 when the option appears. */
#define CLI_TIME(T, f, given, lname, vname, helptext)                                                        \
    {                                                                                                        \
        .name = lname, .kind = CLI_OPT_TIME, CLI_FIELD(T, f, uint64_t), .seen = CLI_SEEN(T, given),          \
        .value_name = vname, .help = helptext                                                                \
    }
#define CLI_CHOICE(T, f, lname, names, vname, helptext)                                                      \
    {                                                                                                        \
        .name = lname, .kind = CLI_OPT_CHOICE, CLI_FIELD(T, f, unsigned), .choices = names,                  \
        .value_name = vname, .help = helptext                                                                \
    }
/* `arr` is a const char *[N] array, `n` its unsigned count. */
/* --lname selects names[bare]; --lname=V one of names (index in an unsigned field, 0 when absent:
 * make names[0] the "not given" value). */
#define CLI_OPTIONAL_CHOICE(T, f, lname, names, bare, vname, helptext)                                       \
    {                                                                                                        \
        .name = lname, .kind = CLI_OPT_OPTIONAL_CHOICE, CLI_FIELD(T, f, unsigned), .choices = names,         \
        .min = bare, .value_name = vname, .help = helptext                                                   \
    }
#define CLI_LIST(T, arr, n, lname, vname, helptext)                                                          \
    {                                                                                                        \
        .name = lname, .kind = CLI_OPT_LIST, CLI_FIELD(T, arr[0], const char *),                             \
        .count = offsetof(T, n) + 0 * sizeof((unsigned *){0} = &((T *)0)->n),                                \
        .max = sizeof(((T *)0)->arr) / sizeof(((T *)0)->arr[0]), .value_name = vname, .help = helptext       \
    }
#define CLI_CUSTOM(lname, fn, vname, helptext)                                                               \
    { .name = lname, .kind = CLI_OPT_CUSTOM, .parse = fn, .value_name = vname, .help = helptext }

/* The output options every command that writes a file shares. */
#define CLI_OUTPUT_OPTS(T, out_field, compress_field, out_help)                                              \
    CLI_STRING(T, out_field, "output", 'o', "FILE", out_help),                                               \
        CLI_STRING(T, compress_field, "compress", 0, "FORMAT",                                               \
                   "gzip, zstd or none, whatever the output's name (default: from the name: .gz, .zst)")

/* ---- a command's command line ----------------------------------------------------------- */

typedef struct cli_spec {
    const char *cmd; /* "dump": messages start with "fxt dump: " */
    const cli_opt_t *opts;
    size_t nopts;
    const void *defaults; /* copied into the config first; NULL = all zero */
    size_t config_size;
    /* positional arguments: pointers into argv stored in a const char *[pos_max] array */
    const char *pos_name; /* "IN", for messages */
    size_t pos_offset;
    size_t pos_count; /* offset + 1 of an unsigned count; 0 = none */
    unsigned pos_min, pos_max;
} cli_spec_t;

/*
 * Fill `config` from argv (argv[0] is the command name). Returns 0, or
 * CLI_EXIT_USAGE after printing one line "fxt <cmd>: ..." to stderr: an
 * unknown option, a missing or malformed value, too many or too few
 * positional arguments.
 */
int cli_parse(const cli_spec_t *spec, int argc, char **argv, void *config);
/* 1 if the word `a` is one of spec's options that takes its value from the next word
 * ("-o FILE", "--mode M"), the way cli_parse reads it; 0 for flags, optional-value
 * options, attached values ("--mode=M", "-oFILE") and anything else. */
int cli_opt_takes_next(const cli_spec_t *spec, const char *a);

/* The option lines of a help text, generated from the table (wrapped at 80 columns). */
void cli_opts_print(FILE *f, const cli_opt_t *opts, size_t nopts);

/*
 * Value parsers the kinds use, for commands that parse a value themselves.
 * Return 0, or -1 for a malformed or out-of-range value.
 */
int cli_parse_uint(const char *s, uint64_t *out);
int cli_parse_size(const char *s, uint64_t *out);

#endif /* FXT_CLI_OPTS_H */
