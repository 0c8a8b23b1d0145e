# SPDX-License-Identifier: MIT
# fxt synth output (every record kind, 2 providers, 20000 events) is valid.
"$FXT" check synth.fxt
