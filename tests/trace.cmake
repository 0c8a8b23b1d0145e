# SPDX-License-Identifier: MIT
fxt_add_unit_test(unit.trace SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_trace.c LABELS threads)
fxt_add_unit_test(unit.trace_off SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_trace_off.c)
fxt_add_unit_test(unit.trace.live SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_trace_live.c LABELS threads)
fxt_add_unit_test(unit.trace.env SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_trace_env.c)
fxt_add_unit_test(unit.trace.scope SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_trace_scope.c)
fxt_add_unit_test(unit.trace.scope_cpp SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_trace_scope_cpp.cpp)
# A runtime category does not compile (C and C++); a literal one does.
add_test(NAME unit.trace.compile/runtime_category_rejected
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/compile/category_literal.sh ${CMAKE_C_COMPILER} ${CMAKE_CXX_COMPILER}
                 ${PROJECT_SOURCE_DIR}/include ${CMAKE_CURRENT_BINARY_DIR}/compile-scratch)
set_tests_properties(unit.trace.compile/runtime_category_rejected PROPERTIES LABELS unit)
# Events emitted while a session starts (issue 24.1): recorded or counted.
fxt_add_unit_test(unit.trace.race SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_trace_race.c LABELS threads)
# Processes: fork children keep the whole configuration, process names, unique ids.
fxt_add_unit_test(unit.trace.proc SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_trace_proc.c)
# The buffer: populated off the hot path, huge pages where the system allows (issue 27).
fxt_add_unit_test(unit.trace.buffer SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_trace_buffer.c LABELS threads)
