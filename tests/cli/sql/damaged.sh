# SPDX-License-Identifier: MIT
# needs: sqlite
# not under ASan: tests/tools/cover_select.py finds none of its lines that unit.sql, unit.sql_hostile, the hostile driver and the other sql cases do not run there
# A damaged trace (cut inside its last record) still answers over everything readable; the
# damage is a row of table error with its offset, said on stderr, and the exit status is 1 (as
# every fxt command that read damaged records: docs/cli.md).
size=$(stat -c %s s.fxt)
head -c $((size - 3)) s.fxt > "$T/cut.fxt"
rc=0
"$FXT" sql --csv "$T/cut.fxt" "select count(*) > 0 from slice; select status from error" > "$T/out" 2> "$T/err" || rc=$?
expect_eq "exit status" "$rc" 1
expect_eq stdout "$(cat "$T/out")" 'count(*) > 0
1

status
FXT_E_TRUNCATED'
expect_eq stderr "$(cat "$T/err")" "fxt sql: 1 damaged record (the rows of table error)"
