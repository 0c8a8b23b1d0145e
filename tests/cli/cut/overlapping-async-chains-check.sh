# SPDX-License-Identifier: MIT
# needs: python3
# The cut of the overlapping async chains passes fxt check with no error.
"$FXT" cut chains.fxt --absolute --from 20000 --to 60000 -o "$T/chains.cut.fxt" 2> /dev/null
"$FXT" check "$T/chains.cut.fxt"
