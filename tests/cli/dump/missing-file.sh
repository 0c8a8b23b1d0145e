# SPDX-License-Identifier: MIT
# A missing input file is an I/O error (exit status 3, see .exit), named on stderr.
"$FXT" dump /nonexistent/file
