/* SPDX-License-Identifier: MIT */
/* FXT_DURATION with arguments: one duration complete event per scope exit,
 * early returns included; arguments of a disabled category are not evaluated.
 * Built as C (cleanup attribute) and, by test_trace_scope_cpp.cpp, as C++ (RAII). */
#include "test.h"
#include "trace_scope_check.h"

static int scoped_fn(int early) {
    FXT_DURATION("scope", "outer", FXT_I32("x", scope_ev(7)), FXT_STR("s", "hello"));
    if (early) {
        return 1;
    }
    {
        FXT_DURATION("scope", "inner");
        FXT_DURATION("off", "disabled", FXT_I32("y", scope_ev(9)));
    }
    return 0;
}

static void test_scoped_args(void) {
    fxt_membuf_t mem = {NULL, 0, 0};
    fxt_session_config_t c = FXT_SESSION_CONFIG_INIT;
    c.sink = fxt_sink_membuf(&mem);
    c.categories = "scope";
    c.clock = FXT_CLOCK_MONOTONIC;
    CHECK(fxt_session_start(&c) == FXT_OK);
    CHECK_EQ_U64(scoped_fn(0), 0);
    CHECK_EQ_U64(scoped_fn(1), 1);
    CHECK(fxt_session_stop() == FXT_OK);
    CHECK_EQ_U64(scoped_fn(0), 0); /* no session: nothing evaluated */
    CHECK_EQ_U64(scope_evals, 2);
    scope_seen_t s;
    scope_decode(mem.data, mem.len, &s);
    CHECK_EQ_U64(s.errors, 0);
    CHECK_EQ_U64(s.outer_ok, 2);
    CHECK_EQ_U64(s.inner_ok, 1);
    CHECK_EQ_U64(s.disabled, 0);
    CHECK(s.nested_ok);
    fxt_membuf_free(&mem);
}

int main(int argc, char **argv) {
    TEST_INIT(argc, argv);
    RUN(test_scoped_args);
    return TEST_EXIT();
}
