# SPDX-License-Identifier: MIT
fxt_add_unit_test(unit.format SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_format.c)
