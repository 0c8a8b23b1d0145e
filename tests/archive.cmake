# SPDX-License-Identifier: MIT
fxt_add_unit_test(unit.archive SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_archive.c)
if(FXT_HAVE_ZIO)
  fxt_add_unit_test(unit.zio SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_zio.c LIBS fxt_zio)
endif()
fxt_add_unit_test(unit.archive.buffers SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_merge_buffers.c)
