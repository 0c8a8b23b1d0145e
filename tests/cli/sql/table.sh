# SPDX-License-Identifier: MIT
# needs: sqlite
# The default output: an aligned table (numbers right, text left, NULL shown), header and rule.
"$FXT" sql s.fxt "select tid, name, upid, null as n from thread order by tid"
