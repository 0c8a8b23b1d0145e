# SPDX-License-Identifier: MIT
# needs: shared jq
# not under ASan: unit.hostile/foreign_samples runs the command on every sample in-process there
# Valid foreign traces: exit 0, events per category add up to the dump's.
failed=0
for f in "$SHARED"/samples/foreign/fxtcpp_*.fxt "$SHARED"/samples/foreign/ftr_complete_2threads.fxt; do
  b=$(basename "$f")
  rc=0
  "$FXT" stats --json "$f" > "$T/$b.json" || rc=$?
  got=$(jq '[.categories[]] | add' "$T/$b.json")
  want=$("$FXT" dump --json "$f" | jq -n 'reduce (inputs | select(.kind=="event")) as $e (0; . + 1)')
  if [ $rc -ne 0 ]; then echo "FAIL $b: exit status $rc"; failed=1
  elif [ "$got" != "$want" ]; then echo "FAIL $b: $got events counted, $want in the dump"; failed=1
  else echo "ok   $b"; fi
done
exit $failed
