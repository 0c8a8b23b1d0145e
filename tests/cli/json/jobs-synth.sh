# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# -j 3 gives the output of -j 1 byte for byte on the synth trace (3 providers, every record
# kind) with every option that changes the output; the options do change it.
same_any_jobs s.fxt
cp "$T/one.out" "$T/plain.json"
set -f # the patterns are fxt's, not the shell's
for opts in "--system-events=fuchsia --time-base=trace-start" "--no-system-events --time-range 1ms:2ms" \
            "--absolute --time-range 1000000:2000000 --category g*" "--name *o* --time-range 500us:"; do
  # shellcheck disable=SC2086
  same_any_jobs s.fxt $opts
  cmp -s "$T/one.out" "$T/plain.json" && fail "$opts: output not changed"
done
set +f
# -o FILE writes what stdout gets
FXT_RANGE_BYTES=4096 "$FXT" json -j 3 s.fxt -o "$T/o.json" 2> /dev/null
cmp -s "$T/o.json" "$T/plain.json" || fail "-o FILE with -j 3 differs"
# compressed output: the same bytes
if have compression; then
  "$FXT" json -j 1 s.fxt -o "$T/one.json.zst" 2> /dev/null
  FXT_RANGE_BYTES=4096 "$FXT" json -j 3 s.fxt -o "$T/many.json.zst" 2> /dev/null
  cmp -s "$T/one.json.zst" "$T/many.json.zst" || fail "-o FILE.zst with -j 3 differs"
fi
