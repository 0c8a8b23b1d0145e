/* SPDX-License-Identifier: MIT */
/* Shared by the C and C++ scoped-duration tests (test_trace_scope.c / _cpp.cpp). */
#ifndef FXT_TRACE_SCOPE_CHECK_H
#define FXT_TRACE_SCOPE_CHECK_H

#include <fxt/reader.h>
#include <fxt/trace.h>

#include <string.h>

static int scope_evals;
static int scope_ev(int v) {
    scope_evals++;
    return v;
}

static int scope_str_is(fxt_str_t s, const char *c) {
    return s.ptr != NULL && s.len == strlen(c) && memcmp(s.ptr, c, s.len) == 0;
}

typedef struct scope_seen {
    int errors, outer_ok, inner_ok, disabled, nested_ok;
    uint64_t outer_start[2], outer_end[2], inner_start, inner_end;
} scope_seen_t;

static void scope_decode(const uint8_t *data, size_t len, scope_seen_t *s) {
    memset(s, 0, sizeof *s);
    fxt_reader_t *r = NULL;
    if (fxt_reader_create(NULL, &r) != FXT_OK) {
        s->errors++;
        return;
    }
    fxt_in_buffer_t in = {data, len, 0};
    fxt_record_t rec;
    fxt_status st;
    while ((st = fxt_reader_next(r, &in, &rec)) != FXT_NEED_INPUT && st != FXT_END) {
        if (st != FXT_OK) {
            s->errors++;
            continue;
        }
        if (rec.kind != FXT_KIND_EVENT || rec.u.event.type != FXT_EVENT_DURATION_COMPLETE) {
            continue;
        }
        if (scope_str_is(rec.u.event.name, "outer")) {
            int ok = rec.nargs == 2 && scope_str_is(rec.args[0].name, "x") &&
                     rec.args[0].type == FXT_ARG_INT32 && rec.args[0].v.i32 == 7 &&
                     scope_str_is(rec.args[1].name, "s") && rec.args[1].type == FXT_ARG_STRING &&
                     scope_str_is(rec.args[1].str, "hello") && scope_str_is(rec.u.event.category, "scope") &&
                     rec.u.event.end_ts >= rec.u.event.ts;
            if (ok && s->outer_ok < 2) {
                s->outer_start[s->outer_ok] = rec.u.event.ts;
                s->outer_end[s->outer_ok] = rec.u.event.end_ts;
            }
            s->outer_ok += ok;
        } else if (scope_str_is(rec.u.event.name, "inner")) {
            s->inner_ok += rec.nargs == 0;
            s->inner_start = rec.u.event.ts;
            s->inner_end = rec.u.event.end_ts;
        } else if (scope_str_is(rec.u.event.name, "disabled")) {
            s->disabled++;
        }
    }
    if (fxt_reader_finish(r) != FXT_OK) {
        s->errors++;
    }
    fxt_reader_destroy(r);
    /* the inner scope (first call) lies within the first outer scope */
    s->nested_ok = s->outer_ok == 2 && s->inner_start >= s->outer_start[0] && s->inner_end <= s->outer_end[0];
}

#endif
