# SPDX-License-Identifier: MIT
# Every subcommand on hostile input, in-process (see tests/test_hostile.c).
if(FXT_BUILD_CLI)
  fxt_add_unit_test(unit.hostile SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_hostile.c
    ${PROJECT_SOURCE_DIR}/fuzz/tools_driver.c LIBS fxt_cli_objs)
  target_include_directories(unit.hostile PRIVATE ${PROJECT_SOURCE_DIR}/fuzz)
endif()
