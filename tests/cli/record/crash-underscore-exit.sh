# SPDX-License-Identifier: MIT
# needs: python3
# _exit(0) (no atexit handler, the session is never stopped): every committed
# record is still collected from the shared buffer.
crash_case _exit 0
grep -q "exit 0 without stopping its session" "$T/streaming.err" || fail "summary: $(cat "$T/streaming.err")"
