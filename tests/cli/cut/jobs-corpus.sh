# SPDX-License-Identifier: MIT
# labels: slow
# (slow: the sanitizer phases run the lighter -j comparisons of this area)
# -j 3 is -j 1 byte for byte (jobs_same) on the reader corpus's damaged traces: every record
# type with bits flipped, cut short, and big-endian.
c=$SRC/fuzz/corpus/reader
jobs_same "$c/all_records_flipped.fxt" --from 0ns
jobs_same "$c/all_records_cut.fxt" --from 1ns
jobs_same "$c/all_records_be.fxt" --to 1ms
