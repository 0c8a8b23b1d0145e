# SPDX-License-Identifier: MIT
fxt_add_unit_test(unit.cli_json SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_cli_json.c
  ${PROJECT_SOURCE_DIR}/tools/cli/cli_json.c)
target_include_directories(unit.cli_json PRIVATE ${PROJECT_SOURCE_DIR}/tools/cli)
