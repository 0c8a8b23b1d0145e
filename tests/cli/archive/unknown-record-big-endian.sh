# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# The hand-made unknown record in be.fxt (setup.sh) reads as one record, at
# its offset.
expect_eq "offset of the unknown record" \
  "$("$FXT" dump --json be.fxt | jq -r 'select(.kind=="unknown") | .offset')" "$(< be.at)"
