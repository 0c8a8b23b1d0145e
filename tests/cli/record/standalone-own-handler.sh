# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3
# labels: threads
# A program with its own SIGSEGV handler, standalone: the engine leaves it alone
# (the handler runs, the trace is not written at the signal: oneshot and circular
# leave an empty file, streaming the chunks written before), and the handler can
# call fxt_session_flush_on_crash() itself: then the file holds every committed
# event and fxt/provider_killed {signal: 11}, and the re-raise gives status 139.
. "$AREA_DIR/standalone_crash.bash"
for mode in oneshot circular streaming; do
  size=$(standalone_size $mode)
  f="$T/$mode-own.fxt"
  rc=0
  # the handler _exits with the program's threads unjoined: under TSan that is a "thread leak"
  # report (exit 66), the program's doing, not the engine's
  TSAN_OPTIONS="${TSAN_OPTIONS:-}:report_thread_leaks=0" \
    FXT_TRACE_OUTPUT="$f" FXT_TRACE_MODE=$mode FXT_TRACE_BUFFER_SIZE=$size "$PROG" emit 100 4 own-segv 2> "$f.err" ||
    rc=$?
  expect_eq "$mode own-segv: exit status" $rc 3
  grep -q "own handler" "$f.err" || fail "$mode: the program's handler did not run"
  [ -f "$f" ] || fail "$mode: no trace file"
  [ $mode = streaming ] || [ ! -s "$f" ] || fail "$mode: the engine wrote the trace at the program's signal"
  [ ! -s "$f" ] || ! "$FXT" dump "$f" | grep -q provider_killed || fail "$mode: the engine took the program's signal"
  f="$T/$mode-flush.fxt"
  rc=0
  FXT_TRACE_OUTPUT="$f" FXT_TRACE_MODE=$mode FXT_TRACE_BUFFER_SIZE=$size RECORD_PROG_PROGRESS="$f.progress" \
    "$PROG" emit 1000 4 own-flush 2> "$f.err" || rc=$?
  expect_eq "$mode own-flush: exit status" $rc 139
  crash_file_check $mode "$f" "$f.progress" 11
done
