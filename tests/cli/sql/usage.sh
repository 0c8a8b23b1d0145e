# SPDX-License-Identifier: MIT
# needs: sqlite
# Usage errors (exit 2): no trace (only a query); standard input as the trace without a QUERY
# argument (the queries would come from it too).
rc=0
"$FXT" sql "select 1" 2> "$T/err" || rc=$?
expect_eq "no trace" "$rc $(cat "$T/err")" "2 fxt sql: no trace given (usage: fxt sql TRACE... [QUERY])"
rc=0
"$FXT" sql - < s.fxt 2> "$T/err" || rc=$?
expect_eq "stdin trace, no query" "$rc $(cat "$T/err")" \
  "2 fxt sql: the trace is standard input, so the query must be an argument"
