# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: shared
# magic-trace's real trace starts inside running functions: its duration ends
# without begins are warnings (duration-end-first before the thread's first
# begin, duration-unmatched after), so the trace passes with warnings only.
"$FXT" check "$SHARED/samples/foreign/magictrace_kernel_pt.fxt" > "$T/out.txt"
summary=$(tail -1 "$T/out.txt")
case $summary in
  *": 0 errors, "*"duration-end-first x3"*"duration-unmatched"*|*": 0 errors, "*"duration-unmatched"*"duration-end-first x3"*) ;;
  *) fail "summary: $summary" ;;
esac
