# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# fxt merge a.fxt b.fxt c.fxt ftr.fxt --offset a.fxt=1500 (setup.sh) exits 0.
cat m.err
expect_eq "exit status" "$(< m.rc)" 0
