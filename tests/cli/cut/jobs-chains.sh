# SPDX-License-Identifier: MIT
# labels: slow
# (slow: the sanitizer phases run the lighter -j comparisons of this area)
# -j 3 is -j 1 byte for byte (jobs_same) on the area's traces (in.fxt: window edges, chains,
# two tick rates; chains.fxt: 6000 overlapping async events with reused ids; big.fxt) and on a
# libfxt engine trace whose chains end on other threads before they begin in the file.
for f in in.fxt chains.fxt; do
  [ -f "$f" ] || continue
  jobs_same "$f" --absolute --from 500 --to 2000
done
[ -f chains.fxt ] && jobs_same chains.fxt --absolute --from 20000 --to 60000 --name 'n1*'
jobs_same big.fxt --from 2ms --to 6ms
if [ -x "$BUILD/tests/fxt_xthread_trace" ]; then
  "$BUILD/tests/fxt_xthread_trace" "$T/x.fxt" 60
  jobs_same "$T/x.fxt" --from 0ns
  jobs_same "$T/x.fxt" --category job --from 10us
fi
