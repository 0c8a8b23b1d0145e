# SPDX-License-Identifier: MIT
# Helpers of the standalone crash cases (no fxt record: FXT_TRACE_OUTPUT; the
# engine's own handler writes the trace at a fatal signal, docs/trace.md).
# A sanitizer's own SIGSEGV/SIGBUS/SIGFPE handler would keep the engine's out
# (it never replaces a program's handler): let the signals through.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_abort=0"
export TSAN_OPTIONS="${TSAN_OPTIONS:+$TSAN_OPTIONS:}handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_abort=0"

# standalone_size MODE: oneshot and circular fill (drops, overwrites), streaming writes as it goes
standalone_size() { if [ "$1" = streaming ]; then echo 1M; else echo 64k; fi; }

# crash_file_check MODE FILE PROGRESS SIG: the trace holds every committed event (or a
# reported loss covers it), checks clean, and (SIG > 0) says it ended by signal SIG
crash_file_check() {
  local mode=$1 f=$2 prog=$3 sig=$4
  # (TSan phase: the handler reads what other threads wrote, through the right fences)
  ! grep -q "ThreadSanitizer: data race" "$f.err" 2> /dev/null || fail "$f: $(grep -A3 'data race' "$f.err")"
  if [ ! -s "$f" ]; then
    # killed before its session started (no event committed): nothing to keep
    "$PYTHON" -c 'import struct,sys; sys.exit(sum(struct.unpack("<64Q", open(sys.argv[1],"rb").read(512))))' \
      "$prog" || fail "$f: empty, but events were committed"
    return 0
  fi
  check_clean "$f"
  "$FXT" dump --json "$f" > "$f.jsonl" || fail "fxt dump --json $f"
  "$PYTHON" "$AREA_DIR/kill_check.py" "$mode" "$prog" 4 < "$f.jsonl" > "$f.out" ||
    fail "$mode, signal $sig: $(cat "$f.out")"
  if [ "$sig" -gt 0 ]; then
    "$FXT" dump "$f" | grep -q "name=\"provider_killed\" args={\"signal\": int32 $sig}" ||
      fail "$f: no fxt/provider_killed {signal: $sig}"
  fi
}
