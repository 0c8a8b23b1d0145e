# SPDX-License-Identifier: MIT
# The kernel scheduling source of fxt record --sched (tools/record_sched.h). The live
# cases need root and tracefs and skip with the reason otherwise; they run a reader thread.
if(FXT_BUILD_CLI)
  fxt_add_unit_test(unit.sched SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_record_sched.c
    LIBS fxt_cli_objs Threads::Threads LABELS threads)
endif()
