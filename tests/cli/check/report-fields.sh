# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# A JSON report carries the offset, record kind, severity and a message.
"$FXT" check --json async-no-begin.fxt > "$T/r.jsonl" || true
expect_eq "[offset, kind, severity, message longer than 5]" \
  "$(jq -c 'select(.rule) | [.offset, .kind, .severity, (.message|length > 5)]' "$T/r.jsonl")" '[96,"event","error",true]'
