# SPDX-License-Identifier: MIT
# needs: no-compression gzip
# Built without compression support: asked to write or read a compressed
# trace, fxt says so and fails (exit status 3).
rc=0
"$FXT" synth --events 10 -o "$T/x.fxt.gz" 2> "$T/err" || rc=$?
cat "$T/err" >&2
expect_eq "synth -o x.fxt.gz: exit status" $rc 3
grep -q "built without compression support" "$T/err" || fail "synth: no 'built without compression support' message"
rc=0
"$FXT" dump p.fxt.gz > /dev/null 2> "$T/err" || rc=$?
cat "$T/err" >&2
expect_eq "dump p.fxt.gz: exit status" $rc 3
grep -q "compressed input, but this fxt was built without compression support" "$T/err" || fail "dump: no 'compressed input' message"
