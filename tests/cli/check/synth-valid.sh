# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# fxt synth output (every record kind, 2 providers, 20000 events) is valid.
"$FXT" check synth.fxt
