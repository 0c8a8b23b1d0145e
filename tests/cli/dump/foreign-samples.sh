# SPDX-License-Identifier: MIT
# needs: shared jq
# not under ASan: unit.hostile/foreign_samples runs the command on every sample in-process there
# Valid foreign traces: exit 0, every event with a resolved name and pid.
failed=0
for f in "$SHARED"/samples/foreign/fxtcpp_*.fxt "$SHARED"/samples/foreign/ftr_complete_2threads.fxt; do
  b=$(basename "$f")
  rc=0
  "$FXT" dump --json "$f" > "$T/$b.jsonl" || rc=$?
  if [ $rc -ne 0 ]; then
    echo "FAIL $b: exit status $rc"; failed=1
  elif [ -n "$(jq -c 'select(.kind=="event" and (.name==null or .pid==null))' "$T/$b.jsonl")" ]; then
    echo "FAIL $b: events with a null name or pid"; failed=1
  else
    echo "ok   $b"
  fi
done
exit $failed
