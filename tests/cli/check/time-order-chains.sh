# SPDX-License-Identifier: MIT
# needs: python3 jq
# Async and flow chains are matched in time order per provider, not file order:
# ends written before their begins (another thread's chunk) but later in time
# are clean; an end earlier in time than its begin is async-no-begin, and the
# begin never ended; past the reorder window (64 per id) events are judged
# without their begin.
"$FXT" check time-order.fxt > "$T/ok.txt"
expect_eq "clean" "$(tail -1 "$T/ok.txt" | sed 's/^.*bytes: //')" "0 errors, 0 warnings"
rc=0
"$FXT" check --json time-order-bad.fxt > "$T/bad.jsonl" || rc=$?
expect_eq "exit status" $rc 1
expect_eq "rules" "$(jq -r 'select(.rule) | .rule' "$T/bad.jsonl" | sort | tr '\n' ' ')" "async-never-ended async-no-begin "
# the reorder window: 64 events wait per id; 70 instants and an end are read
# before their begin, so the 8 oldest instants (71 + the begin - 64) are judged
# without it
rc=0
"$FXT" check --json time-order-window.fxt > "$T/win.jsonl" || rc=$?
expect_eq "window exit status" $rc 1
expect_eq "window rules" "$(jq -r 'select(.rule) | .rule' "$T/win.jsonl" | sort | uniq -c | awk '{print $2 "x" $1}' | tr '\n' ' ')" "async-no-beginx8 "
