# SPDX-License-Identifier: MIT
# needs: shared
# labels: slow
# (slow: the sanitizer phases run the lighter -j comparisons of this area)
# The foreign sample traces (other writers, damaged ones too) report the same with -j 3 and
# small ranges as with -j 1.
n=0
for f in "$SHARED"/samples/foreign/*.fxt; do
  same_jobs "$f" 8 4096 --
  n=$((n + 1))
done
[ $n -ge 5 ] || fail "only $n foreign samples"
