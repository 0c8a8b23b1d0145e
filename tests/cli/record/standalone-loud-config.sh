# SPDX-License-Identifier: MIT
# Without a manager: an invalid FXT_TRACE_* value or an unwritable output prints
# one clear line on stderr and traces nothing (the program runs normally).
unset FXT_TRACE_MANAGER
run() { # VAR=VALUE...: the program's stderr
  env FXT_TRACE_OUTPUT="$T/t.fxt" "$@" "$PROG" emit 10 1 exit 2>&1
  [ ! -e "$T/t.fxt" ] || fail "$*: a trace was written"
}
expect_eq "mode" "$(run FXT_TRACE_MODE=stream)" \
  "libfxt: FXT_TRACE_MODE=stream is not oneshot, circular or streaming; not tracing"
expect_eq "size" "$(run FXT_TRACE_BUFFER_SIZE=lots)" \
  "libfxt: FXT_TRACE_BUFFER_SIZE=lots is not a size in bytes (e.g. 65536, 64k, 32M, 1G); not tracing"
expect_eq "clock" "$(run FXT_TRACE_CLOCK=wall)" \
  "libfxt: FXT_TRACE_CLOCK=wall is not auto, monotonic or tsc; not tracing"
expect_eq "output" "$(env FXT_TRACE_OUTPUT="$T/no/such/dir/t.fxt" "$PROG" emit 10 1 exit 2>&1)" \
  "libfxt: cannot write the trace to $T/no/such/dir/t.fxt (No such file or directory); not tracing"
expect_eq "manager" "$(env FXT_TRACE_MANAGER="$T/no.sock" "$PROG" emit 10 1 exit 2>&1)" \
  "libfxt: cannot reach the trace manager at FXT_TRACE_MANAGER=$T/no.sock (No such file or directory); not tracing"
