# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3
# fork without exec under fxt record: the child is a provider of its own (own
# pid, own buffer) with none of its parent's events.
"$FXT" record -o "$T/a.fxt" -- "$PROG" fork 50 2> "$T/err"
check_clean "$T/a.fxt"
verify "$T/a.fxt" fork 50
