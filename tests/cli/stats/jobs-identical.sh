# SPDX-License-Identifier: MIT
# needs: python3
# labels: slow
# (slow: under the sanitizers jobs-threads is the -j comparison of this area)
# -j N gives the same output as -j 1 byte for byte, with ranges forced small (FXT_RANGE_BYTES):
# every record its own range in known.fxt (durations open across ranges), ~40 ranges of s.fxt.
for f in known.fxt s.fxt; do
  for mode in "" "--json --tree" "--folded" "--top 5 --tree"; do
    # shellcheck disable=SC2086
    "$FXT" stats -j 1 $mode "$f" > "$T/one.out" 2> "$T/one.err" || true
    for bytes in 8 4096; do
      # shellcheck disable=SC2086
      FXT_RANGE_BYTES=$bytes "$FXT" stats -j 3 $mode "$f" > "$T/many.out" 2> "$T/many.err" || true
      cmp -s "$T/one.out" "$T/many.out" || fail "$f $mode: -j 3 with $bytes-byte ranges differs from -j 1"
      cmp -s "$T/one.err" "$T/many.err" || fail "$f $mode: stderr differs"
    done
  done
done
grep -q "PollPoll\|Draw\|Read" "$T/one.out" || fail "s.fxt summary has no names"
