# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# Invalid UTF-8 in category, name and argument is replaced by U+FFFD, one per
# maximal subpart.
jq -e '[.traceEvents[] | select(.ph=="I" and .name!="log") | [.cat,.name,.args.s]] == [["c\ufffd","bad\ufffd","\ufffd\ufffdok"]]' sys.json > /dev/null ||
  fail "got $(jq -c '[.traceEvents[] | select(.ph=="I" and .name!="log") | [.cat,.name,.args.s]]' sys.json)"
