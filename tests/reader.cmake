# SPDX-License-Identifier: MIT
fxt_add_unit_test(unit.reader SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_reader.c)
