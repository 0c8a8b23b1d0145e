# SPDX-License-Identifier: MIT
# needs: sqlite python3
# not under ASan: it compares fxt sql with fxt stats, tp or DuckDB; unit.sql, unit.sql_hostile and the other sql cases run its lines there
# fxt sql and fxt stats --json answer the same questions alike (agree.py stats): durations per
# (category, name) with count, total, self time via parent_id, min and max; busy time per thread;
# records, damaged records, logs, kernel objects, counter samples; records and events per
# provider. On synth traces, record archives and the foreign samples.
# magictrace_kernel_pt.fxt (ends whose begins precede the trace, ends naming another begin):
# totals only, slice and stats pair its durations differently (docs/sql.md#fxt-sql).
set -- $(agree_traces)
if have shared; then
  f=$SHARED/samples/foreign
  set -- "$@" "$f/ftr_complete_2threads.fxt" "$f/ftr_counter_malformed.fxt" \
    "$f/fxtcpp_begin_end_2threads.fxt" "$f/fxtcpp_instant_2args.fxt" "$f/magictrace_kernel_pt.fxt:totals"
fi
"$PYTHON" "$AREA_DIR/agree.py" stats "$@"
