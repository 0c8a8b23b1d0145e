# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3
# A malformed --time-range is a usage error (exit status 2, see .exit).
"$FXT" json --time-range 1x:2 sys.fxt > /dev/null
