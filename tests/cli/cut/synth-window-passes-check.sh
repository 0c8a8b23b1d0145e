# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# The window cut from a synth trace passes fxt check with no error.
"$FXT" check win.fxt
