# SPDX-License-Identifier: MIT
# The fxt command line: the shared option parser, every command's help and
# docs/cli.md against the option tables, and the shared output handling
# (in-process, through the fxt_cli_objs object library).
if(FXT_BUILD_CLI)
  fxt_add_unit_test(unit.cli_options SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_cli_options.c LIBS fxt_cli_objs)
endif()
# The parallel reader on a file truncated while it is mapped (tools/cli/cli_parallel.c).
if(FXT_BUILD_CLI)
  fxt_add_unit_test(unit.cli_parallel SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_cli_parallel.c LIBS fxt_cli_objs LABELS threads)
endif()
# Input and output of the fxt command (tools/cli/cli_io.c): an input that shrinks while read sequentially.
if(FXT_BUILD_CLI)
  fxt_add_unit_test(unit.cli_io SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_cli_io.c LIBS fxt_cli_objs)
endif()
