# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# From standard input ("-") to standard output: the same JSON.
# shellcheck disable=SC2002 # a pipe, not a file, on purpose
cat s.fxt | "$FXT" json - > "$T/pipe.json" 2> /dev/null
cmp s.json "$T/pipe.json" || fail "piped conversion differs"
