# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# A big-endian trace starts with the byte-swapped magic number record.
"$FXT" synth --seed 7 --size 300k --big-endian -o "$T/be.fxt"
expect_eq "first 8 bytes" "$(head -c 8 "$T/be.fxt" | od -An -tx1 | tr -d ' \n')" 0016547846040010
