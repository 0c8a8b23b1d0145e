# SPDX-License-Identifier: MIT
# lock: tracefs
# needs: sqlite python3
# not under ASan: it compares fxt sql with fxt stats, tp or DuckDB; unit.sql, unit.sql_hostile and the other sql cases run its lines there
# An fxt record --sched archive (two processes passing a token, and the kernel's context switches
# on the same clock): the agree.py tp queries, scheduling slices per thread among them, give the
# same rows on tp and fxt sql; fxt stats agrees too. Skipped without tracefs (non-root) or tp.
"$FXT" record --sched=tree -o "$T/a.fxt" -- "$BUILD/record_prog" ring 2 100 2> "$T/err" ||
  fail "record: $(cat "$T/err")"
if grep -q -- "--sched:" "$T/err"; then
  echo "SKIP: $(grep -m1 -- "--sched:" "$T/err")"
  exit 77
fi
n=$("$FXT" sql --csv "$T/a.fxt" "select count(*) from sched_slice" | tail -1)
[ "$n" -gt 0 ] || fail "no scheduling slices"
"$PYTHON" "$AREA_DIR/agree.py" stats "$T/a.fxt"
export TP=${TP:-$SHARED/tools/perfetto/tp}
"$PYTHON" "$AREA_DIR/agree.py" tp "$T/a.fxt"
