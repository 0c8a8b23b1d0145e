# SPDX-License-Identifier: MIT
# fxt record exits with CMD's status (an untraced CMD gives an empty archive
# that still checks clean); a CMD that cannot run gives 127; no CMD is a usage
# error. CMD's own options (-c) are CMD's, with or without `--`.
rc=0
"$FXT" record -o "$T/a.fxt" sh -c 'exit 3' 2> "$T/err" || rc=$?
expect_eq "exit status" $rc 3
grep -q "total: 0 processes" "$T/err" || fail "summary: $(cat "$T/err")"
"$FXT" check "$T/a.fxt" > /dev/null || fail "empty archive does not check clean"
rc=0
"$FXT" record -o "$T/b.fxt" -- "$T/no-such-program" 2> "$T/err2" || rc=$?
expect_eq "exit status (cannot run)" $rc 127
grep -q "cannot run" "$T/err2" || fail "no message: $(cat "$T/err2")"
rc=0
"$FXT" record -o "$T/c.fxt" 2> "$T/err3" || rc=$?
expect_eq "exit status (no CMD)" $rc 2
expect_eq "message" "$(cat "$T/err3")" "fxt record: missing CMD (or --attach)"
