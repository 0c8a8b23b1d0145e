# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# An empty window (from > to) is a usage error or gives an empty valid trace.
rc=0
"$FXT" cut in.fxt --from 2000 --to 500 -o "$T/x.fxt" || rc=$?
if [ $rc -eq 2 ]; then
  exit 0
fi
expect_eq "exit status (2, or 0 with no events)" $rc 0
expect_eq "events" "$(evs "$T/x.fxt")" ""
