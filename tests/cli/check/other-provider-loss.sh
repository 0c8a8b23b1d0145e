# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# A loss reported by another provider of the file excuses an async or flow end with no begin
# (pair-after-loss, a warning: with the chain-id rule its begin may have been in the provider
# that lost records, e.g. a parent whose overflow dropped a flow begun toward its child), but
# not a duration end, which never crosses providers: duration-end-first, as without the loss.
# Before: async-no-begin and flow-no-begin errors, exit 1.
rc=0
"$FXT" check --json other-lossy.fxt > "$T/o.jsonl" || rc=$?
expect_eq "exit status" $rc 0
expect_eq "rules reported" "$(jq -r 'select(.rule) | .rule' "$T/o.jsonl" | sort | tr '\n' ' ')" "duration-end-first pair-after-loss pair-after-loss "
