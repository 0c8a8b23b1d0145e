# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3
# Ticks at 3 per second convert exactly: 7 ticks = 2333333.333 us.
grep -q '"ts":2333333.333,' hand.json || fail 'no "ts":2333333.333'
