#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Benchmark of `fxt json` (not run by ctest): throughput (input MB/s, events/s)
# and peak memory on a trace generated at run time by `fxt synth`, next to a
# floor measured in the same run: reading the input (cat > /dev/null) plus
# writing as many bytes as the JSON output (head -c N /dev/zero > file), i.e.
# the I/O any converter must do. Then checks that the output parses as JSON
# (scripts/json_validate.py: the real Python JSON parser, bounded memory) and
# deletes its files.
# Usage: scripts/bench_json.sh [SIZE] [FXT]   (SIZE default 1G; FXT default build/fxt)
set -eu
cd "$(dirname "$0")/.."
SIZE=${1:-1G}
FXT=${2:-./build/fxt}
DIR=$(mktemp -d "${TMPDIR:-/tmp}/bench_json.XXXXXX")
trap 'rm -rf "$DIR"' EXIT

echo "generating a $SIZE trace with fxt synth (4 threads, 2 providers, every arg type)"
"$FXT" synth --size "$SIZE" --providers 2 -o "$DIR/in.fxt"
in_bytes=$(stat -c %s "$DIR/in.fxt")

timed() { # timed OUT CMD...: wall seconds and peak RSS (KiB) into $DIR/OUT
  /usr/bin/time -f "%e %M" -o "$DIR/$1" "${@:2}"
}
secs() { cut -d' ' -f1 "$DIR/$1"; }
rss() { cut -d' ' -f2 "$DIR/$1"; }

cat "$DIR/in.fxt" > /dev/null # warm the page cache for both runs
timed t_json "$FXT" json "$DIR/in.fxt" -o "$DIR/out.json" 2> "$DIR/json.err"
out_bytes=$(stat -c %s "$DIR/out.json")
events=$(sed -n 's/^fxt json: \([0-9]*\) events.*/\1/p' "$DIR/json.err")
timed t_null "$FXT" json "$DIR/in.fxt" -o /dev/null 2> /dev/null # CPU-bound: no disk writes
timed t_read cat "$DIR/in.fxt" > /dev/null
timed t_write head -c "$out_bytes" /dev/zero > "$DIR/floor.out"
rm -f "$DIR/floor.out"

python3 - "$in_bytes" "$out_bytes" "$events" "$(secs t_json)" "$(rss t_json)" "$(secs t_read)" "$(secs t_write)" "$(secs t_null)" <<'PY'
import sys
inb, outb, ev = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
tj, rss, tr, tw = float(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6]), float(sys.argv[7])
tn = max(float(sys.argv[8]), 0.01)
tj, tf = max(tj, 0.01), max(tr + tw, 0.01)
print("input   %.1f MB, output %.1f MB, %d events" % (inb / 1e6, outb / 1e6, ev))
print("fxt json: %.2f s  %.0f MB/s input  %.2f M events/s  %.0f MB/s output  peak RSS %.1f MiB"
      % (tj, inb / 1e6 / tj, ev / 1e6 / tj, outb / 1e6 / tj, rss / 1024))
print("floor   : %.2f s  (read input %.2f s + write %.0f MB %.2f s)  ->  fxt json / floor = %.1fx"
      % (tf, tr, outb / 1e6, tw, tj / tf))
print("fxt json -o /dev/null (CPU-bound): %.2f s  %.0f MB/s input  %.2f M events/s;  read-only floor %.2f s -> %.1fx"
      % (tn, inb / 1e6 / tn, ev / 1e6 / tn, max(tr, 0.01), tn / max(tr, 0.01)))
print("memory under 64 MiB: %s" % ("yes" if rss < 64 * 1024 else "NO"))
PY
echo "validating the JSON (bounded-memory streaming parse)..."
python3 scripts/json_validate.py "$DIR/out.json"
