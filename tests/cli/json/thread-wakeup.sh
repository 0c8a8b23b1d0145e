# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# With --system-events=fuchsia, a thread wakeup.
expect_eq "system event 1" "$(jq -c '.systemTraceEvents.events[1]' sysobj.json)" \
  '{"ph":"w","ts":2,"cpu":1,"tid":102,"prio":5}'
