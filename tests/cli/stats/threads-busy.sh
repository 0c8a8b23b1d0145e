# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# Busy time per thread: its top-level durations (A 1000 + A 3000 + C 500 + C 2000); D at 2e9 ticks/s.
expect_eq "[pid,tid,name,events,busy_ns]" "$(q '[.threads[] | [.pid,.tid,.name,.events,.busy_ns]]')" \
  '[[10,11,"main",11,6500],[20,21,"",1,1000]]'
