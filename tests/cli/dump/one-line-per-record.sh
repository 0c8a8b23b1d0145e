# SPDX-License-Identifier: MIT
# The trace holds 36 records: 36 lines.
expect_eq "lines" "$(wc -l < le.jsonl)" 36
