# SPDX-License-Identifier: MIT
# The configure summary: every optional part of the build and of the tests,
# whether it is built (or runs), and the Debian package that enables it
# (scripts/deps.sh installs them all). Printed with message(NOTICE), on
# standard error, so it stays visible where the Makefile hides CMake's other
# output (`>/dev/null`). Also runs as a script (cmake -DVAR=... -P), which is
# how the test build.configure_summary checks its lines.

if(CMAKE_SCRIPT_MODE_FILE)
  cmake_minimum_required(VERSION 3.16) # the project's policies (if() reads ON/OFF as constants)
endif()
set(FXT_SUMMARY "")
# One line: WHAT, BUILT (a condition's value; not named "on", which if() would
# take for the constant ON), and when off what enables it.
function(fxt_summary what built enable)
  string(LENGTH "${what}" len)
  set(pad "")
  if(len LESS 44)
    math(EXPR n "44 - ${len}")
    string(REPEAT " " ${n} pad)
  endif()
  if(built)
    set(state "yes")
  else()
    set(state "no  <- ${enable}")
  endif()
  set(FXT_SUMMARY "${FXT_SUMMARY}\n  ${what}${pad}${state}" PARENT_SCOPE)
endfunction()

if(NOT FXT_WITH_COMPRESSION)
  set(zio_enable "configured with -DFXT_WITH_COMPRESSION=OFF")
else()
  set(zio_enable "apt-get install zlib1g-dev libzstd-dev")
endif()
fxt_summary("compression: .gz/.zst traces (libfxt_zio)" "${FXT_HAVE_ZIO}" "${zio_enable}")

if(NOT CMAKE_SYSTEM_NAME STREQUAL "Linux")
  set(sched_enable "Linux only")
elseif(NOT FXT_WITH_SCHED)
  set(sched_enable "configured with -DFXT_WITH_SCHED=OFF")
else()
  # CMake finds libtracefs through pkg-config
  set(sched_enable "apt-get install pkg-config libtracefs-dev libtraceevent-dev")
endif()
fxt_summary("fxt record --sched (libtracefs)" "${FXT_HAVE_SCHED}" "${sched_enable}")

# SQL output: FXT_HAVE_SQLITE, set at the top level or in tools/ (then read
# from that directory's scope); no line while no part of the build defines it
set(sqlite_state "${FXT_HAVE_SQLITE}")
if(NOT DEFINED FXT_HAVE_SQLITE AND NOT CMAKE_SCRIPT_MODE_FILE AND TARGET fxt_cli)
  get_directory_property(sqlite_state DIRECTORY ${PROJECT_SOURCE_DIR}/tools DEFINITION FXT_HAVE_SQLITE)
endif()
if(DEFINED FXT_HAVE_SQLITE OR NOT sqlite_state STREQUAL "")
  fxt_summary("fxt sql, libfxt_sqlite (libsqlite3)" "${sqlite_state}" "apt-get install libsqlite3-dev")
endif()

if(FXT_BUILD_TESTS)
  find_program(FXT_SUMMARY_PYTHON3 python3)
  find_program(FXT_SUMMARY_JQ jq)
  find_program(FXT_SUMMARY_CLANG_FORMAT clang-format)
  find_program(FXT_SUMMARY_NODE node)
  fxt_summary("tests: CLI cases in Python (python3)" "${FXT_SUMMARY_PYTHON3}" "apt-get install python3")
  fxt_summary("tests: CLI cases reading JSON (jq)" "${FXT_SUMMARY_JQ}" "apt-get install jq")
  fxt_summary("tests: style (clang-format)" "${FXT_SUMMARY_CLANG_FORMAT}" "apt-get install clang-format")
  # viewer.devtools: node and the DevTools trace engine, which `npm ci` installs
  set(engine ${PROJECT_SOURCE_DIR}/tests/viewer/node_modules/@paulirish/trace_engine/package.json)
  if(NOT FXT_SUMMARY_NODE)
    set(viewer_enable "apt-get install nodejs npm, then npm ci in tests/viewer")
    set(viewer_on OFF)
  elseif(NOT EXISTS ${engine})
    set(viewer_enable "npm ci in tests/viewer")
    set(viewer_on OFF)
  else()
    set(viewer_on ON)
  endif()
  fxt_summary("tests: viewer.devtools (node, npm ci)" "${viewer_on}" "${viewer_enable}")
  # cli.sql.export-duckdb: DuckDB reading fxt sql --export's files, from npm
  set(duckdb ${PROJECT_SOURCE_DIR}/tests/sql/duckdb/node_modules/@duckdb/node-api/package.json)
  if(NOT FXT_SUMMARY_NODE)
    set(duckdb_enable "apt-get install nodejs npm, then npm ci in tests/sql/duckdb")
    set(duckdb_on OFF)
  elseif(NOT EXISTS ${duckdb})
    set(duckdb_enable "npm ci in tests/sql/duckdb")
    set(duckdb_on OFF)
  else()
    set(duckdb_on ON)
  endif()
  fxt_summary("tests: cli.sql.export-duckdb (node, npm ci)" "${duckdb_on}" "${duckdb_enable}")
  # perfetto.*: the trace_processor binary of the shared data, and its libraries
  set(tp ${FXT_SHARED_DIR}/tools/perfetto/tp)
  set(tp_on OFF)
  if(NOT EXISTS ${tp})
    set(tp_enable "${tp} absent (the shared data is not part of the repo)")
  else()
    execute_process(COMMAND ldd ${tp} OUTPUT_VARIABLE tp_libs ERROR_QUIET)
    if(tp_libs MATCHES "not found")
      set(tp_enable "apt-get install libprotobuf32 libsqlite3-0")
    else()
      set(tp_on ON)
    endif()
  endif()
  fxt_summary("tests: perfetto.* (trace_processor)" "${tp_on}" "${tp_enable}")
endif()

message(NOTICE "libfxt: optional parts in ${CMAKE_BINARY_DIR} (${CMAKE_BUILD_TYPE}, ${CMAKE_C_COMPILER_ID} ${CMAKE_C_COMPILER_VERSION}):${FXT_SUMMARY}")
