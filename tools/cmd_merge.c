/* fxt merge: not implemented yet (placeholder so the command table links). */
#include <stdio.h>

#include "cli.h"

static int run(int argc, char **argv) {
    (void)argc;
    fprintf(stderr, "fxt: '%s' is not implemented yet\n", argv[0]);
    return CLI_EXIT_USAGE;
}

const cli_command_t cli_cmd_merge = {
    "merge", run, "(not implemented yet)",
    "usage: fxt merge ...\n",
};
