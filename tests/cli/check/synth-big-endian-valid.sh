# SPDX-License-Identifier: MIT
# A big-endian synth trace is valid (reserved bits read in its byte order).
"$FXT" check be.fxt
