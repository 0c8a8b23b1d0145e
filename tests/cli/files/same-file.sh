# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# An output that is the same file as an input (same name, a symlink, a hard link, another
# path) is refused with exit status 2 and one line, and the input is left as it was:
# writing it would destroy it (before: cut left 0 bytes, json an empty document, merge lost it).
cp a.fxt "$T/x.fxt"
cp b.fxt "$T/y.fxt"
cp a.fxt "$T/orig.fxt"
ln -s x.fxt "$T/link.fxt"
ln "$T/x.fxt" "$T/hard.fxt"
check() { # WHAT CMD...: exit 2, one line naming the clash, x.fxt unchanged
  local what=$1 rc=0
  shift
  "$@" > "$T/out" 2> "$T/err" || rc=$?
  expect_eq "$what: exit status" $rc 2
  expect_eq "$what: stderr lines" "$(wc -l < "$T/err")" 1
  grep -q "is the input" "$T/err" || fail "$what: message: $(cat "$T/err")"
  cmp -s "$T/x.fxt" "$T/orig.fxt" || fail "$what: the input was changed"
}
check "cut same name" "$FXT" cut "$T/x.fxt" -o "$T/x.fxt"
check "cut other path" "$FXT" cut "$T/x.fxt" -o "$T/../$(basename "$T")/x.fxt"
check "cut symlink" "$FXT" cut "$T/x.fxt" -o "$T/link.fxt"
check "cut hard link" "$FXT" cut "$T/hard.fxt" -o "$T/x.fxt"
check "json" "$FXT" json "$T/x.fxt" -o "$T/x.fxt"
check "json symlink" "$FXT" json "$T/link.fxt" -o "$T/x.fxt"
check "merge first" "$FXT" merge "$T/x.fxt" "$T/y.fxt" -o "$T/x.fxt"
check "merge second" "$FXT" merge "$T/y.fxt" "$T/x.fxt" -o "$T/hard.fxt"
check "merge --offset" "$FXT" merge "$T/y.fxt" "$T/x.fxt" --offset "$T/x.fxt=5" -o "$T/link.fxt"
[ -L "$T/link.fxt" ] || fail "the symlink was replaced"
# standard output appended to the input (`>>`) would read what it writes, forever
rc=0; "$FXT" cut "$T/x.fxt" >> "$T/x.fxt" 2> "$T/err" || rc=$?
expect_eq "cut >> input: exit status" $rc 2
cmp -s "$T/x.fxt" "$T/orig.fxt" || fail "cut >> input: the input was changed"
# standard input as the input: the output is compared with it too
rc=0; "$FXT" cut - -o "$T/x.fxt" < "$T/x.fxt" 2> "$T/err" || rc=$?
expect_eq "cut - < x -o x: exit status" $rc 2
cmp -s "$T/x.fxt" "$T/orig.fxt" || fail "cut - < x -o x: the input was changed"
# different files are fine, and a hard link is not needed to write an output
"$FXT" cut "$T/x.fxt" -o "$T/z.fxt" 2> /dev/null
cmp -s "$T/x.fxt" "$T/orig.fxt" || fail "cut to another file changed the input"
