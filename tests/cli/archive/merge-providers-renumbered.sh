# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# Providers renumbered 1..5 in input order, each named with its own name, or
# its file's name when it has none (ftr).
expect_eq "provider_info [id,name]" "$(jq -c 'select(.kind=="provider_info") | [.id,.name]' m.jsonl | tr -d '\n')" \
  '[1,"synth-provider-1"][2,"synth-provider-1"][3,"synth-provider-1"][4,"synth-provider-2"][5,"ftr"]'
