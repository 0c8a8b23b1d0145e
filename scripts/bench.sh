#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Benchmarks (not part of the tests): library benchmarks, then the tools on a
# large trace from fxt synth, each next to a floor measured in the same run.
# Usage: bash scripts/bench.sh [SIZE] (default 1G; e.g. 200M for a quick run)
set -u
cd "$(dirname "$0")/.."
SIZE=${1:-1G}
FXT=./build/fxt
DATA=build/bench-data
mkdir -p "$DATA"

echo "== reader (bench/bench_reader)"; ./build/bench/bench_reader 256 3
echo; echo "== writer (bench/bench_writer)"; ./build/bench/bench_writer 3000000
echo; echo "== instrumentation (bench/bench_trace)"; ./build/bench/bench_trace 2000000

big=$DATA/big.fxt
if [ ! -f "$big" ] || [ "$(cat $DATA/size 2>/dev/null)" != "$SIZE" ]; then
  echo; echo "== generating a $SIZE trace with fxt synth"
  $FXT synth --size "$SIZE" --threads 8 --providers 2 -o "$big" && echo "$SIZE" > $DATA/size
fi
bytes=$(stat -c %s "$big")

# run CMD...: prints wall seconds and peak RSS (KiB) of the command
run() { /usr/bin/time -f "%e %M" -o $DATA/time.txt "$@" > /dev/null 2> $DATA/err.txt; cat $DATA/time.txt | tail -1; }
mbs() { python3 -c "import sys; b,t=float(sys.argv[1]),float(sys.argv[2]); print('%.0f' % (b/1e6/max(t,1e-3)))" "$@"; }

echo; echo "== tools on $big ($bytes bytes)"
read t_cat _ <<< "$(run cat "$big")"
$FXT json "$big" -o $DATA/big.json 2>/dev/null
out=$(stat -c %s $DATA/big.json)
read t_floor_out _ <<< "$(run dd if=/dev/zero of=$DATA/zero.out bs=1M count=$((out / 1048576)) status=none)"
rm -f $DATA/zero.out
floor=$(python3 -c "print(${t_cat} + ${t_floor_out})")
read t_json m_json <<< "$(run $FXT json "$big" -o $DATA/big.json)"
events=$(grep -o "^fxt json: [0-9]*" $DATA/err.txt | grep -o "[0-9]*$")
python3 - "$bytes" "$t_json" "$m_json" "$floor" "$events" <<'PY'
import sys
b, t, m, fl, ev = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5] or 0)
print("fxt json : %.1f s, %.0f MB/s in, %.1f M events/s, peak RSS %.1f MiB; floor (read input + write as many bytes) %.1f s -> ratio %.2f"
      % (t, b / 1e6 / t, ev / 1e6 / t, m / 1024, fl, fl / t))
PY
rm -f $DATA/big.json
read t_m m_m <<< "$(run $FXT merge "$big" "$big" -o $DATA/merged.fxt)"
echo "fxt merge (2 x input): $t_m s, $(mbs $((2 * bytes)) $t_m) MB/s, peak RSS $((m_m / 1024)) MiB; floor (cat) $(python3 -c "print(round(2*$t_cat,2))") s"
rm -f $DATA/merged.fxt
read t_c m_c <<< "$(run $FXT cut "$big" --from 100ms --to 200ms -o $DATA/cut.fxt)"
echo "fxt cut: $t_c s, $(mbs $bytes $t_c) MB/s, peak RSS $((m_c / 1024)) MiB"
rm -f $DATA/cut.fxt
zstd -q -f -T2 "$big" -o $DATA/big.fxt.zst
read t_z _ <<< "$(run zstd -dc $DATA/big.fxt.zst)"
read t_zs m_zs <<< "$(run $FXT stats $DATA/big.fxt.zst)"
read t_s _ <<< "$(run $FXT stats "$big")"
echo "compressed read: fxt stats on .zst $t_zs s (uncompressed input $t_s s); zstd -dc alone $t_z s -> overhead ratio $(python3 -c "print(round($t_zs/max($t_z,1e-3),2))"), peak RSS $((m_zs / 1024)) MiB"
rm -f $DATA/big.fxt.zst
