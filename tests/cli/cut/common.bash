# SPDX-License-Identifier: MIT
# Helpers for the cut cases (sourced before each).

# evs TRACE: the trace's events as [provider, event, name, ts, category], sorted, on one line
evs() {
  "$FXT" dump --json "$1" | jq -c 'select(.kind=="event") | [.provider, .event, .name, .ts, .category]' | sort | tr -d '\n'
}
