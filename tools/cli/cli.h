/* SPDX-License-Identifier: MIT */
/* The fxt command: shared declarations of the subcommands and CLI helpers. */
#ifndef FXT_CLI_H
#define FXT_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli_opts.h"

/* For per-record helpers the compiler left as calls costing as much as their work (gcc, clang;
 * plain static inline elsewhere). CLI_NOINLINE: the rare paths of such a per-record function,
 * kept out of it so its hot path needs a smaller frame. */
#if defined(__GNUC__) || defined(__clang__)
#define CLI_INLINE static inline __attribute__((always_inline))
#define CLI_NOINLINE static __attribute__((noinline))
#else
#define CLI_INLINE static inline
#define CLI_NOINLINE static
#endif

/* Exit codes, documented in docs/cli.md. */
enum {
    CLI_EXIT_OK = 0,
    CLI_EXIT_DATA = 1,  /* the trace has errors / violations */
    CLI_EXIT_USAGE = 2, /* bad command line */
    CLI_EXIT_IO = 3,    /* cannot read or write a file */
    CLI_EXIT_LIMIT = 4  /* out of memory or an internal limit */
};

/*
 * One subcommand. cli_main runs it the same way for every command: the config
 * (spec->config_size bytes) is allocated on the heap, zeroed, filled by
 * cli_parse(spec) from argv (argv[0] = the command name), and handed to `run`,
 * whose result is the exit status. The help text is assembled from usage,
 * about, the option table (spec->opts) and notes, so it always lists exactly
 * the options the parser accepts.
 */
typedef struct cli_command {
    const char *name;
    int (*run)(void *config); /* the command, on its parsed config; returns the exit status */
    /* NULL, or rewrites argv before cli_parse sees it (fxt record: CMD's own options are not
     * fxt's): fills out (room for argc + 2 pointers) and returns its count, out[count] = NULL. */
    int (*prepare_args)(int argc, char **argv, char **out);
    const char *summary;    /* one line, for `fxt --help` */
    const char *usage;      /* the synopsis, after "usage: " */
    const char *about;      /* what the command does (before the options) */
    const cli_spec_t *spec; /* options and positional arguments */
    const char *notes;      /* details and exit status (after the options); may be NULL */
} cli_command_t;

#define CLI_DECLARE_COMMAND(name) extern const cli_command_t cli_cmd_##name
CLI_DECLARE_COMMAND(dump);
CLI_DECLARE_COMMAND(json);
CLI_DECLARE_COMMAND(check);
CLI_DECLARE_COMMAND(stats);
CLI_DECLARE_COMMAND(synth);
CLI_DECLARE_COMMAND(merge);
CLI_DECLARE_COMMAND(cut);
CLI_DECLARE_COMMAND(record);
CLI_DECLARE_COMMAND(sql);

/* Every subcommand, in the order `fxt --help` lists them. */
extern const cli_command_t *const cli_commands[];
extern const size_t cli_ncommands;
/* The subcommand called `name`, or NULL. */
const cli_command_t *cli_find_command(const char *name);

/*
 * The whole fxt command: argv[0] is the program name, argv[1] the command.
 * Returns the exit status. main() calls it; the hostile-input tests and the
 * tools fuzz target call it in-process.
 */
int cli_main(int argc, char **argv);
/* Print a command's help to f: usage, about, the options from its table, notes. */
void cli_print_help(FILE *f, const cli_command_t *cmd);
/* 1 if argv contains -h or --help (callers print help and exit 0). */
int cli_wants_help(int argc, char **argv);

#endif /* FXT_CLI_H */
