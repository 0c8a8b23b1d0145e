# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# --size 300k: at least 300 KiB, and not much more (within one record).
size=$(stat -c %s a.fxt)
[ "$size" -ge 307200 ] || fail "size $size, expected at least 307200"
[ "$size" -lt 340000 ] || fail "size $size, expected less than 340000"
