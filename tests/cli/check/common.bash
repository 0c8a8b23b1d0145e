# SPDX-License-Identifier: MIT
# Helpers for the check cases (sourced before each).

# same_jobs TRACE BYTES... -- OPTIONS...: fxt check -j 3 with FXT_RANGE_BYTES=BYTES (each) prints
# the same stdout and stderr and exits like -j 1; -j 1's stdout stays in $T/one.out.
same_jobs() {
  local f=$1 sizes=() rc1=0 rcn
  shift
  while [ "$1" != "--" ]; do sizes+=("$1"); shift; done
  shift
  "$FXT" check -j 1 "$@" "$f" > "$T/one.out" 2> "$T/one.err" || rc1=$?
  for bytes in "${sizes[@]}"; do
    rcn=0
    FXT_RANGE_BYTES=$bytes "$FXT" check -j 3 "$@" "$f" > "$T/many.out" 2> "$T/many.err" || rcn=$?
    cmp -s "$T/one.out" "$T/many.out" || fail "$f $*: -j 3 with $bytes-byte ranges differs from -j 1"
    cmp -s "$T/one.err" "$T/many.err" || fail "$f $*: stderr differs"
    expect_eq "$f $* exit status" $rcn $rc1
  done
}
