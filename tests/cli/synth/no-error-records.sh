# SPDX-License-Identifier: MIT
# needs: jq
# The dump of a synth trace holds no error record.
expect_eq "error records" "$(jq -c 'select(.kind=="error")' all.jsonl)" ""
