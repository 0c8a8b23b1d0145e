# SPDX-License-Identifier: MIT
# labels: slow
# (slow: the sanitizer phases run the lighter -j comparisons of this area)
# -j 3 writes the same trace, stderr and exit status as -j 1 (jobs_same: ranges forced small)
# on synth traces (two providers; --all-records; big-endian) with every option that changes
# the output: windows (relative, absolute, open-ended), category and name filters. (Without
# any, -j reads sequentially: --from 0ns keeps everything, in parallel.)
"$FXT" synth --size 32k --providers 2 -o "$T/s.fxt"
"$FXT" synth --size 32k --all-records --seed 3 -o "$T/a.fxt"
"$FXT" synth --size 32k --big-endian --seed 4 -o "$T/be.fxt"
jobs_same "$T/s.fxt" --from 0ns
jobs_same "$T/s.fxt" --absolute --from 1300000 --category gfx --category 'i*'
jobs_same "$T/a.fxt" --from 0ns
jobs_same "$T/a.fxt" --from 200us --to 500us
jobs_same "$T/be.fxt" --to 400us
jobs_same "$T/s.fxt" --from 200us --to 500us --name '*Poll*'
# The window does cut: pairs closed at its end, unmatched ends dropped, events kept and dropped.
grep -q "kept [1-9][0-9]* events, dropped [1-9][0-9]*, closed [1-9][0-9]* [^,]*, dropped [1-9]" "$T/one.err" ||
  fail "the window cuts nothing: $(cat "$T/one.err")"
