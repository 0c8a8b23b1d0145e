#!/usr/bin/env bash
# The main job: decode bundled sample traces with the fxt command.
set -uo pipefail
cd "$(dirname "$0")/.."
sample=tests/data/sample.fxt
echo "== fxt dump $sample (every record kind and argument type)"
./build/fxt dump "$sample"
echo
echo "== fxt dump --json (JSON Lines), first 5 records"
./build/fxt dump --json "$sample" | head -n 5
foreign=../shared/samples/foreign/ftr_counter_malformed.fxt
if [ -f "$foreign" ]; then
  echo
  echo "== a damaged trace written by another implementation: errors are reported, reading goes on"
  ./build/fxt dump "$foreign" | head -n 6
  ./build/fxt dump "$foreign" > /dev/null
  echo "(exit status $?)"
fi
