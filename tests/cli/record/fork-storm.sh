# SPDX-License-Identifier: MIT
# needs: python3
# labels: slow
# A fork storm before the first trace call (issue 24.2): 1000 children, then every
# process emits 20 events. Standalone: one file per process, each with its own 20
# events; under fxt record: one provider per process, every event in the archive.
unset FXT_TRACE_MANAGER
export FXT_TRACE_BUFFER_SIZE=64k
FXT_TRACE_OUTPUT="$T/x.fxt" "$PROG" forkfirst 20 1000
expect_eq "files" "$(ls "$T" | grep -cE '^x\.fxt(\.[0-9]+)?$')" 1001
# one dump of the files end to end (an archive may hold several traces, each with its own
# magic, threads and strings) instead of 1001 launches
cat "$T"/x.fxt* | "$FXT" dump --json - > "$T/all.jsonl"
expect_eq "events" "$(grep -c '"name":"ev"' "$T/all.jsonl")" 20020
expect_eq "processes" "$(grep '"name":"ev"' "$T/all.jsonl" | grep -o '"pid":[0-9]*' | sort -u | wc -l)" 1001
unset FXT_TRACE_BUFFER_SIZE
"$FXT" record --buffer-size 64k -o "$T/r.fxt" -- "$PROG" forkfirst 20 1000 2> "$T/err"
"$FXT" dump --json "$T/r.fxt" > "$T/r.jsonl"
expect_eq "providers" "$(grep -c '"kind":"provider_info"' "$T/r.jsonl")" 1001
expect_eq "events under fxt record" "$(grep -c '"name":"ev"' "$T/r.jsonl")" 20020
