# SPDX-License-Identifier: MIT
# Flows are sorted for the chains in memory up to a bound, past it in sorted
# runs spilled to temporary files and merged: the output is the same byte for
# byte whatever the bound (FXT_JSON_FLOW_RUN_BYTES, for tests: 1 spills each
# flow event on its own), and for any -j.
for bytes in 1 3000; do
  FXT_JSON_FLOW_RUN_BYTES=$bytes "$FXT" json -j 1 s.fxt > "$T/spill.json" 2> "$T/spill.err"
  cmp -s s.json "$T/spill.json" || fail "runs of $bytes bytes: the output differs"
  FXT_JSON_FLOW_RUN_BYTES=$bytes FXT_RANGE_BYTES=4096 "$FXT" json -j 3 s.fxt > "$T/spill3.json" 2> /dev/null
  cmp -s s.json "$T/spill3.json" || fail "runs of $bytes bytes, -j 3: the output differs"
done
