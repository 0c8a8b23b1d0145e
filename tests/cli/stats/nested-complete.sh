# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# Complete events nest by time with begin/end pairs and with each other, whatever their order in
# the file (FXT_DURATION scopes write them at scope end, inner first). Hand-computed from the spec:
# P 0..100 (pair) holds A 10..90 which holds B 20..80; X 200..300 holds Y 220..280.
# self: P 100-80=20, A 80-60=20, B 60, X 100-60=40, Y 60; busy: P + X = 200.
"$PYTHON" - "$T/n.fxt" <<'PY'
import os, sys; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
t = magic() + provider_info(1, "p") + init(1000000000) + string(1, "c") + thread(1, 10, 11)
t += kernel_object(11, 2, sref("main"), args=[arg(8, sref("process"), 10)])
for n, s in ((2, "P"), (3, "A"), (4, "B"), (5, "X"), (6, "Y")):
    t += string(n, s)
t += event(BEGIN, 0, 1, 1, 2) + event(COMPLETE, 20, 1, 1, 4, end_ts=80) + event(COMPLETE, 10, 1, 1, 3, end_ts=90)
t += event(END, 100, 1, 1, 2) + event(COMPLETE, 220, 1, 1, 6, end_ts=280) + event(COMPLETE, 200, 1, 1, 5, end_ts=300)
write(sys.argv[1], t)
PY
"$FXT" stats --json "$T/n.fxt" > "$T/n.json"
expect_eq "self P A B X Y" \
  "$(jq -c '[.names[] | {(.name): .self_ns}] | add | [.P, .A, .B, .X, .Y]' "$T/n.json")" '[20,20,60,40,60]'
expect_eq "total P A B X Y" \
  "$(jq -c '[.names[] | {(.name): .total_ns}] | add | [.P, .A, .B, .X, .Y]' "$T/n.json")" '[100,80,60,100,60]'
expect_eq "busy" "$(jq -c '[.threads[].busy_ns]' "$T/n.json")" '[200]'
expect_eq "folded" "$("$FXT" stats --folded "$T/n.fxt")" \
  "$(printf '10/11 main;P 20\n10/11 main;P;A 20\n10/11 main;P;A;B 60\n10/11 main;X 40\n10/11 main;X;Y 60')"
# -j: every record its own range (the scopes cross range boundaries).
for mode in "--json --tree" "--folded" ""; do
  # shellcheck disable=SC2086
  "$FXT" stats -j 1 $mode "$T/n.fxt" > "$T/one.out"
  # shellcheck disable=SC2086
  FXT_RANGE_BYTES=8 "$FXT" stats -j 3 $mode "$T/n.fxt" > "$T/many.out"
  cmp -s "$T/one.out" "$T/many.out" || fail "-j 3 $mode differs from -j 1"
done
