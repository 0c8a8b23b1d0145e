# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# Buffer-overflow reports of the trace are said on stderr.
cat s.err
grep -q "reported a full buffer" s.err || fail "no 'reported a full buffer' on stderr"
