# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# A valid trace dumps with exit status 0 and nothing on stderr.
expect_eq "exit status" "$(< le.rc)" 0
expect_eq "stderr" "$(< le.err)" ""
