#!/bin/bash
# SPDX-License-Identifier: MIT
# The viewer test (ctest viewer.devtools): `fxt json` output of a synth trace,
# the demo's trace, a cross-thread trace of libfxt's engine and an `fxt record
# --sched` archive of a program that names its threads, loaded by the
# DevTools trace engine (devtools_load.mjs), compared with the FXT (compare.py).
# Skips (77) without node, python3 or the engine (`npm ci` in this directory).
#
# Environment: FXT, XTHREAD (fxt_xthread_trace), DEMO (examples/demo, optional),
# PINGPONG (examples/pingpong, optional),
# PYTHON, SCRATCH (a directory for the traces), VIEWER_DIR (where node_modules is;
# default: this directory).
set -u
here=$(cd "$(dirname "$0")" && pwd)
engine=${VIEWER_DIR:-$here}
PYTHON=${PYTHON:-python3}
command -v node > /dev/null 2>&1 || { echo "SKIP: node not found"; exit 77; }
command -v "$PYTHON" > /dev/null 2>&1 || { echo "SKIP: python3 not found"; exit 77; }
[ -f "$engine/node_modules/@paulirish/trace_engine/package.json" ] ||
  { echo "SKIP: the DevTools trace engine is not installed (npm ci in $engine)"; exit 77; }
rm -rf "$SCRATCH" && mkdir -p "$SCRATCH" && cd "$SCRATCH" || exit 1

"$FXT" synth --events 5000 --providers 3 --threads 6 --all-records -o synth.fxt || exit 1
"$XTHREAD" xthread.fxt 60 || exit 1
names="synth xthread"
if [ -n "${DEMO:-}" ] && [ -x "$DEMO" ]; then
  env -u FXT_TRACE_OUTPUT "$DEMO" demo.fxt > /dev/null || exit 1
  names="$names demo"
else
  echo "note: no demo program, its trace is not checked"
fi
# fxt record --sched of a program that names its threads: the program's names, not the kernel's
# comm, in what DevTools shows (root and tracefs needed, else not checked)
if [ -n "${PINGPONG:-}" ] && [ -x "$PINGPONG" ]; then
  "$FXT" record --sched -o sched.fxt -- "$PINGPONG" 200 > /dev/null 2> sched.err || true
  if [ -s sched.fxt ] && ! grep -q -- "--sched:" sched.err; then
    names="$names sched"
  else
    echo "note: fxt record --sched unavailable here, its trace is not checked: $(grep -m1 -- --sched: sched.err)"
  fi
fi
rc=0
for n in $names; do
  "$FXT" json "$n.fxt" -o "$n.json" 2> "$n.json.err" || { echo "FAIL: fxt json $n.fxt"; cat "$n.json.err"; rc=1; continue; }
  "$FXT" dump --json "$n.fxt" > "$n.jsonl" || { echo "FAIL: fxt dump --json $n.fxt"; rc=1; continue; }
  node "$here/devtools_load.mjs" "$n.json" "$engine" > "$n.engine.json"
  st=$?
  [ $st -ne 77 ] || { cat "$n.engine.json"; exit 77; }
  "$PYTHON" "$here/compare.py" "$n.jsonl" "$n.engine.json" "$n" || rc=1
done
exit $rc
