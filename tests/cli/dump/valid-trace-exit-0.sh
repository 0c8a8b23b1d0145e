# SPDX-License-Identifier: MIT
# A valid trace dumps with exit status 0 and nothing on stderr.
expect_eq "exit status" "$(< le.rc)" 0
expect_eq "stderr" "$(< le.err)" ""
