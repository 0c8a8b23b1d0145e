# SPDX-License-Identifier: MIT
# Helpers for the json cases (sourced before each).

# same_any_jobs FILE [OPTION...]: fxt json -j 3 with ranges forced small (FXT_RANGE_BYTES
# 8: every record its own range; 4096) gives the stdout, stderr and exit status of -j 1
# byte for byte. Leaves -j 1's output in $T/one.out, .err, .rc.
same_any_jobs() {
  local f=$1 rc bytes
  shift
  rc=0
  "$FXT" json -j 1 "$@" "$f" > "$T/one.out" 2> "$T/one.err" || rc=$?
  echo "$rc" > "$T/one.rc"
  for bytes in 8 4096; do
    rc=0
    FXT_RANGE_BYTES=$bytes "$FXT" json -j 3 "$@" "$f" > "$T/many.out" 2> "$T/many.err" || rc=$?
    cmp -s "$T/one.out" "$T/many.out" || fail "$f $*: -j 3 with $bytes-byte ranges differs from -j 1"
    cmp -s "$T/one.err" "$T/many.err" || fail "$f $*: stderr of -j 3 with $bytes-byte ranges differs"
    expect_eq "$f $*: exit status with $bytes-byte ranges" "$rc" "$(cat "$T/one.rc")"
  done
}

# need_tp: TP is Perfetto's trace_processor ($SHARED/tools/perfetto/tp), or the case
# skips (77) saying why. tp_q FILE SQL: the query's CSV rows, header and logs dropped.
need_tp() {
  TP=$SHARED/tools/perfetto/tp
  [ -x "$TP" ] || { echo "SKIP: $TP absent"; exit 77; }
  echo "select 1;" | "$TP" -q /dev/stdin s.json > /dev/null 2>&1 ||
    { echo "SKIP: $TP does not start"; exit 77; }
}
tp_q() {
  echo "$2" | "$TP" -q /dev/stdin "$1" 2> /dev/null | sed -e '0,/^"/d' -e '/^$/d'
}
