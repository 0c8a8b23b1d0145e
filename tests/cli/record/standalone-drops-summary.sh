# SPDX-License-Identifier: MIT
# Without a manager, records dropped for lack of buffer are said at exit in one line.
unset FXT_TRACE_MANAGER
out=$(FXT_TRACE_OUTPUT="$T/t.fxt" FXT_TRACE_BUFFER_SIZE=64k "$PROG" emit 5000 2 exit 2>&1)
case $out in
  "libfxt: $T/t.fxt: "*" of "*" records dropped (buffer full; raise FXT_TRACE_BUFFER_SIZE or use FXT_TRACE_MODE=circular/streaming)") ;;
  *) fail "summary line: $out" ;;
esac
expect_eq "quiet without drops" "$(FXT_TRACE_OUTPUT="$T/u.fxt" "$PROG" emit 50 2 exit 2>&1)" ""
