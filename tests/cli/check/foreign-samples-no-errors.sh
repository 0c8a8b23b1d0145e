# SPDX-License-Identifier: MIT
# needs: shared
# not under ASan: unit.hostile/foreign_samples runs the command on every sample in-process there
# Valid traces written by other tools have no errors.
failed=0
for f in "$SHARED"/samples/foreign/fxtcpp_*.fxt "$SHARED"/samples/foreign/ftr_complete_2threads.fxt; do
  rc=0
  "$FXT" check "$f" > "$T/out" || rc=$?
  if [ $rc -eq 0 ]; then echo "ok   $(basename "$f")"; else echo "FAIL $(basename "$f"): exit status $rc"; cat "$T/out"; failed=1; fi
done
exit $failed
