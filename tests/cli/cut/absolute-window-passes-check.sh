# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3
# The cut output passes fxt check with no error.
"$FXT" check abs.fxt
