# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# An unknown --args-mix is a usage error (exit status 2, see .exit).
"$FXT" synth --args-mix bogus > /dev/null
