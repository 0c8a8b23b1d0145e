# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: no-compression gzip
# Built without compression support: asked to write or read a compressed
# trace, fxt says so and fails: writing one is refused before any file is
# created (a usage error, exit status 2); a compressed input is an I/O error (3).
rc=0
"$FXT" synth --events 10 -o "$T/x.fxt.gz" 2> "$T/err" || rc=$?
cat "$T/err" >&2
expect_eq "synth -o x.fxt.gz: exit status" $rc 2
[ ! -e "$T/x.fxt.gz" ] || fail "synth: the refused output file was created"
grep -q "built without compression support" "$T/err" || fail "synth: no 'built without compression support' message"
rc=0
"$FXT" dump p.fxt.gz > /dev/null 2> "$T/err" || rc=$?
cat "$T/err" >&2
expect_eq "dump p.fxt.gz: exit status" $rc 3
grep -q "compressed input, but this fxt was built without compression support" "$T/err" || fail "dump: no 'compressed input' message"
