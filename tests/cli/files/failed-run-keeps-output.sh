# SPDX-License-Identifier: MIT
# A run that fails leaves an existing output as it was and no file behind (the output is
# written to a temporary file beside it and renamed only on success): a directory as input
# (before: the output was truncated), an output that cannot be written, a refused format.
mkdir "$T/dir" "$T/out"
for c in json cut merge; do
  echo kept > "$T/out/$c.fxt"
  rc=0; "$FXT" $c "$T/dir" -o "$T/out/$c.fxt" 2> "$T/err" || rc=$?
  expect_eq "$c directory input: exit status" $rc 3
  expect_eq "$c directory input: message" "$(cat "$T/err")" "fxt $c: $T/dir: Is a directory"
  expect_eq "$c directory input: existing output" "$(cat "$T/out/$c.fxt")" kept
done
# merge: the directory as a later input, after a good one
rc=0; "$FXT" merge a.fxt "$T/dir" -o "$T/out/merge.fxt" 2> /dev/null || rc=$?
expect_eq "merge a dir: exit status" $rc 3
expect_eq "merge a dir: existing output" "$(cat "$T/out/merge.fxt")" kept
# nothing else in the directory: no temporary file left
expect_eq "files in the output directory" "$(ls -A "$T/out" | tr '\n' ' ')" "cut.fxt json.fxt merge.fxt "
# a successful run replaces the file, and leaves no temporary file either
"$FXT" cut a.fxt -o "$T/out/cut.fxt" 2> /dev/null
"$FXT" dump "$T/out/cut.fxt" > /dev/null
expect_eq "files after success" "$(ls -A "$T/out" | tr '\n' ' ')" "cut.fxt json.fxt merge.fxt "
