# SPDX-License-Identifier: MIT
# needs: python3
# Ten processes in a ring of pipes, 30 rounds: 0 receives before their sends.
"$FXT" record --mode streaming -o "$T/a.fxt" -- "$PROG" ring 10 30 2> "$T/err"
check_clean "$T/a.fxt"
verify "$T/a.fxt" ring 10 30
grep -q "total: 10 processes" "$T/err" || fail "summary: $(cat "$T/err")"
