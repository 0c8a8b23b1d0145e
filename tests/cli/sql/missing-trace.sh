# SPDX-License-Identifier: MIT
# needs: sqlite
# A trace that cannot be read: one line, exit status 3, no query run.
"$FXT" sql --csv s.fxt "$T/nope.fxt" "select 1"
