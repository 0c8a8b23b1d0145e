# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# An argument of an unknown type keeps its name and carries its arg_type.
expect_eq "unknown argument" "$(jq -c 'select(.offset==120) | .args[10]' le.jsonl)" \
  '{"name":"name","type":"unknown","arg_type":10}'
