# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3
# Without a manager, a fork child writes its own trace, never over its parent's:
# "%p" in FXT_TRACE_OUTPUT is the pid; without it the child's path gets ".<pid>".
unset FXT_TRACE_MANAGER
FXT_TRACE_OUTPUT="$T/t.fxt" "$PROG" fork 20
child=$(ls "$T" | grep -E '^t\.fxt\.[0-9]+$')
[ -n "$child" ] || fail "no child trace: $(ls "$T")"
expect_eq "parent events" "$("$FXT" dump --json "$T/t.fxt" | grep -c '"category":"test"')" 40
expect_eq "child events" "$("$FXT" dump --json "$T/$child" | grep -c '"name":"child"')" 20
expect_eq "child has no parent events" "$("$FXT" dump --json "$T/$child" | grep -c '"name":"parent')" 0
mkdir "$T/p"
FXT_TRACE_OUTPUT="$T/p/run-%p.fxt" "$PROG" fork 20
expect_eq "traces with %p" "$(ls "$T/p" | grep -cE '^run-[0-9]+\.fxt$')" 2
