# SPDX-License-Identifier: MIT
# needs: sqlite python3
# --export-format jsonl: one JSON object per row per table, the same rows as the table; existing
# files are refused (exit 2, nothing written) unless --force.
"$FXT" sql all.fxt --export "$T/j" --export-format jsonl
tables="slice args thread counter log kernel_object provider error"
want=$(for t in $tables; do "$FXT" sql --csv all.fxt "select '$t', count(*) from $t" | tail -1; done)
got=$(cd "$T/j" && "$PYTHON" -c '
import json, sys
for t in sys.argv[1:]:
    print("%s,%d" % (t, sum(1 for line in open(t + ".jsonl") if json.loads(line) is not None)))' $tables)
expect_eq "rows per table" "$got" "$want"
touch -d @0 "$T/j/slice.jsonl"
rc=0
"$FXT" sql s.fxt --export "$T/j" --export-format jsonl 2> "$T/err" || rc=$?
expect_eq "existing files" "$rc $(cat "$T/err")" "2 fxt sql: $T/j/trace_file.jsonl exists: refused (--force replaces it)"
expect_eq "left as they were" "$(stat -c %Y "$T/j/slice.jsonl")" 0
"$FXT" sql s.fxt --export "$T/j" --export-format jsonl --force
grep -q '"trace":"s.fxt"' "$T/j/thread.jsonl" || fail "--force did not replace the files"
