# SPDX-License-Identifier: MIT
# needs: compression zstd
# A compressed stream cut short is an error, said as such.
head -c 5000 p.fxt.zst > "$T/cut.zst"
rc=0
"$FXT" dump "$T/cut.zst" > /dev/null 2> "$T/err" || rc=$?
cat "$T/err" >&2
[ $rc -ne 0 ] || fail "exit status 0"
grep -q "cut short\|inside a record" "$T/err" || fail "no 'cut short' or 'inside a record' message"
