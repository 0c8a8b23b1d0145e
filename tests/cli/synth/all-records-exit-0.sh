# SPDX-License-Identifier: MIT
# fxt synth --all-records (setup.sh) exits 0, and so does fxt dump --json of its output.
cat all.err dump.err
expect_eq "synth: exit status" "$(< all.rc)" 0
expect_eq "dump --json: exit status" "$(< dump.rc)" 0
