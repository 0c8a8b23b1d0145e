# SPDX-License-Identifier: MIT
# A bad option value is a usage error (exit status 2, see .exit).
"$FXT" synth --threads 0 > /dev/null
