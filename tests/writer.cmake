fxt_add_unit_test(unit.writer SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_writer.c)
