# SPDX-License-Identifier: MIT
# needs: shared
# The foreign sample traces (other writers, damaged ones too) report the same with -j 3 and
# small ranges as with -j 1.
n=0
for f in "$SHARED"/samples/foreign/*.fxt; do
  b=$(basename "$f")
  rc1=0
  "$FXT" check -j 1 "$f" > "$T/one.out" 2> "$T/one.err" || rc1=$?
  for bytes in 8 4096; do
    rcn=0
    FXT_RANGE_BYTES=$bytes "$FXT" check -j 3 "$f" > "$T/many.out" 2> "$T/many.err" || rcn=$?
    cmp -s "$T/one.out" "$T/many.out" || fail "$b: -j 3 with $bytes-byte ranges differs from -j 1"
    cmp -s "$T/one.err" "$T/many.err" || fail "$b: stderr differs"
    expect_eq "$b exit status" $rcn $rc1
  done
  n=$((n + 1))
done
[ $n -ge 5 ] || fail "only $n foreign samples"
