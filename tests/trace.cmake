# SPDX-License-Identifier: MIT
fxt_add_unit_test(unit.trace SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_trace.c LABELS threads)
fxt_add_unit_test(unit.trace_off SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_trace_off.c)
fxt_add_unit_test(unit.trace.live SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_trace_live.c LABELS threads)
fxt_add_unit_test(unit.trace.env SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_trace_env.c)
fxt_add_unit_test(unit.trace.scope SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_trace_scope.c)
fxt_add_unit_test(unit.trace.scope_cpp SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_trace_scope_cpp.cpp)
