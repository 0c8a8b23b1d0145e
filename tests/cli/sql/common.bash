# SPDX-License-Identifier: MIT
# Helpers of the fxt sql cases.

# the traces the agreement cases compare on: synth, record archives (when made), foreign samples
agree_traces() {
  local f
  for f in s.fxt p3.fxt all.fxt rec.fxt recflow.fxt; do
    [ ! -s "$f" ] || echo "$SCRATCH/$f"
  done
}
