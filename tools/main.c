/* SPDX-License-Identifier: MIT */
/* The fxt command's entry point; everything else is in cli_main.c. */
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_io.h"

/* A closed output pipe (`fxt dump big.fxt | head -c1`) ends the command at its next write with
 * exit status 3 (an output that cannot be written), quietly: the reader chose to stop
 * (docs/cli.md). Not the shell's 141, so every failure to write exits the same way. */
static void on_sigpipe(int sig) {
    (void)sig;
    cli_output_abandon();
    _exit(CLI_EXIT_IO);
}

int main(int argc, char **argv) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigpipe;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGPIPE, &sa, NULL);
    return cli_main(argc, argv);
}
