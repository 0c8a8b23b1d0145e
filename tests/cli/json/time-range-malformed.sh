# SPDX-License-Identifier: MIT
# needs: python3
# A malformed --time-range is a usage error (exit status 2, see .exit).
"$FXT" json --time-range 1x:2 sys.fxt > /dev/null
