# SPDX-License-Identifier: MIT
# The kernel scheduling source of fxt record --sched (tools/record/record_sched.h). The live
# cases need root and tracefs and skip with the reason otherwise; they run a reader thread.
if(FXT_BUILD_CLI)
  fxt_add_unit_test(unit.sched SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_record_sched.c
    LIBS fxt_cli_objs Threads::Threads LABELS threads)
  # Every fxt record --sched removes the tracefs instances of dead runs, which a case that
  # kills a run checks for: those cases run one at a time (cli cases: "# lock: tracefs").
  foreach(c live_pinned live_tree live_lost live_tsc)
    set_tests_properties(unit.sched/${c} PROPERTIES RESOURCE_LOCK tracefs)
  endforeach()
endif()
