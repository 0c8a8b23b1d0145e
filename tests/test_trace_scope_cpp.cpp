/* SPDX-License-Identifier: MIT */
/* The same FXT_DURATION test as test_trace_scope.c, built as C++: there the
 * macro is a RAII object instead of a cleanup attribute, and both must give
 * the same events. */
#include "test_trace_scope.c"
