# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3
# Two processes (fork, no exec) pass a token through pipes 200 times: one clock
# for both, so no receive is stamped before its send.
"$FXT" record -o "$T/a.fxt" -- "$PROG" ring 2 200 2> "$T/err"
check_clean "$T/a.fxt"
verify "$T/a.fxt" ring 2 200
