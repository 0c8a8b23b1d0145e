# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# --all-records: every record kind but unknown.
expect_eq "kinds" "$(jq -r .kind all.jsonl | sort -u | tr '\n' ' ')" \
  "blob context_switch event init kernel_object large_blob legacy_context_switch log magic provider_event provider_info provider_section string thread thread_wakeup trace_info userspace_object "
