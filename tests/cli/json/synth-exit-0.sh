# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# fxt json of the synth trace (setup.sh) exits 0.
cat s.err
expect_eq "exit status" "$(< s.rc)" 0
