# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# --all-records with one provider still writes a provider section record (its
# sections never alternate, so only --all-records makes one).
"$FXT" synth --all-records --events 20 -o "$T/one.fxt"
expect_eq "provider sections" "$("$FXT" dump --json "$T/one.fxt" | jq -s '[.[] | select(.kind=="provider_section")] | length')" "1"
