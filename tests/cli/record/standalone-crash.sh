# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3
# labels: threads
# Standalone (FXT_TRACE_OUTPUT, no fxt record), 4 threads of sequence-numbered
# events, then a fatal signal: SIGSEGV, abort(), SIGTERM, SIGINT (SIGINT and
# SIGQUIT are ignored in a shell's background jobs: env --default-signal gives
# the program the default action, which the engine needs to take it over). In
# each mode the file holds every committed event or a reported loss, checks
# clean, says fxt/provider_killed {signal}, and the exit status is the signal's.
. "$AREA_DIR/standalone_crash.bash"
for mode in oneshot circular streaming; do
  size=$(standalone_size $mode)
  for end in segv:11 abort:6; do
    f="$T/$mode-${end%:*}.fxt"
    rc=0
    FXT_TRACE_OUTPUT="$f" FXT_TRACE_MODE=$mode FXT_TRACE_BUFFER_SIZE=$size RECORD_PROG_PROGRESS="$f.progress" \
      "$PROG" emit 1000 4 "${end%:*}" 2> "$f.err" || rc=$?
    expect_eq "$mode ${end%:*}: exit status" $rc $((128 + ${end#*:}))
    crash_file_check $mode "$f" "$f.progress" "${end#*:}"
  done
  for sig in TERM:15 INT:2; do
    f="$T/$mode-${sig%:*}.fxt"
    FXT_TRACE_OUTPUT="$f" FXT_TRACE_MODE=$mode FXT_TRACE_BUFFER_SIZE=$size RECORD_PROG_PROGRESS="$f.progress" \
      env --default-signal=INT,QUIT "$PROG" emit 1000 4 hang > "$f.out" 2> "$f.err" &
    h=$!
    n=0
    until grep -q ready "$f.out" 2> /dev/null; do
      n=$((n + 1))
      [ $n -lt 500 ] || fail "$mode: record_prog never got ready"
      sleep 0.01
    done
    kill -"${sig%:*}" $h
    rc=0
    wait $h || rc=$?
    expect_eq "$mode SIG${sig%:*}: exit status" $rc $((128 + ${sig#*:}))
    crash_file_check $mode "$f" "$f.progress" "${sig#*:}"
  done
done
