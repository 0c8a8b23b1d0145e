#!/bin/bash
# Every subcommand on hostile bytes: the reader fuzz corpus, the foreign samples
# and random mutants of a trace holding every record kind. Each run must end
# with a defined exit status (0 ok, 1 damaged input; never a signal, never
# "out of memory" for a small input) and fxt json must still print valid JSON.
# Under the ASan/UBSan build the same script catches memory errors.
set -u
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
mkdir -p "$SCRATCH"; cd "$SCRATCH" || exit 1
rm -rf mut; mkdir mut

"$FXT" synth --seed 11 --events 300 --providers 2 --all-records -o base.fxt
"$FXT" synth --seed 12 --events 300 --big-endian --all-records -o base_be.fxt
python3 - <<'PY'
import random
rng = random.Random(20261122)
for name in ("base.fxt", "base_be.fxt"):
    data = open(name, "rb").read()
    for k in range(40):
        b = bytearray(data)
        how = k % 4
        if how == 0:    # flip random bits
            for _ in range(rng.randint(1, 20)):
                b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        elif how == 1:  # random bytes over a header-sized span
            at = rng.randrange(len(b) - 8) & ~7
            b[at:at + 8] = bytes(rng.randrange(256) for _ in range(8))
        elif how == 2:  # cut anywhere
            b = b[:rng.randrange(len(b))]
        else:           # splice: duplicate or drop a random span
            i, j = sorted(rng.randrange(len(b)) for _ in range(2))
            b = b[:i] + b[j:] if rng.random() < 0.5 else b[:j] + b[i:j] + b[j:]
        open(f"mut/{name[:-4]}_{k:02d}.fxt", "wb").write(bytes(b))
PY

inputs=("$SRC"/fuzz/corpus/reader/* "$SHARED"/samples/foreign/*.fxt mut/*.fxt)
bad=0; badjson=0; n=0
for f in "${inputs[@]}"; do
  n=$((n + 1))
  for cmd in "dump" "dump --json" "check" "check --json" "stats" "stats --json" "cut --from 1us" "merge"; do
    # shellcheck disable=SC2086
    timeout 60 "$FXT" $cmd "$f" > out.bin 2> err.txt; rc=$?
    if [ $rc -gt 1 ]; then
      echo "  $cmd $f: exit $rc: $(head -c 300 err.txt)"; bad=$((bad + 1))
    fi
  done
  timeout 60 "$FXT" json "$f" -o out.json 2> err.txt; rc=$?
  if [ $rc -gt 1 ]; then
    echo "  json $f: exit $rc: $(head -c 300 err.txt)"; bad=$((bad + 1))
  elif ! jq -e .traceEvents out.json > /dev/null 2>&1; then
    echo "  json $f: invalid JSON"; badjson=$((badjson + 1))
  fi
done
echo "$n inputs"
check "every subcommand ends with exit 0 or 1 on $n hostile inputs" '[ $bad -eq 0 ] && [ $n -gt 200 ]'
check "fxt json prints valid JSON for every one of them" '[ $badjson -eq 0 ]'
# the mutants really are hostile: most of them are reported as damaged
damaged=0
for f in mut/*.fxt; do "$FXT" check "$f" > /dev/null 2>&1 || damaged=$((damaged + 1)); done
check "most mutants are reported as invalid ($damaged of 80)" '[ $damaged -ge 50 ]'
exit $fail
