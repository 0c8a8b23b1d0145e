# SPDX-License-Identifier: MIT
# An unknown option is a usage error (exit status 2, see .exit).
"$FXT" dump --bogus > /dev/null
