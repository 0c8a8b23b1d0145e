# SPDX-License-Identifier: MIT
# needs: python3 jq
# Async and flow chains are matched in time order per provider, not file order:
# ends written before their begins (another thread's chunk) but later in time
# are clean; an end earlier in time than its begin is async-no-begin, and the
# begin never ended; past the reorder pool (FXT_CHECK_POOL events waiting,
# 65536 by default) the oldest waiting events are judged without their begin,
# and the output says the pool filled up.
"$FXT" check time-order.fxt > "$T/ok.txt"
expect_eq "clean" "$(tail -1 "$T/ok.txt" | sed 's/^.*bytes: //')" "0 errors, 0 warnings"
rc=0
"$FXT" check --json time-order-bad.fxt > "$T/bad.jsonl" || rc=$?
expect_eq "exit status" $rc 1
expect_eq "rules" "$(jq -r 'select(.rule) | .rule' "$T/bad.jsonl" | sort | tr '\n' ' ')" "async-never-ended async-no-begin "
# with the whole pool, the 70 instants and the end read before their begin wait for it
"$FXT" check time-order-window.fxt > "$T/win.txt"
expect_eq "window clean" "$(tail -1 "$T/win.txt" | sed 's/^.*bytes: //')" "0 errors, 0 warnings"
# a pool of 64: the 8 oldest instants (71 + the begin - 64) are judged without it
rc=0
FXT_CHECK_POOL=64 "$FXT" check --json time-order-window.fxt > "$T/win.jsonl" || rc=$?
expect_eq "window exit status" $rc 1
expect_eq "window rules" "$(jq -r 'select(.rule) | .rule' "$T/win.jsonl" | sort | uniq -c | awk '{print $2 "x" $1}' | tr '\n' ' ')" "async-no-beginx8 "
expect_eq "window note" "$(jq -r 'select(.note) | .note' "$T/win.jsonl" | cut -c1-44)" "the reorder pool of async and flow events fi"
