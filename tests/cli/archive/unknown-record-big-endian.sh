# SPDX-License-Identifier: MIT
# needs: jq
# The hand-made unknown record in be.fxt (setup.sh) reads as one record, at
# its offset.
expect_eq "offset of the unknown record" \
  "$("$FXT" dump --json be.fxt | jq -r 'select(.kind=="unknown") | .offset')" "$(< be.at)"
