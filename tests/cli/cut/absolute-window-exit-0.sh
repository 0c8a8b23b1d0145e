# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3
# fxt cut in.fxt --from 500 --to 2000 --absolute (setup.sh) exits 0.
cat abs.err
expect_eq "exit status" "$(< abs.rc)" 0
