# SPDX-License-Identifier: MIT
# The installed fxt command runs.
"$SCRATCH/prefix/bin/fxt" version
