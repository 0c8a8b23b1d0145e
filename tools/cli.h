/* The fxt command: shared declarations of the subcommands and CLI helpers. */
#ifndef FXT_CLI_H
#define FXT_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes, documented in docs/cli.md. */
enum {
    CLI_EXIT_OK = 0,
    CLI_EXIT_DATA = 1,   /* the trace has errors / violations */
    CLI_EXIT_USAGE = 2,  /* bad command line */
    CLI_EXIT_IO = 3,     /* cannot read or write a file */
    CLI_EXIT_LIMIT = 4   /* out of memory or an internal limit */
};

/* One subcommand: `run` gets argv with argv[0] = the command name. */
typedef struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary; /* one line */
    const char *help;    /* full usage text, printed by `fxt help NAME` and `fxt NAME --help` */
} cli_command_t;

#define CLI_DECLARE_COMMAND(name) extern const cli_command_t cli_cmd_##name
CLI_DECLARE_COMMAND(dump);
CLI_DECLARE_COMMAND(json);
CLI_DECLARE_COMMAND(check);
CLI_DECLARE_COMMAND(stats);
CLI_DECLARE_COMMAND(synth);
CLI_DECLARE_COMMAND(merge);
CLI_DECLARE_COMMAND(cut);

/*
 * The whole fxt command: argv[0] is the program name, argv[1] the command.
 * Returns the exit status. main() calls it; the hostile-input tests and the
 * tools fuzz target call it in-process.
 */
int cli_main(int argc, char **argv);
/* Print a command's help to f. */
void cli_print_help(FILE *f, const cli_command_t *cmd);
/* 1 if argv contains -h or --help (callers print help and exit 0). */
int cli_wants_help(int argc, char **argv);

#endif /* FXT_CLI_H */
