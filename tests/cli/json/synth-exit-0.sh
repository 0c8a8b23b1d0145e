# SPDX-License-Identifier: MIT
# fxt json of the synth trace (setup.sh) exits 0.
cat s.err
expect_eq "exit status" "$(< s.rc)" 0
