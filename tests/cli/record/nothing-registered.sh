# SPDX-License-Identifier: MIT
# fxt record -- CMD where no process registers (CMD does not use libfxt) says so on stderr,
# with the likely reasons, and keeps CMD's exit status; processes that registered but
# recorded no event (every category disabled) are said too.
rc=0
"$FXT" record -o "$T/a.fxt" -- sh -c 'exit 3' 2> "$T/err" || rc=$?
expect_eq "exit status" $rc 3
grep -q "no process registered" "$T/err" || fail "no word of it: $(cat "$T/err")"
grep -q "not linked with libfxt" "$T/err" || fail "no likely reason: $(cat "$T/err")"
"$FXT" record -o "$T/b.fxt" -- true 2> "$T/err" || fail "true: $(cat "$T/err")"
grep -q "no process registered" "$T/err" || fail "no word of it: $(cat "$T/err")"
"$FXT" record --categories nomatch -o "$T/c.fxt" -- "$PROG" emit 10 1 exit 2> "$T/err" ||
  fail "record: $(cat "$T/err")"
grep -q "no event recorded" "$T/err" || fail "no word of 0 events: $(cat "$T/err")"
grep -q "nomatch" "$T/err" || fail "the categories are not named: $(cat "$T/err")"
# a recording with events says nothing of the kind
"$FXT" record -o "$T/d.fxt" -- "$PROG" emit 10 1 exit 2> "$T/err" || fail "record: $(cat "$T/err")"
if grep -q "no process registered\|no event recorded" "$T/err"; then
  fail "a warning for a good recording: $(cat "$T/err")"
fi
