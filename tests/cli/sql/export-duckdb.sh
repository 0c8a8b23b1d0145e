# SPDX-License-Identifier: MIT
# needs: sqlite node
# not under ASan: it compares fxt sql with fxt stats, tp or DuckDB; unit.sql, unit.sql_hostile and the other sql cases run its lines there
# --export DIR writes each table as DIR/TABLE.csv; DuckDB (tests/sql/duckdb, `npm ci` there)
# reads them as they are and answers queries as fxt sql does.
duck=$SRC/tests/sql/duckdb
[ -d "$duck/node_modules/@duckdb/node-api" ] ||
  { echo "SKIP: DuckDB not installed (cd tests/sql/duckdb && npm ci)"; exit 77; }
"$FXT" sql p3.fxt --export "$T/csv"
[ -s "$T/csv/slice.csv" ] && [ -s "$T/csv/args.csv" ] && [ -s "$T/csv/thread.csv" ] || fail "tables missing: $(ls "$T/csv")"
set -- \
  "select t.name, sum(s.dur) from slice s join thread_track tt on s.track_id = tt.id join thread t using(utid) group by 1 order by 2 desc, 1" \
  "select category, name, count(*), sum(dur), max(depth) from slice group by 1, 2 order by 1, 2" \
  "select key, value_type, count(*), count(int_value), max(int_value), count(string_value), max(real_value) from args group by 1, 2 order by 1, 2" \
  "select count(*), count(parent_id), sum(arg_set_id) from slice" \
  "select name, count(*) from slice where name like '%Read%' group by 1 order by 1"
node "$duck/query.mjs" "$T/csv" "$@" > "$T/duck" || fail "duckdb failed"
for q in "$@"; do
  "$FXT" sql --csv p3.fxt "$q" | tail -n +2
  echo --
done > "$T/ours"
cmp -s "$T/duck" "$T/ours" || fail "DuckDB != fxt sql: $(diff "$T/ours" "$T/duck" | head -6)"
