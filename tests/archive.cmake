fxt_add_cli_test(cli.archive ${CMAKE_CURRENT_SOURCE_DIR}/cli/archive.sh)
fxt_add_unit_test(unit.archive SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_archive.c)
