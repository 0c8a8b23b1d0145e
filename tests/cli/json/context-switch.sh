# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# With --system-events=fuchsia, a context switch, with its weights as priorities.
expect_eq "system event 0" "$(jq -c '.systemTraceEvents.events[0]' sysobj.json)" \
  '{"ph":"k","ts":1.5,"cpu":2,"out":{"tid":101,"state":3,"prio":7},"in":{"tid":102,"prio":9}}'
