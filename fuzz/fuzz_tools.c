/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for the whole fxt command: every subcommand runs in-process on
 * the input (tools_driver.c). A crash, a memory error under ASan, an exit
 * status other than 0/1 or invalid JSON output is a bug. Built as a real
 * fuzzer with FXT_FUZZ_ENGINE=libfuzzer; in the normal build the same inputs
 * are covered by tests/test_hostile.c.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tools_driver.h"

static char dir[4096];

static void cleanup(void) { fxt_tools_driver_fini(dir); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (dir[0] == '\0') {
        if (fxt_tools_driver_init(dir, sizeof dir) != 0) {
            perror("fuzz_tools: scratch directory");
            abort();
        }
        atexit(cleanup);
    }
    fxt_tools_result_t res;
    char why[512];
    if (fxt_tools_driver_run(dir, data, size, &res, why, sizeof why) != 0) {
        fprintf(stderr, "fuzz_tools: %s\n", why);
        abort();
    }
    return 0;
}
