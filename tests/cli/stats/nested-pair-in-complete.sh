# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# A begin/end pair inside a complete event written after it (FXT_DURATION_BEGIN/END inside an
# FXT_DURATION scope): S 0..50 holds Q 10..20. self S = 40, Q = 10; busy 50 (not 60); counted.
"$PYTHON" - "$T/p.fxt" <<'PY'
import os, sys; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
t = magic() + init(1000000000) + string(1, "c") + string(2, "S") + string(3, "Q") + thread(1, 10, 11)
t += event(BEGIN, 10, 1, 1, 3) + event(END, 20, 1, 1, 3) + event(COMPLETE, 0, 1, 1, 2, end_ts=50)
write(sys.argv[1], t)
PY
"$FXT" stats --json "$T/p.fxt" > "$T/p.json"
expect_eq "self S Q" "$(jq -c '[.names[] | {(.name): .self_ns}] | add | [.S, .Q]' "$T/p.json")" '[40,10]'
expect_eq "busy" "$(jq -c '[.threads[].busy_ns]' "$T/p.json")" '[50]'
expect_eq "nesting" "$(jq -c '.nesting' "$T/p.json")" \
  '{"complete_not_enclosing_all":0,"self_clamped":0,"pairs_in_later_complete":1,"tree_not_enclosing_all":0}'
"$FXT" stats "$T/p.fxt" | grep -q '^note: 1 begin/end pairs lie inside a complete event written after them' ||
  fail "text note"
