# SPDX-License-Identifier: MIT
# Helpers for the stats cases (sourced before each).

# q FILTER: jq -c FILTER on the summary of known.fxt
q() { jq -c "$1" known.json; }
