# SPDX-License-Identifier: MIT
# A missing input is an I/O error (exit status 3, see .exit).
"$FXT" merge /nonexistent.fxt -o "$T/x.fxt"
