# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# A log record becomes a global instant named log with an empty category, its
# message escaped.
expect_eq "log event" "$(jq -c '.traceEvents[] | select(.name=="log")' sys.json)" \
  '{"cat":"","name":"log","ts":3,"pid":100,"tid":102,"ph":"I","s":"g","args":{"message":"hello \"world\""}}'
