# SPDX-License-Identifier: MIT
# The viewer test (viewer/run.sh): fxt json output loaded by the DevTools trace
# engine (node + npm @paulirish/trace_engine, skipped when absent), and the
# cross-thread engine trace it and the check/cut CLI cases use.
add_executable(fxt_xthread_trace ${CMAKE_CURRENT_SOURCE_DIR}/viewer/xthread_trace.c)
target_link_libraries(fxt_xthread_trace PRIVATE libfxt Threads::Threads)
target_compile_definitions(fxt_xthread_trace PRIVATE _POSIX_C_SOURCE=200809L)
fxt_warnings(fxt_xthread_trace)
if(TARGET fxt_cli)
  set(viewer_env FXT=$<TARGET_FILE:fxt_cli> XTHREAD=$<TARGET_FILE:fxt_xthread_trace>
    SCRATCH=${CMAKE_BINARY_DIR}/viewer-scratch PYTHON=${FXT_CLI_PYTHON}
    # examples/ is configured after tests/: the demo is looked up at generation time
    "DEMO=$<$<TARGET_EXISTS:example_demo>:$<TARGET_FILE:example_demo>>"
    "PINGPONG=$<$<TARGET_EXISTS:example_pingpong>:$<TARGET_FILE:example_pingpong>>")
  add_test(NAME viewer.devtools COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/viewer/run.sh)
  set_tests_properties(viewer.devtools PROPERTIES ENVIRONMENT "${viewer_env}" LABELS "cli;slow"
    SKIP_RETURN_CODE 77 TIMEOUT 300 RESOURCE_LOCK tracefs)
endif()
