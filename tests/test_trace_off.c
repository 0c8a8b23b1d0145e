/* SPDX-License-Identifier: MIT */
/* FXT_NO_TRACE: every macro compiles to nothing and evaluates nothing. */
#define FXT_NO_TRACE 1
#include "test.h"

#include <fxt/trace.h>

static int calls;
static int f(void) { return ++calls; }

static void test_compiled_out(void) {
    FXT_DURATION("c", "scope");
    FXT_INSTANT("c", "n", FXT_I32("a", f()));
    FXT_DURATION_BEGIN("c", "n", FXT_I32("a", f()));
    FXT_DURATION_END("c", "n", FXT_I32("a", f()));
    FXT_COUNTER("c", "n", f(), FXT_I64("v", f()));
    FXT_ASYNC_BEGIN("c", "n", f());
    FXT_ASYNC_INSTANT("c", "n", f());
    FXT_ASYNC_END("c", "n", f());
    FXT_FLOW_BEGIN("c", "n", f());
    FXT_FLOW_STEP("c", "n", f());
    FXT_FLOW_END("c", "n", f());
    FXT_LOG("c", "%d", f());
    FXT_BLOB("c", "n", "x", (size_t)f());
    CHECK(!FXT_CATEGORY_ENABLED("c"));
    CHECK_EQ_U64(calls, 0);
    (void)f; /* referenced only here: the macros must not expand their arguments */
}

int main(int argc, char **argv) {
    TEST_INIT(argc, argv);
    RUN(test_compiled_out);
    return TEST_EXIT();
}
