/* SPDX-License-Identifier: MIT */
/* The fxt command's entry point; everything else is in cli_main.c. */
#include "cli.h"

int main(int argc, char **argv) { return cli_main(argc, argv); }
