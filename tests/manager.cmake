# SPDX-License-Identifier: MIT
# The trace manager: a traced helper program for the `fxt record` CLI cases
# (tests/cli/record/, which find it as $BUILD/record_prog).
add_executable(record_prog ${CMAKE_CURRENT_SOURCE_DIR}/record_prog.c)
set_target_properties(record_prog PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
target_compile_definitions(record_prog PRIVATE _POSIX_C_SOURCE=200809L)
target_link_libraries(record_prog PRIVATE libfxt)
fxt_warnings(record_prog)
fxt_add_unit_test(unit.manager SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_manager.c LABELS threads)
fxt_add_unit_test(unit.manager_snapshot SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_manager_snapshot.c LABELS threads)
