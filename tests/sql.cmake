# SPDX-License-Identifier: MIT
# The SQLite extension (docs/sql.md): hand-computed tables (test_sql.c, linked with the
# extension's objects and libsqlite3), hostile input (test_sql_hostile.c), and the loadable
# module in the sqlite3 shell and Python's sqlite3 (tests/sql/load.sh; skipped without them,
# and under sanitizers: an uninstrumented host cannot load an instrumented module).
if(NOT FXT_HAVE_SQLITE)
  return()
endif()
fxt_add_unit_test(unit.sql SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_sql.c LIBS fxt_sqlite_objs)
if(NOT FXT_SANITIZE)
  add_test(NAME sql.module.exports COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/sql/exports.sh $<TARGET_FILE:fxt_sqlite>)
  set_tests_properties(sql.module.exports PROPERTIES LABELS "unit" SKIP_RETURN_CODE 77 TIMEOUT 60)
  foreach(host shell python)
    add_test(NAME sql.load.${host} COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/sql/load.sh ${host}
      $<TARGET_FILE:fxt_sqlite> ${PROJECT_SOURCE_DIR}/fuzz/corpus/reader/all_records_le.fxt)
    set_tests_properties(sql.load.${host} PROPERTIES LABELS "unit" SKIP_RETURN_CODE 77 TIMEOUT 60)
  endforeach()
endif()
fxt_add_unit_test(unit.sql_hostile SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_sql_hostile.c LIBS fxt_sqlite_objs)
