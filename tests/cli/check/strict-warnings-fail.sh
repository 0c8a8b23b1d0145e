# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3
# --strict: a trace with only warnings is invalid (exit status 1, see .exit).
"$FXT" check --strict async-never-ended.fxt
