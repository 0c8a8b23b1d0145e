# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# The output parses with python and with jq, and holds the events.
"$PYTHON" -c 'import json, sys; json.load(open(sys.argv[1]))' s.json || fail "python cannot parse s.json"
jq -e '.traceEvents | length > 1000' s.json > /dev/null || fail "jq: not over 1000 trace events"
