# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# The dump of a synth trace holds no error record.
expect_eq "error records" "$(jq -c 'select(.kind=="error")' all.jsonl)" ""
