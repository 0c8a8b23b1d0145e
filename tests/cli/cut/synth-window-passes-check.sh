# SPDX-License-Identifier: MIT
# The window cut from a synth trace passes fxt check with no error.
"$FXT" check win.fxt
