# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# 64-bit integers are printed exactly (not through a double).
grep -q '"value":18446744073709551615' le.jsonl || fail "uint64 2^64-1 not printed exactly"
grep -q '"value":-2}' le.jsonl || fail "int64 -2 not printed"
