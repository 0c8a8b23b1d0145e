# SPDX-License-Identifier: MIT
# CLI tests (see cli/README.md): every cli/<area>/<case>.sh is one test,
# cli.<area>.<case>, run by cli/run_case.sh in the area's scratch dir after the
# area's setup, the test cli.<area>.setup (a fixture, so `ctest -R` on one case
# runs it too).
if(NOT TARGET fxt_cli)
  return()
endif()


# The interpreter itself, not a version manager's shim (which can cost a few hundred ms per
# start), and the distribution's (/usr/bin/python3, which scripts/deps.sh installs) before one
# on PATH: the cases start python3 hundreds of times, and a version manager's build (pyenv) can
# cost 3-4 times as much per start (its build, its site-packages' .pth files). The tests use
# the standard library only. -DFXT_TEST_PYTHON=... chooses another; empty if none: cases that
# need python3 skip.
set(FXT_TEST_PYTHON "" CACHE FILEPATH "python3 for the tests (empty: /usr/bin/python3 if >= 3.8, else the one on PATH)")
set(FXT_CLI_PYTHON "${FXT_TEST_PYTHON}")
if(NOT FXT_CLI_PYTHON AND EXISTS /usr/bin/python3)
  execute_process(COMMAND /usr/bin/python3 -c "import sys; sys.exit(sys.version_info < (3, 8))"
    RESULT_VARIABLE py_old OUTPUT_QUIET ERROR_QUIET)
  if(py_old EQUAL 0)
    set(FXT_CLI_PYTHON /usr/bin/python3)
  endif()
endif()
if(NOT FXT_CLI_PYTHON)
  find_package(Python3 COMPONENTS Interpreter QUIET)
  if(Python3_Interpreter_FOUND)
    execute_process(COMMAND ${Python3_EXECUTABLE} -c "import sys; print(sys.executable)"
      OUTPUT_VARIABLE FXT_CLI_PYTHON OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(NOT FXT_CLI_PYTHON)
      set(FXT_CLI_PYTHON ${Python3_EXECUTABLE})
    endif()
  endif()
endif()

set(FXT_CLI_RUNNER ${CMAKE_CURRENT_SOURCE_DIR}/cli/run_case.sh)
file(GLOB FXT_CLI_AREAS LIST_DIRECTORIES true CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/cli/*)
foreach(dir ${FXT_CLI_AREAS})
  if(NOT IS_DIRECTORY ${dir})
    continue()
  endif()
  get_filename_component(area ${dir} NAME)
  set(labels cli)
  if(area STREQUAL "install")
    # make install + find_package/pkg-config consumers: not under sanitizers
    # (the consumer would need the same instrumentation flags); its cases that
    # need fxt::zio skip without FXT_HAVE_ZIO
    if(FXT_SANITIZE)
      continue()
    endif()
    list(APPEND labels slow)
  endif()
  set(env FXT=$<TARGET_FILE:fxt_cli> SRC=${PROJECT_SOURCE_DIR} SHARED=${FXT_SHARED_DIR}
    SCRATCH=${CMAKE_BINARY_DIR}/cli-scratch/${area} BUILD=${CMAKE_BINARY_DIR}
    FXT_HAVE_ZIO=${FXT_HAVE_ZIO} PYTHON=${FXT_CLI_PYTHON} PYTHONDONTWRITEBYTECODE=1
    FXT_SANITIZE=${FXT_SANITIZE})
  add_test(NAME cli.${area}.setup COMMAND bash ${FXT_CLI_RUNNER} setup ${dir})
  set_tests_properties(cli.${area}.setup PROPERTIES FIXTURES_SETUP cli.${area}
    ENVIRONMENT "${env}" LABELS "${labels}" TIMEOUT 120)
  file(GLOB cases CONFIGURE_DEPENDS ${dir}/*.sh)
  foreach(case ${cases})
    get_filename_component(name ${case} NAME_WLE)
    if(name STREQUAL "setup")
      continue()
    endif()
    # a "# labels: slow" line adds labels to one case
    set(case_labels ${labels})
    file(STRINGS ${case} extra REGEX "^# labels:")
    foreach(line ${extra})
      string(REGEX REPLACE "^# labels:[ \t]*" "" line "${line}")
      separate_arguments(line UNIX_COMMAND "${line}")
      list(APPEND case_labels ${line})
    endforeach()
    list(REMOVE_DUPLICATES case_labels)
    # a "# not under ASan: WHY" line: the case is not registered in an AddressSanitizer
    # build (WHY says where ASan runs the same fxt code; docs/testing.md)
    file(STRINGS ${case} noasan REGEX "^# not under ASan:")
    if(noasan AND FXT_SANITIZE MATCHES "address")
      continue()
    endif()
    add_test(NAME cli.${area}.${name} COMMAND bash ${FXT_CLI_RUNNER} case ${case})
    set_tests_properties(cli.${area}.${name} PROPERTIES FIXTURES_REQUIRED cli.${area}
      ENVIRONMENT "${env}" LABELS "${case_labels}" SKIP_RETURN_CODE 77 TIMEOUT 120)
    # a "# lock: NAME" line: cases sharing NAME (a system resource) run one at a time
    file(STRINGS ${case} locks REGEX "^# lock:")
    foreach(line ${locks})
      string(REGEX REPLACE "^# lock:[ \t]*" "" line "${line}")
      set_property(TEST cli.${area}.${name} APPEND PROPERTY RESOURCE_LOCK ${line})
    endforeach()
  endforeach()
endforeach()
