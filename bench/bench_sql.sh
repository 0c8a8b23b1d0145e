#!/bin/bash
# SPDX-License-Identifier: MIT
# fxt sql against Perfetto's trace_processor and fxt stats, on one synth trace, in one run
# (issue 28's measures; figures go to bench/RESULTS.md):
#   1. building the tables: fxt sql's load rate (MB/s) and peak memory vs tp's FXT import
#      on the same file (goal: >= 10x tp, memory <= the file's size), without and with the
#      args table (read by a second pass when a query first uses it);
#   2. `select name, count(*), sum(dur) from slice group by name` (load included) vs
#      `fxt stats` on the same file (goal: within 2x);
#   3. the per-thread time query of issue 28's "done when", on fxt sql and on tp: same rows.
#
#   bench/bench_sql.sh [BUILD_DIR] [SIZE]     (defaults: build, 200m; SIZE as fxt synth --size)
# Environment: TP (default ../shared/tools/perfetto/tp beside the source tree; skipped when
# absent), BENCH_DIR (where the trace is made, default $BUILD_DIR/bench-sql). Each command runs
# twice (file in the page cache) and the run with less CPU time counts. Rates and ratios are on
# CPU time (user + sys): on a machine shared with other jobs wall time measures the others too
# (both are printed). fxt stats runs with -j 1, as the table building is one pass on one core.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
size=${2:-200m}
fxt=$build/fxt
tp=${TP:-$src/../shared/tools/perfetto/tp}
dir=${BENCH_DIR:-$build/bench-sql}
mkdir -p "$dir"
trace=$dir/synth-$size.fxt
[ -s "$trace" ] || "$fxt" synth --size "$size" -o "$trace"
bytes=$(stat -c %s "$trace")
cat "$trace" > /dev/null

# best WHAT CMD...: runs CMD twice (stdout to $dir/WHAT.out); sets $cpu (user + sys s), $secs
# (wall s) and $kib (peak RSS KiB) of the run with less CPU time
best() {
  local what=$1 e u s k c
  shift
  cpu= secs= kib=
  for _ in 1 2; do
    /usr/bin/time -f "%e %U %S %M" -o "$dir/time" "$@" > "$dir/$what.out" 2> "$dir/$what.err" ||
      { echo "bench_sql: $what failed: $(tail -3 "$dir/$what.err")" >&2; exit 1; }
    read -r e u s k < "$dir/time"
    c=$(awk "BEGIN{print $u + $s}")
    if [ -z "$cpu" ] || awk "BEGIN{exit !($c < $cpu)}"; then cpu=$c secs=$e kib=$k; fi
  done
}
mb() { awk "BEGIN{printf \"%.1f\", $bytes / 1e6 / ($1 > 0 ? $1 : 0.01)}"; }

printf 'trace: %s, %d bytes (fxt synth --size %s)\n\n' "$trace" "$bytes" "$size"
printf '%-44s %7s %7s %12s %12s\n' "what" "wall s" "CPU s" "MB/s (CPU)" "peak RSS MiB"
row() { printf '%-44s %7s %7s %12s %12d\n' "$1" "$secs" "$cpu" "$(mb "$cpu")" $((kib / 1024)); }

best load "$fxt" sql "$trace" "select count(*) from slice"
sql_load=$cpu sql_kib=$kib
row "fxt sql: build the tables (count slices)"
tp_load=
if [ -x "$tp" ] && echo "select 1;" | "$tp" -q /dev/stdin /dev/null > /dev/null 2>&1; then
  echo "select count(*) from slice;" > "$dir/count.sql"
  best tpload "$tp" -q "$dir/count.sql" "$trace"
  tp_load=$cpu tp_kib=$kib
  row "tp: import the FXT (count slices)"
fi
best args "$fxt" sql "$trace" "select count(*) from args"
sql_args=$cpu sql_args_kib=$kib
row "fxt sql: the tables and args (count args)"
best group "$fxt" sql "$trace" "select name, count(*), sum(dur) from slice group by name"
sql_group=$cpu
row "fxt sql: name, count(*), sum(dur) group by name"
best stats "$fxt" stats -j 1 "$trace"
stats_secs=$cpu
row "fxt stats -j 1"

echo
awk "BEGIN{printf \"fxt sql memory / file size: %.2f (goal <= 1); with args %.2f\n\", $sql_kib * 1024 / $bytes, \
  $sql_args_kib * 1024 / $bytes}"
if [ -n "$tp_load" ]; then
  awk "BEGIN{printf \"table building vs tp import (CPU): %.1fx faster (goal >= 10x), %.1fx with args; tp memory %.2fx the file\n\", \
    $tp_load / $sql_load, $tp_load / $sql_args, $tp_kib * 1024 / $bytes}"
fi
awk "BEGIN{printf \"group-by query / fxt stats -j 1 (CPU): %.2f (goal <= 2)\n\", $sql_group / $stats_secs}"

# issue 28's "done when": the same numbers as Perfetto
q="select t.name, sum(s.dur) from slice s join thread_track tt on s.track_id = tt.id join thread t using(utid) group by 1 order by 2 desc"
"$fxt" sql --csv "$trace" "$q" | tail -n +2 > "$dir/done.fxt"
if [ -n "$tp_load" ]; then
  echo "$q;" > "$dir/done.sql"
  "$tp" -q "$dir/done.sql" "$trace" 2> /dev/null | tail -n +2 | tr -d '"' > "$dir/done.tp"
  if cmp -s "$dir/done.fxt" "$dir/done.tp"; then
    echo "per-thread time (issue 28's query): fxt sql = tp, $(wc -l < "$dir/done.fxt") rows"
  else
    echo "per-thread time (issue 28's query): fxt sql != tp:"
    diff "$dir/done.fxt" "$dir/done.tp" | head -10
  fi
fi
