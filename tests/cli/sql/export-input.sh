# SPDX-License-Identifier: MIT
# needs: sqlite
# --export never writes over one of the traces it reads, even with --force: a trace named like a
# table's file (DIR/slice.csv) is refused (exit 2) before anything is written, and stays whole.
mkdir "$T/x"
cp s.fxt "$T/x/slice.csv"
rc=0
"$FXT" sql "$T/x/slice.csv" --export "$T/x" --force 2> "$T/err" || rc=$?
expect_eq "refused" "$rc $(cat "$T/err")" \
  "2 fxt sql: the output $T/x/slice.csv is the input $T/x/slice.csv (the same file): refused"
cmp -s s.fxt "$T/x/slice.csv" || fail "the input was written over"
expect_eq "nothing written" "$(ls "$T/x")" "slice.csv"
# through another name (a symlink in the directory): refused as well
cp s.fxt "$T/in.fxt"
ln -s ../in.fxt "$T/x/args.csv"
rm "$T/x/slice.csv"
rc=0
"$FXT" sql "$T/in.fxt" --export "$T/x" --force 2> "$T/err" || rc=$?
expect_eq "by another name" "$rc $(cat "$T/err")" \
  "2 fxt sql: the output $T/x/args.csv is the input $T/in.fxt (the same file): refused"
cmp -s s.fxt "$T/in.fxt" || fail "the input was written over through a link"
