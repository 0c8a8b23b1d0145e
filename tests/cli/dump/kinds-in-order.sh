# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# Record kinds, in input order.
expect_eq "kinds" "$(jq -r .kind le.jsonl | tr '\n' ' ')" \
  "magic provider_info provider_section provider_event trace_info init string string thread event event event event event event event event event event event blob userspace_object userspace_object kernel_object context_switch thread_wakeup legacy_context_switch log large_blob large_blob unknown unknown unknown unknown unknown unknown "
