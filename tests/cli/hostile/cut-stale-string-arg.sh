# SPDX-License-Identifier: MIT
# A flow/async continuation that cut holds until its begin is read keeps a copy of its
# arguments' strings; a non-string argument's str field is whatever an earlier record left
# in the reader (fuzz input, fuzz/corpus/reader/cut_stale_string_arg.fxt): cut copied it (a
# 3.9 GB allocation, a read through a stale pointer; under a 2 GB address-space limit it
# crashed). Only string arguments' values are copied now.
f=$SRC/fuzz/corpus/reader/cut_stale_string_arg.fxt
if ! (ulimit -v 2000000 && "$FXT" help > /dev/null 2>&1); then
  echo "SKIP: fxt does not start under a 2 GB address-space limit (a sanitizer build)"
  exit 77
fi
for j in 1 3; do
  rc=0
  (ulimit -v 2000000 && exec "$FXT" cut -j $j --from 1us "$f" -o "$T/out.fxt") 2> "$T/err" || rc=$?
  [ $rc -le 1 ] || fail "fxt cut -j $j: exit $rc: $(head -c 300 "$T/err")"
done
