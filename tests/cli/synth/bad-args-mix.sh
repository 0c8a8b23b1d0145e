# SPDX-License-Identifier: MIT
# An unknown --args-mix is a usage error (exit status 2, see .exit).
"$FXT" synth --args-mix bogus > /dev/null
