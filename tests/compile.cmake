# SPDX-License-Identifier: MIT
# Exhaustive switches over record kinds (-Wswitch-enum, issue 26): see compile/switch_enum.sh.
set(probe ${CMAKE_CURRENT_BINARY_DIR}/compile/switch_enum.c)
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/compile/switch_enum.c ${probe} COPYONLY)
add_library(fxt_switch_enum_complete OBJECT ${probe})
add_library(fxt_switch_enum_missing OBJECT EXCLUDE_FROM_ALL ${probe})
target_compile_definitions(fxt_switch_enum_missing PRIVATE FXT_PROBE_MISSING)
foreach(t fxt_switch_enum_complete fxt_switch_enum_missing)
  target_include_directories(${t} PRIVATE ${PROJECT_SOURCE_DIR}/include)
  fxt_warnings(${t})
endforeach()
add_test(NAME unit.compile/switch_enum_exhaustive
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/compile/switch_enum.sh ${CMAKE_BINARY_DIR} ${probe})
set_tests_properties(unit.compile/switch_enum_exhaustive PROPERTIES LABELS unit RUN_SERIAL ON)
