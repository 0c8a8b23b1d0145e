# SPDX-License-Identifier: MIT
# What Perfetto sees (perfetto/tp_compare.py): the FXT and the `fxt json` output of
# one trace per kind loaded into Perfetto's trace_processor (FXT_SHARED_DIR's
# tools/perfetto/tp), compared with each other and with the FXT. One entry per
# trace kind, perfetto.<kind>; each skips (77, reason printed) without python3,
# without tp or when tp does not start; perfetto.sched also without tracefs.
# Not under sanitizers: these compare Perfetto's reading with fxt's (semantics, which the
# plain phase checks); the fxt subcommands they run run under the sanitizers in tests/cli.
if(NOT TARGET fxt_cli OR NOT FXT_CLI_PYTHON OR FXT_SANITIZE)
  return()
endif()
foreach(kind demo synth synth-all record sched)
  set(env FXT=$<TARGET_FILE:fxt_cli> FXT_SHARED_DIR=${FXT_SHARED_DIR}
    SCRATCH=${CMAKE_BINARY_DIR}/perfetto-scratch RECORD_PROG=$<TARGET_FILE:record_prog>
    # examples/ is configured after tests/: looked up at generation time
    "DEMO=$<$<TARGET_EXISTS:example_demo>:$<TARGET_FILE:example_demo>>"
    "PINGPONG=$<$<TARGET_EXISTS:example_pingpong>:$<TARGET_FILE:example_pingpong>>")
  add_test(NAME perfetto.${kind} COMMAND ${FXT_CLI_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/perfetto/tp_compare.py ${kind})
  set_tests_properties(perfetto.${kind} PROPERTIES ENVIRONMENT "${env}" LABELS "cli" SKIP_RETURN_CODE 77 TIMEOUT 120)
endforeach()
# the 2 MB synth trace takes a few seconds (more under the sanitizers): plain phase only
set_property(TEST perfetto.synth APPEND PROPERTY LABELS slow)
# fxt record --sched uses tracefs, a resource of the machine (as tests/cli/record's cases)
set_property(TEST perfetto.sched APPEND PROPERTY RESOURCE_LOCK tracefs)
