# SPDX-License-Identifier: MIT
# needs: shared
# labels: slow
# (slow: the sanitizer phases run the lighter -j comparisons of this area)
# -j 3 is -j 1 byte for byte (jobs_same) on every foreign sample trace (--from 0ns: all kept,
# read in parallel); windowed and filtered too on those with duration pairs.
for f in "$SHARED"/samples/foreign/*.fxt; do
  jobs_same "$f" --from 0ns
  echo "ok   $(basename "$f")"
done
jobs_same "$SHARED/samples/foreign/fxtcpp_begin_end_2threads.fxt" --from 1us --to 1ms --name '*a*'
jobs_same "$SHARED/samples/foreign/magictrace_kernel_pt.fxt" --from 10us --to 1ms
