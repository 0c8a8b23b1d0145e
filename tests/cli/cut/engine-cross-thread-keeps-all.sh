# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# A libfxt engine trace whose async and flow chains are begun on the main
# thread and ended on workers (ends before begins in the file,
# tests/viewer/xthread_trace.c): `fxt cut` with no filter keeps every event and
# invents no end, and the output checks clean; with a category filter the
# continuations read before their begins wait for them and are written after
# them: every event kept again, no error.
[ -x "$BUILD/tests/fxt_xthread_trace" ] || { echo "SKIP: $BUILD/tests/fxt_xthread_trace not built"; exit 77; }
"$BUILD/tests/fxt_xthread_trace" "$T/x.fxt" 60
n=$("$FXT" dump --json "$T/x.fxt" | jq -s '[.[] | select(.kind=="event")] | length')
"$FXT" cut "$T/x.fxt" -o "$T/all.fxt" 2> "$T/all.err"
expect_eq "events kept" "$("$FXT" dump --json "$T/all.fxt" | jq -s '[.[] | select(.kind=="event")] | length')" "$n"
grep -q "closed 0 durations/chains" "$T/all.err" || fail "ends invented: $(cat "$T/all.err")"
expect_eq "check" "$("$FXT" check "$T/all.fxt" | tail -1 | sed 's/^.*bytes: //')" "0 errors, 0 warnings"
"$FXT" cut --category job "$T/x.fxt" -o "$T/job.fxt" 2> "$T/job.err"
expect_eq "events kept (filtered)" "$("$FXT" dump --json "$T/job.fxt" | jq -s '[.[] | select(.kind=="event")] | length')" "$n"
grep -q "closed 0 durations/chains" "$T/job.err" || fail "ends invented: $(cat "$T/job.err")"
rc=0
"$FXT" check "$T/job.fxt" > "$T/job.check" || rc=$?
expect_eq "check exit status (filtered)" $rc 0
