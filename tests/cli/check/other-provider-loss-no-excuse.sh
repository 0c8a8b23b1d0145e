# SPDX-License-Identifier: MIT
# needs: python3 jq
# A loss reported by another provider leaves async-no-begin an error.
rc=0
"$FXT" check --json other-lossy.fxt > "$T/o.jsonl" || rc=$?
expect_eq "exit status" $rc 1
expect_eq "rules reported" "$(jq -r 'select(.rule) | .rule' "$T/o.jsonl")" async-no-begin
