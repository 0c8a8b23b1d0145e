# SPDX-License-Identifier: MIT
# needs: python3
# --strict: a trace with only warnings is invalid (exit status 1, see .exit).
"$FXT" check --strict async-never-ended.fxt
