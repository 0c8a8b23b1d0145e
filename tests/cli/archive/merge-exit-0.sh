# SPDX-License-Identifier: MIT
# fxt merge a.fxt b.fxt c.fxt ftr.fxt --offset a.fxt=1500 (setup.sh) exits 0.
cat m.err
expect_eq "exit status" "$(< m.rc)" 0
