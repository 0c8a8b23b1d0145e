# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: jq
# fxt json on damaged traces (and a damaged foreign one, when present) still
# writes valid JSON, checked by a real JSON parser.
inputs="cut.fxt overwritten.fxt"
if have shared; then inputs="$inputs $SHARED/samples/foreign/ftr_counter_malformed.fxt"; fi
for f in $inputs; do
  rc=0
  "$FXT" json "$f" -o "$T/out.json" 2> "$T/err" || rc=$?
  [ $rc -le 1 ] || fail "fxt json $f: exit $rc"
  jq -e '.traceEvents | length > 0' "$T/out.json" > /dev/null || fail "fxt json $f: not valid JSON with events"
  "$FXT" dump --json "$f" 2> /dev/null | jq -e . > /dev/null || fail "fxt dump --json $f: invalid JSON Lines"
done
