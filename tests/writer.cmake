# SPDX-License-Identifier: MIT
fxt_add_unit_test(unit.writer SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_writer.c)
fxt_add_unit_test(unit.writer.encode SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_writer_encode.c)
