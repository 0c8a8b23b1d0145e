# SPDX-License-Identifier: MIT
# fxt cut big.fxt --from 2ms --to 6ms (setup.sh) exits 0.
cat win.err
expect_eq "exit status" "$(< win.rc)" 0
