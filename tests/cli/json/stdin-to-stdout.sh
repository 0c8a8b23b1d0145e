# SPDX-License-Identifier: MIT
# From standard input ("-") to standard output: the same JSON.
# shellcheck disable=SC2002 # a pipe, not a file, on purpose
cat s.fxt | "$FXT" json - > "$T/pipe.json" 2> /dev/null
cmp s.json "$T/pipe.json" || fail "piped conversion differs"
