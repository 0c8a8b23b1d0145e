#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The main job (`make demo`): run the instrumented C example, then look at its
# trace with the fxt command in the order a reader would (is it valid, what is
# in it, its first records, JSON for the viewers), record two processes into one
# archive, read a damaged trace, and end with where to open the traces. Each
# section's header comes before its output (stderr included).
set -u
cd "$(dirname "$0")/.." || exit 1
FXT=./build/fxt
section() { printf '\n== %s\n' "$*"; }
echo "The fxt command is build/fxt (make install PREFIX=DIR puts it in DIR/bin)."
section "build/examples/demo demo.fxt: an instrumented program, 4 threads (trace macros)"
./build/examples/demo demo.fxt 2>&1 || exit 1
section "fxt check demo.fxt: is the trace valid?"
$FXT check --max-per-rule 5 demo.fxt 2>&1
section "fxt stats demo.fxt: where the time went"
$FXT stats --top 8 demo.fxt 2>&1
section "fxt dump demo.fxt | head -n 15: the first records"
$FXT dump demo.fxt 2>&1 | head -n 15
section "fxt json demo.fxt -o demo.json: Chrome Trace Event JSON"
$FXT json demo.fxt -o demo.json 2>&1
echo "demo.json: $(wc -c < demo.json) bytes"
traces="demo.fxt"
if [ "$(uname -s)" = Linux ] && [ -x ./build/examples/pingpong ]; then
  section "fxt record --sched -o pingpong.fxt -- build/examples/pingpong 500: two processes, one archive (the kernel's scheduling too when root)"
  $FXT record --sched -o pingpong.fxt -- ./build/examples/pingpong 500 2>&1
  $FXT check pingpong.fxt 2>&1 | tail -n 1
  [ -s pingpong.fxt ] && traces="$traces, pingpong.fxt"
fi
foreign=../shared/samples/foreign/ftr_counter_malformed.fxt
if [ -f "$foreign" ]; then
  section "fxt dump $foreign | head -n 6: a damaged trace from another implementation (errors reported, reading goes on)"
  $FXT dump "$foreign" 2>&1 | head -n 6
fi
section "next"
echo "Open $traces (or demo.json) in https://ui.perfetto.dev (\"Open trace file\")."
echo "Every command: build/fxt --help; the documentation: README.md and docs/."
