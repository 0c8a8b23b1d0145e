# SPDX-License-Identifier: MIT
# needs: sqlite python3
# not under ASan: it compares fxt sql with fxt stats, tp or DuckDB; unit.sql, unit.sql_hostile and the other sql cases run its lines there
# labels: slow
# Queries written for Perfetto run unchanged on trace_processor (tp) and on fxt sql over the
# same traces and give the same rows (agree.py tp): per-thread time (issue 28's query), slices
# per name and per depth, parents, threads and processes with slices, flows, counters, sched.
# Left out where tp's importer is known to differ from the spec: ftr_counter_malformed's counters
# (tp reads the records the spec makes damaged); magictrace_kernel_pt.fxt (durations begun
# before the trace: docs/sql.md#fxt-sql).
export TP=${TP:-$SHARED/tools/perfetto/tp}
set -- $(agree_traces)
if have shared; then
  f=$SHARED/samples/foreign
  set -- "$@" "$f/ftr_complete_2threads.fxt" "$f/ftr_counter_malformed.fxt:nocounters" \
    "$f/fxtcpp_begin_end_2threads.fxt" "$f/fxtcpp_instant_2args.fxt"
fi
"$PYTHON" "$AREA_DIR/agree.py" tp "$@"
