# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# An input that cannot be opened: fxt json, cut and merge say so in one line and exit 3
# before creating their output, so no file (or document with no events) is left behind and
# an existing output file is left as it was.
for c in json cut merge; do
  rc=0; "$FXT" $c "$T/missing.fxt" -o "$T/$c.out" > "$T/$c.stdout" 2> "$T/$c.err" || rc=$?
  expect_eq "$c exit status" $rc 3
  [ ! -e "$T/$c.out" ] || fail "$c created its output for a missing input"
  [ ! -s "$T/$c.stdout" ] || fail "$c wrote to stdout: $(head -c 80 "$T/$c.stdout")"
  expect_eq "$c message" "$(cat "$T/$c.err")" "fxt $c: $T/missing.fxt: No such file or directory"
  echo kept > "$T/$c.keep"
  rc=0; "$FXT" $c "$T/missing.fxt" -o "$T/$c.keep" 2> /dev/null || rc=$?
  expect_eq "$c exit status (existing output)" $rc 3
  expect_eq "$c existing output" "$(cat "$T/$c.keep")" kept
done
# Without -o, fxt json writes nothing to stdout either.
rc=0; "$FXT" json "$T/missing.fxt" > "$T/json2.stdout" 2> /dev/null || rc=$?
expect_eq "json exit status (stdout)" $rc 3
[ ! -s "$T/json2.stdout" ] || fail "json wrote a document for a missing input"
