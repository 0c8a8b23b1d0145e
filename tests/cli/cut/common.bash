# SPDX-License-Identifier: MIT
# Helpers for the cut cases (sourced before each).

# evs TRACE: the trace's events as [provider, event, name, ts, category], sorted, on one line
evs() {
  "$FXT" dump --json "$1" | jq -c 'select(.kind=="event") | [.provider, .event, .name, .ts, .category]' | sort | tr -d '\n'
}

# jobs_same TRACE [OPTION...]: `fxt cut -j 3` writes the same trace, messages and exit status
# as -j 1 (one range), with ranges forced small: FXT_RANGE_BYTES=8 (then ranges are the
# input's size / 24: 8 per job) and 4096, so pairs and chains both cross ranges and fold in one.
jobs_same() {
  local f=$1 rc1=0 rcn bytes
  shift
  "$FXT" cut -j 1 "$@" "$f" > "$T/one.out" 2> "$T/one.err" || rc1=$?
  for bytes in 8 4096; do
    rcn=0
    FXT_RANGE_BYTES=$bytes "$FXT" cut -j 3 "$@" "$f" > "$T/many.out" 2> "$T/many.err" || rcn=$?
    cmp -s "$T/one.out" "$T/many.out" || fail "$f $*: -j 3 with $bytes-byte ranges writes another trace"
    cmp -s "$T/one.err" "$T/many.err" || fail "$f $*: stderr differs: $(diff "$T/one.err" "$T/many.err" | head -4)"
    expect_eq "$f $* exit status" $rcn $rc1
  done
}
