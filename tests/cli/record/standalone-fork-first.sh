# SPDX-License-Identifier: MIT
# needs: python3
# fork before the process's first trace call (issue 24.2), standalone: the process
# that loaded libfxt with FXT_TRACE_OUTPUT set owns the path, the child writes
# "<path>.<pid>"; neither writes over the other, nothing is lost. Under fxt record:
# one provider each.
unset FXT_TRACE_MANAGER
FXT_TRACE_OUTPUT="$T/x.fxt" "$PROG" forkfirst 50 1
child=$(ls "$T" | grep -E '^x\.fxt\.[0-9]+$' || true)
[ -n "$child" ] || fail "no child trace: $(ls "$T")"
for f in x.fxt "$child"; do
  check_clean "$T/$f"
  expect_eq "$f: events" "$("$FXT" dump --json "$T/$f" | grep -c '"name":"ev"')" 50
  expect_eq "$f: processes" "$("$FXT" dump --json "$T/$f" | grep '"name":"ev"' | grep -o '"pid":[0-9]*' | sort -u | wc -l)" 1
done
"$FXT" record -o "$T/r.fxt" -- "$PROG" forkfirst 50 1 2> "$T/err"
check_clean "$T/r.fxt"
expect_eq "providers" "$("$FXT" dump --json "$T/r.fxt" | grep -c '"kind":"provider_info"')" 2
expect_eq "events" "$("$FXT" dump --json "$T/r.fxt" | grep -c '"name":"ev"')" 100
