# SPDX-License-Identifier: MIT
# needs: jq
# An argument of an unknown type keeps its name and carries its arg_type.
expect_eq "unknown argument" "$(jq -c 'select(.offset==120) | .args[10]' le.jsonl)" \
  '{"name":"name","type":"unknown","arg_type":10}'
