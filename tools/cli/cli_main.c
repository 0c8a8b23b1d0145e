/* SPDX-License-Identifier: MIT */
/* The fxt command: dispatch to subcommands (one file per subcommand). Kept
 * apart from main() so tests and fuzz targets run the whole CLI in-process. */
#include <fxt/common.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The order of `fxt --help`'s command list. */
const cli_command_t *const cli_commands[] = {
    &cli_cmd_dump,  &cli_cmd_json, &cli_cmd_check,  &cli_cmd_stats, &cli_cmd_synth,
    &cli_cmd_merge, &cli_cmd_cut,  &cli_cmd_record, &cli_cmd_sql,
};
const size_t cli_ncommands = sizeof cli_commands / sizeof cli_commands[0];

/* A command's help: usage, description, the options table, then notes (exit statuses). */
void cli_print_help(FILE *f, const cli_command_t *cmd) {
    fprintf(f, "usage: %s\n\n%s", cmd->usage, cmd->about);
    if (cmd->spec->nopts > 0) {
        fputc('\n', f);
        cli_opts_print(f, cmd->spec->opts, cmd->spec->nopts);
    }
    if (cmd->notes != NULL) {
        fprintf(f, "\n%s", cmd->notes);
    }
}

/* -h/--help anywhere before "--" asks for help, so "fxt cut x.fxt --help" works; after "--"
 * it is an operand (a file could be called that). */
int cli_wants_help(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            break;
        }
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            return 1;
        }
    }
    return 0;
}

static void usage(FILE *f) {
    fprintf(f, "usage: fxt <command> [options] [args]\n\n"
               "Tools for the Fuchsia Trace Format (FXT).\n\ncommands:\n");
    for (size_t i = 0; i < cli_ncommands; i++) {
        fprintf(f, "  %-8s %s\n", cli_commands[i]->name, cli_commands[i]->summary);
    }
    fprintf(f, "  %-8s %s\n", "help", "show help for a command (fxt help <command>)");
    fprintf(f, "  %-8s %s\n", "version", "print the version");
    fprintf(f, "\nexit codes: 0 ok, 1 trace has errors, 2 usage error, 3 I/O error,\n"
               "4 out of memory or an internal limit\n");
}

const cli_command_t *cli_find_command(const char *name) {
    for (size_t i = 0; i < cli_ncommands; i++) {
        if (strcmp(cli_commands[i]->name, name) == 0) {
            return cli_commands[i];
        }
    }
    return NULL;
}

/* Parse the command's options into a config on the heap (record's holds 32 KiB of argument slots,
 * kept off the stack) and run it. The exit status. */
static int run_command(const cli_command_t *cmd, int argc, char **argv) {
    char **args = NULL;
    if (cmd->prepare_args != NULL) {
        args = malloc(((size_t)argc + 2) * sizeof *args);
    }
    void *config = calloc(1, cmd->spec->config_size);
    int rc;
    if (config == NULL || (cmd->prepare_args != NULL && args == NULL)) {
        fprintf(stderr, "fxt %s: out of memory\n", cmd->name);
        rc = CLI_EXIT_LIMIT;
    } else {
        if (args != NULL) {
            argc = cmd->prepare_args(argc, argv, args);
            argv = args;
        }
        rc = cli_parse(cmd->spec, argc, argv, config);
        if (rc == 0) {
            rc = cmd->run(config);
        }
    }
    free(config);
    free(args);
    return rc;
}

/* argv[1] is the command; the command sees argv shifted by one, with its own name as argv[0]. */
int cli_main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "-h") == 0 || strcmp(name, "--help") == 0) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(name, "version") == 0 || strcmp(name, "--version") == 0) {
        printf("fxt %s\n", fxt_version());
        return CLI_EXIT_OK;
    }
    if (strcmp(name, "help") == 0) {
        if (argc < 3) {
            usage(stdout);
            return CLI_EXIT_OK;
        }
        const cli_command_t *cmd = cli_find_command(argv[2]);
        if (!cmd) {
            fprintf(stderr, "fxt: unknown command '%s'\n", argv[2]);
            return CLI_EXIT_USAGE;
        }
        cli_print_help(stdout, cmd);
        return CLI_EXIT_OK;
    }
    const cli_command_t *cmd = cli_find_command(name);
    if (!cmd) {
        fprintf(stderr, "fxt: unknown command '%s' (try 'fxt --help')\n", name);
        return CLI_EXIT_USAGE;
    }
    /* Help is handled before the command's parser, so it works even with otherwise bad arguments. */
    if (cli_wants_help(argc - 1, argv + 1)) {
        cli_print_help(stdout, cmd);
        return CLI_EXIT_OK;
    }
    return run_command(cmd, argc - 1, argv + 1);
}
