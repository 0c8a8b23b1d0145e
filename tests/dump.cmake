# SPDX-License-Identifier: MIT
# cli_json.c from the CLI's objects (compiled once, for fxt and the tests alike)
if(FXT_BUILD_CLI)
  fxt_add_unit_test(unit.cli_json SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_cli_json.c LIBS fxt_cli_objs)
endif()
