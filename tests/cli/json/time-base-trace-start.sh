# SPDX-License-Identifier: MIT
# needs: python3 jq
# --time-base=trace-start: ts relative to the first timestamp read (here a
# context switch at 1.5 us), in events and system lines; the base is given in
# metadata; the default is absolute.
"$FXT" json --time-base=trace-start sys.fxt > "$T/rel.json" 2> /dev/null
expect_eq "ts" "$(jq -c '[.traceEvents[] | select(.ph!="M") | .ts]' "$T/rel.json")" "[1.5,2,2.5]"
expect_eq "absolute ts" "$(jq -c '[.traceEvents[] | select(.ph!="M") | .ts]' sys.json)" "[3,3.5,4]"
expect_eq "base" "$(jq -c '.metadata' "$T/rel.json")" '{"fxt-time-base-ns":1500}'
expect_eq "first system line" "$(jq -r '.systemTraceEvents' "$T/rel.json" | sed -n 2p | cut -d: -f1)" "tid-101-101 [002] .... 0.000000000"
# epoch-scale nanoseconds stay exact: a begin at ~1.76e18 ns and its pair 3 ns later
"$PYTHON" - "$T/e.fxt" <<'PY'
import os, sys; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
t = magic() + provider_info(1, "p") + thread(1, 5, 6)
t += event(BEGIN, 1763000000123456789, 1, sref("c"), sref("b")) + event(END, 1763000000123456792, 1, sref("c"), sref("b"))
write(sys.argv[1], t)
PY
expect_eq "epoch pair" "$("$FXT" json --time-base=trace-start "$T/e.fxt" 2> /dev/null | jq -c '[.traceEvents[] | [.ts, .dur]]')" "[[0,0.003]]"
