# SPDX-License-Identifier: MIT
# needs: sqlite sqlite3
# Orders the extension delivers itself (a column's sort order read up or down, a GROUP BY's groups
# adjacent, the per-thread query planned thread by name first) give the rows SQLite gives from
# real tables of the same trace (--db) when it sorts them itself.
"$FXT" sql p3.fxt --db "$T/p.db"
# one run each (every query's result, blank lines between results dropped)
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
QUERIES
"$FXT" sql --csv p3.fxt < "$T/q.sql" | grep -v '^$' > "$T/fxt.csv"
sqlite3 -csv -header "$T/p.db" < "$T/q.sql" > "$T/sqlite.csv"
cmp -s "$T/fxt.csv" "$T/sqlite.csv" || fail "fxt sql and SQLite differ: $(diff "$T/fxt.csv" "$T/sqlite.csv" | head -5)"
expect_eq "results" "$(grep -c . "$T/fxt.csv")" "$(grep -c . "$T/sqlite.csv")"
# the per-thread query reads the thread table in name order first: no sort of the slices' rows
plan=$("$FXT" sql p3.fxt "explain query plan select t.name, sum(s.dur) from slice s join thread_track tt on s.track_id = tt.id join thread t using(utid) group by 1 order by 2 desc")
case $plan in
  *"GROUP BY"*) fail "the per-thread query sorts its rows for the GROUP BY: $plan" ;;
esac
