# SPDX-License-Identifier: MIT
# needs: python3
# labels: slow
# Seeded standalone kill trials: 4 threads emit sequence-numbered events to
# FXT_TRACE_OUTPUT (no fxt record) and get SIGTERM, SIGINT, SIGSEGV or SIGQUIT at a
# random point (seeded: a seed repeats its delays); the file holds every committed
# event, gaps only where reported losses say so (kill_check.py), it checks clean,
# and the exit status is the signal's (or 0: the program had finished). SIGKILL
# cannot be caught: kill-trials.sh runs those under fxt record.
# FXT_KILL_TRIALS trials per mode (default 2, ~4 s), from seed FXT_KILL_SEED (default: a
# new one each run, printed; each trial's signal turns with the seed). 100 per mode take
# ~4 min, past ctest's 120 s: run the case by hand
# (tests/cli/README.md) with FXT_KILL_TRIALS=100.
. "$AREA_DIR/standalone_crash.bash"
trials=${FXT_KILL_TRIALS:-2}
# a new seed each run unless given: over many runs, many kill points; a failure names its seed
seed=${FXT_KILL_SEED:-$(($(date +%s) % 100000))}
echo "kill trials: $trials per mode, seed $seed (FXT_KILL_SEED=$seed repeats them)"
set -- TERM:15 INT:2 SEGV:11 QUIT:3
for mode in oneshot circular streaming; do
  size=$(standalone_size $mode)
  i=0
  while [ $i -lt "$trials" ]; do
    # 0-60 ms: before the session starts, while it emits, after the buffer filled
    d=$(awk -v s=$((seed * 1000 + i)) 'BEGIN { srand(s); printf "%.3f", rand() * 0.06 }')
    k=$(((seed + i) % 4 + 1))
    eval "sig=\${$k}"
    f="$T/$mode-$i.fxt"
    rm -f "$f.progress"
    FXT_TRACE_OUTPUT="$f" FXT_TRACE_MODE=$mode FXT_TRACE_BUFFER_SIZE=$size RECORD_PROG_PROGRESS="$f.progress" \
      env --default-signal=INT,QUIT "$PROG" emit 50000 4 exit 2> "$f.err" &
    h=$!
    sleep "$d"
    kill -"${sig%:*}" $h 2> /dev/null || true
    rc=0
    wait $h || rc=$?
    # killed before record_prog sized its progress file: no event counted yet
    [ "$(stat -c %s "$f.progress" 2> /dev/null || echo 0)" -ge 512 ] || head -c 512 /dev/zero > "$f.progress"
    [ $rc -eq 0 ] || [ $rc -eq $((128 + ${sig#*:})) ] ||
      fail "$mode trial $i (seed $seed, SIG${sig%:*} after ${d}s): exit status $rc"
    crash_file_check $mode "$f" "$f.progress" 0
    # killed: the handler wrote the trace and said so, or the program had emitted
    # everything and the stop at exit wrote it (the signal came during or after it)
    if [ $rc -ne 0 ] && [ -s "$f" ] &&
      ! "$FXT" dump "$f" | grep -q "name=\"provider_killed\" args={\"signal\": int32 ${sig#*:}}"; then
      "$PYTHON" -c 'import struct,sys; sys.exit(sum(struct.unpack("<64Q", open(sys.argv[1],"rb").read(512))) != 200000)' \
        "$f.progress" || fail "$mode trial $i (seed $seed, SIG${sig%:*} after ${d}s): killed mid-run, no fxt/provider_killed"
    fi
    i=$((i + 1))
  done
done
