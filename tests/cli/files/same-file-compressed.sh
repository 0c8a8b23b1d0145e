# SPDX-License-Identifier: MIT
# needs: compression gzip
# A compressed input written over through its .gz name: refused (exit 2), the input kept.
gzip -c a.fxt > "$T/x.fxt.gz"
cp "$T/x.fxt.gz" "$T/orig.gz"
for c in cut json; do
  rc=0; "$FXT" $c "$T/x.fxt.gz" -o "$T/x.fxt.gz" 2> "$T/err" || rc=$?
  expect_eq "$c exit status" $rc 2
  cmp -s "$T/x.fxt.gz" "$T/orig.gz" || fail "$c changed the input"
done
rc=0; "$FXT" merge b.fxt "$T/x.fxt.gz" -o "$T/x.fxt.gz" 2> "$T/err" || rc=$?
expect_eq "merge exit status" $rc 2
cmp -s "$T/x.fxt.gz" "$T/orig.gz" || fail "merge changed the input"
