# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# The trace holds 36 records: 36 lines.
expect_eq "lines" "$(wc -l < le.jsonl)" 36
