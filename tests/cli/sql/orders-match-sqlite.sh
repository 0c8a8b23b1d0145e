# SPDX-License-Identifier: MIT
# needs: sqlite sqlite3
# Orders the extension delivers itself (a column's sort order read up or down, a GROUP BY's groups
# adjacent, the per-thread query planned thread by name first) give the rows SQLite gives from
# real tables of the same trace (--db) when it sorts them itself: on synth traces and the record
# archives of real programs (agree_traces), args and nesting read on first use in the middle.
cat > "$T/q.sql" << 'QUERIES'
select t.name, sum(s.dur) from slice s join thread_track tt on s.track_id = tt.id join thread t using(utid) group by 1 order by 2 desc;
select t.name, count(*) from slice s join thread_track tt on s.track_id = tt.id join thread t using(utid) group by 1 order by 1 desc;
select name, count(*), sum(dur) from slice group by name order by name desc;
select name, count(*) from slice group by name order by name;
select ts from slice order by ts desc;
select id from slice where ts >= 1000 and ts < 2000000 order by ts desc, id;
select id from slice order by id desc limit 7;
select depth, count(*) from slice group by depth order by depth desc;
select key, count(*) from args group by key order by key desc;
select distinct category from slice order by category desc;
select ts, printf('%.3f', value) from counter order by ts desc, value limit 20;
select slice_out, slice_in from flow order by slice_in desc, slice_out limit 20;
select id, depth, parent_id from slice order by parent_id desc, id limit 30;
QUERIES
for f in $(agree_traces); do
  rm -f "$T/p.db"
  "$FXT" sql "$f" --db "$T/p.db"
  # the rows, not the two CSV writers' manners: sqlite3 quotes text with spaces (RFC 4180 need
  # not) and gives no header to a result without rows; fxt sql separates results by a blank line
  "$FXT" sql --csv "$f" < "$T/q.sql" |
    awk 'BEGIN { first = 1 } /^$/ { first = 1; next } first { head = $0; first = 0; next }
         { if (head != "") print head; head = ""; print }' | tr -d '"' > "$T/fxt.csv"
  sqlite3 -csv -header "$T/p.db" < "$T/q.sql" | tr -d '"' > "$T/sqlite.csv"
  cmp -s "$T/fxt.csv" "$T/sqlite.csv" ||
    fail "$f: fxt sql and SQLite differ: $(diff "$T/fxt.csv" "$T/sqlite.csv" | head -5)"
done
# the per-thread query reads the thread table in name order first: no sort of the slices' rows
plan=$("$FXT" sql p3.fxt "explain query plan select t.name, sum(s.dur) from slice s join thread_track tt on s.track_id = tt.id join thread t using(utid) group by 1 order by 2 desc")
case $plan in
  *"GROUP BY"*) fail "the per-thread query sorts its rows for the GROUP BY: $plan" ;;
esac
