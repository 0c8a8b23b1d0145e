# SPDX-License-Identifier: MIT
# needs: shared
# labels: slow
# (slow: the sanitizer phases run the lighter -j comparisons of this area)
# -j 3 gives the output of -j 1 byte for byte on every foreign sample trace.
n=0
for f in "$SHARED"/samples/foreign/*.fxt; do
  same_any_jobs "$f"
  n=$((n + 1))
done
[ $n -gt 0 ] || fail "no samples"
