/* SPDX-License-Identifier: MIT */
/* JSON output helpers shared by the fxt subcommands. */
#ifndef FXT_CLI_JSON_H
#define FXT_CLI_JSON_H

#include <stddef.h>
#include <stdio.h>

/*
 * Write s[0..len) as a JSON string literal, quotes included. Bytes that are
 * not well-formed UTF-8 become U+FFFD, one per maximal subpart of an
 * ill-formed sequence (Unicode ch. 3); control characters are escaped.
 */
void cli_json_str(FILE *f, const char *s, size_t len);
/* The same through a writer callback (for outputs that are not a FILE). */
typedef void (*cli_json_put_fn)(void *ctx, const char *p, size_t n);
void cli_json_str_to(cli_json_put_fn put, void *ctx, const char *s, size_t len);
/*
 * Write a double so that it reads back to the same binary64 value.
 * NaN and infinities are written as the strings "NaN", "Infinity", "-Infinity".
 */
void cli_json_double(FILE *f, double v);
/* The same into buf (CLI_JSON_DOUBLE_MAX bytes, NUL-terminated); returns the length. */
#define CLI_JSON_DOUBLE_MAX 40
size_t cli_json_double_fmt(char *buf, double v);
/* 1 when s[0..len) is well-formed UTF-8. */
int cli_utf8_valid(const char *s, size_t len);

#endif /* FXT_CLI_JSON_H */
