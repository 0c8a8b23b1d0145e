# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# fxt synth --all-records (setup.sh) exits 0, and so does fxt dump --json of its output.
cat all.err dump.err
expect_eq "synth: exit status" "$(< all.rc)" 0
expect_eq "dump --json: exit status" "$(< dump.rc)" 0
