# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# fxt cut big.fxt --from 2ms --to 6ms (setup.sh) exits 0.
cat win.err
expect_eq "exit status" "$(< win.rc)" 0
