# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3
# Events emitted while the session starts (issue 24.1): 4 threads make the
# process's first trace calls at once while the start is 30 ms slower (record_prog's
# getenv sleeps in FXT_TRACE_CATEGORIES). Every event is in the trace or counted as
# dropped, in each mode, standalone and under fxt record.
export RECORD_PROG_SLOW_START=1
for mode in oneshot circular streaming; do
  FXT_TRACE_OUTPUT="$T/s-$mode.fxt" FXT_TRACE_MODE=$mode FXT_TRACE_BUFFER_SIZE=4M "$PROG" race 300 4
  check_clean "$T/s-$mode.fxt"
  verify "$T/s-$mode.fxt" threads oneshot 300 4 > /dev/null
  "$FXT" record --mode $mode --buffer-size 4M -o "$T/r-$mode.fxt" -- "$PROG" race 300 4 2> "$T/r-$mode.err"
  check_clean "$T/r-$mode.fxt"
  verify "$T/r-$mode.fxt" threads oneshot 300 4 > /dev/null
done
