# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# The trace of system events converts with exit status 0 to valid JSON.
cat sys.err
expect_eq "exit status" "$(< sys.rc)" 0
jq . sys.json > /dev/null || fail "not valid JSON"
