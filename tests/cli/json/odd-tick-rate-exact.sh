# SPDX-License-Identifier: MIT
# needs: python3
# Ticks at 3 per second convert exactly: 7 ticks = 2333333.333 us.
grep -q '"ts":2333333.333,' hand.json || fail 'no "ts":2333333.333'
