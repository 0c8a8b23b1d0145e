#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The main job: build and run the instrumented C example, then inspect its trace
# with the fxt command (dump, stats, check, json), and show the bundled samples.
set -u
cd "$(dirname "$0")/.."
FXT=./build/fxt
echo "== running build/examples/demo (4 threads, trace macros) -> demo.fxt"
./build/examples/demo demo.fxt || exit 1
echo
echo "== fxt stats demo.fxt"
$FXT stats --top 8 demo.fxt
echo
echo "== fxt check demo.fxt"
$FXT check --max-per-rule 5 demo.fxt
echo
echo "== fxt dump demo.fxt (first 15 records)"
$FXT dump demo.fxt | head -n 15
$FXT json demo.fxt -o demo.json
echo
echo "== fxt json demo.fxt -o demo.json ($(wc -c < demo.json) bytes)"
echo
if [ "$(uname -s)" = Linux ] && [ -x ./build/examples/pingpong ]; then
  echo
  echo "== fxt record --sched -- build/examples/pingpong 500 (two processes, one archive; the kernel too when root)"
  $FXT record --sched -o pingpong.fxt -- ./build/examples/pingpong 500
  $FXT check pingpong.fxt | tail -n 1
fi
echo
echo "Open demo.fxt, pingpong.fxt (or demo.json) in https://ui.perfetto.dev (\"Open trace file\") to see them."
foreign=../shared/samples/foreign/ftr_counter_malformed.fxt
if [ -f "$foreign" ]; then
  echo
  echo "== a damaged trace written by another implementation: errors are reported, reading goes on"
  $FXT dump "$foreign" | head -n 6
fi
