#!/usr/bin/env bash
# The main job: decode a bundled sample trace with the fxt command.
set -euo pipefail
cd "$(dirname "$0")/.."
sample=tests/data/sample.fxt
echo "== fxt dump $sample (first 20 records)"
./build/fxt dump "$sample" | head -n 20
