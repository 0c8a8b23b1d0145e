# SPDX-License-Identifier: MIT
# Buffer-overflow reports of the trace are said on stderr.
cat s.err
grep -q "reported a full buffer" s.err || fail "no 'reported a full buffer' on stderr"
