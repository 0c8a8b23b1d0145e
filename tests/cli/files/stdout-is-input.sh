# SPDX-License-Identifier: MIT
# dump, stats and check write to standard output only: when it is the input file
# (`fxt dump x.fxt >> x.fxt`), they refuse with exit status 2 and one line, and the input
# is left as it was (before: dump read what it wrote, growing the file without end).
cp a.fxt "$T/x.fxt"
cp a.fxt "$T/orig.fxt"
ln -s x.fxt "$T/link.fxt"
for c in "dump" "dump --json" "dump -j 1" "stats" "stats --json" "check"; do
  for in in "$T/x.fxt" "$T/link.fxt" "-"; do
    rc=0
    # shellcheck disable=SC2086
    timeout 20 "$FXT" $c "$in" >> "$T/x.fxt" 2> "$T/err" < "$T/x.fxt" || rc=$?
    expect_eq "$c $in >> x.fxt: exit status" $rc 2
    expect_eq "$c $in >> x.fxt: stderr lines" "$(wc -l < "$T/err")" 1
    grep -q "is the input" "$T/err" || fail "$c $in: message: $(cat "$T/err")"
    cmp -s "$T/x.fxt" "$T/orig.fxt" || fail "$c $in >> x.fxt: the input was changed"
  done
done
# another file as standard output is fine
"$FXT" dump "$T/x.fxt" >> "$T/other.txt"
[ -s "$T/other.txt" ] || fail "dump to another file wrote nothing"
