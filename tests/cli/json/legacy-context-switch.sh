# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# With --system-events=fuchsia, a legacy context switch, with an indexed and an inline thread.
expect_eq "system event 2" "$(jq -c '.systemTraceEvents.events[2]' sysobj.json)" \
  '{"ph":"k","ts":2.5,"cpu":3,"out":{"pid":100,"tid":101,"state":2,"prio":20},"in":{"pid":200,"tid":201,"prio":31}}'
