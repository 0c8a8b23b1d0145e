/* SPDX-License-Identifier: MIT */
/*
 * Every fxt subcommand on one input, in-process: the hostile-input test and
 * the tools fuzz target share it. See tools_driver.c.
 */
#ifndef FXT_FUZZ_TOOLS_DRIVER_H
#define FXT_FUZZ_TOOLS_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/* Per-input outcome. */
typedef struct {
    int check_rc; /* exit status of `fxt check` (1: the input has errors) */
    int runs;     /* subcommands run */
} fxt_tools_result_t;

/*
 * Make a scratch directory for the driver's files (under $TMPDIR or /tmp).
 * Returns 0, or -1 with errno set.
 */
int fxt_tools_driver_init(char *dir, size_t dirlen);
/* Remove the scratch directory and its files. */
void fxt_tools_driver_fini(const char *dir);

/*
 * Write data[0..size) to a file in dir and run dump, dump --json, check,
 * check --json, stats, stats --json, json, cut, merge and (built with SQLite) sql with
 * queries over every table in every output format on it. Each must exit
 * 0 or 1 (never a usage, I/O or limit error on a small input) and every JSON
 * output must be valid JSON (JSON Lines for dump/check --json). Returns 0, or
 * -1 with a one-line reason in why.
 */
int fxt_tools_driver_run(const char *dir, const uint8_t *data, size_t size, fxt_tools_result_t *res,
                         char *why, size_t whylen);

/* The whole file at path in a malloc'd buffer (NULL if it cannot be read). */
char *fxt_tools_read_file(const char *path, size_t *len);

/* 1 when text[0..len) is one valid JSON value (RFC 8259), surrounded by whitespace only. */
int fxt_json_valid(const char *text, size_t len);

#endif /* FXT_FUZZ_TOOLS_DRIVER_H */
