# SPDX-License-Identifier: MIT
# CLI tests (see cli/README.md): every cli/<area>/<case>.sh is one test,
# cli.<area>.<case>, run by cli/run_case.sh in the area's scratch dir after the
# area's setup, the test cli.<area>.setup (a fixture, so `ctest -R` on one case
# runs it too).
if(NOT TARGET fxt_cli)
  return()
endif()


# The interpreter itself, not a version manager's shim (which can cost a few
# hundred ms per start); empty if none: cases that need python3 skip.
find_package(Python3 COMPONENTS Interpreter QUIET)
set(FXT_CLI_PYTHON "")
if(Python3_Interpreter_FOUND)
  execute_process(COMMAND ${Python3_EXECUTABLE} -c "import sys; print(sys.executable)"
    OUTPUT_VARIABLE FXT_CLI_PYTHON OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(NOT FXT_CLI_PYTHON)
    set(FXT_CLI_PYTHON ${Python3_EXECUTABLE})
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
    FXT_HAVE_ZIO=${FXT_HAVE_ZIO} PYTHON=${FXT_CLI_PYTHON} PYTHONDONTWRITEBYTECODE=1)
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
