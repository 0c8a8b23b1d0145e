# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# A big-endian synth trace is valid (reserved bits read in its byte order).
"$FXT" check be.fxt
