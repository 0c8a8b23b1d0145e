# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# Providers with names, rates, string table use and dropped-record reports.
expect_eq "[id,name,ticks_per_second,buffer_full_reports,string_records,string_reregistrations]" \
  "$(q '[.providers[] | select(.id != null) | [.id,.name,.ticks_per_second,.buffer_full_reports,.string_records,.string_reregistrations]]')" \
  '[[1,"first",1000000000,1,4,0],[2,"second",2000000000,0,2,1]]'
