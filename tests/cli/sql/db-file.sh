# SPDX-License-Identifier: MIT
# needs: sqlite sqlite3
# --db writes a plain SQLite file: the sqlite3 shell opens it and answers as fxt sql does, from
# real tables with indexes. An existing file is refused (exit 2, left as it was) unless --force;
# the trace itself as the output is refused.
q="select t.name, sum(s.dur) from slice s join thread_track tt on s.track_id = tt.id join thread t using(utid) group by 1 order by 2 desc"
"$FXT" sql s.fxt --db "$T/s.db"
expect_eq "sqlite3 = fxt sql" "$(sqlite3 -csv "$T/s.db" "$q")" "$("$FXT" sql --csv s.fxt "$q" | tail -n +2)"
expect_eq "real tables" "$(sqlite3 "$T/s.db" "select type from sqlite_master where name = 'slice'")" table
sqlite3 "$T/s.db" "select name from sqlite_master where type = 'index' and tbl_name = 'slice' order by 1" > "$T/idx"
grep -qx slice_by_ts "$T/idx" && grep -qx slice_by_track_id "$T/idx" && grep -qx slice_by_parent_id "$T/idx" ||
  fail "slice's indexes: $(cat "$T/idx")"
grep -qx args_by_arg_set_id <(sqlite3 "$T/s.db" "select name from sqlite_master where type = 'index'") ||
  fail "no index on args(arg_set_id)"
ls -a "$T" > "$T/before"
cp "$T/s.db" "$T/s.db.orig"
rc=0
"$FXT" sql all.fxt --db "$T/s.db" 2> "$T/err" || rc=$?
expect_eq "existing: refused" "$rc $(cat "$T/err")" "2 fxt sql: $T/s.db exists: refused (--force replaces it)"
cmp -s "$T/s.db" "$T/s.db.orig" || fail "the refused output changed"
# the refusal comes before the traces are read (a missing one is not even opened)
rc=0
"$FXT" sql "$T/missing.fxt" --db "$T/s.db" 2> "$T/err" || rc=$?
expect_eq "refused first" "$rc $(cat "$T/err")" "2 fxt sql: $T/s.db exists: refused (--force replaces it)"
"$FXT" sql all.fxt --db "$T/s.db" --force
expect_eq "--force replaces" "$(sqlite3 "$T/s.db" "select distinct trace from thread")" all.fxt
rc=0
cp s.fxt "$T/in.fxt"
"$FXT" sql "$T/in.fxt" --db "$T/in.fxt" --force 2> "$T/err" || rc=$?
expect_eq "output = input" "$rc $(cat "$T/err")" \
  "2 fxt sql: the output $T/in.fxt is the input $T/in.fxt (the same file): refused"
cmp -s s.fxt "$T/in.fxt" || fail "the input was changed"
# no temporary file left beside the outputs
expect_eq "leftovers" "$(ls -a "$T" | grep -c '^\.s\.db\.\|^\.in\.fxt\.' || true)" 0
