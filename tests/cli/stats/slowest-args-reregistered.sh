# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# -j 1 on a file keeps a begin's argument words and decodes them at its end: the arguments of
# the slowest events are still those of their begin when strings they name are registered
# again (or for the first time) before the end, as with -j 2 and stdin (decoded at each begin).
"$PYTHON" - <<'PY'
import os, sys; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
t = magic() + provider_info(1, "p") + string(1, "cat") + string(2, "slow") + string(3, "fast")
t += string(4, "key") + string(5, "before") + string(6, "kept")
# The slowest: a string value (5) and a name (7, not registered yet) change while it is open.
t += event(BEGIN, 100, (1, 2), 1, 2, args=[arg(6, 4, 5), arg(3, 7, 42), arg(6, sref("inl"), 6)])
t += string(5, "after") + string(7, "late")
t += event(BEGIN, 200, (1, 2), 1, 3, args=[arg(6, 4, 5), arg(3, 7, 1)])
t += event(END, 300, (1, 2), 1, 3)
t += event(END, 10000, (1, 2), 1, 2)
# The second slowest names only strings that do not change: decoded at its end.
t += event(BEGIN, 20000, (1, 3), 1, 2, args=[arg(6, 4, 6)])
t += event(END, 29000, (1, 3), 1, 2)
write(os.environ["T"] + "/rereg.fxt", t)
PY
"$FXT" stats --json -j 1 "$T/rereg.fxt" > "$T/one.json"
expect_eq "slowest" "$(jq -c '[.slowest[] | [.duration_ns, .name, .args]]' "$T/one.json")" \
  '[[9900,"slow",{"key":"before","?":42,"inl":"kept"}],[9000,"slow",{"key":"kept"}],[100,"fast",{"key":"after","late":1}]]'
for mode in "--json" "" "--top 2 --tree"; do
  # shellcheck disable=SC2086
  "$FXT" stats -j 1 $mode "$T/rereg.fxt" > "$T/one.out"
  # shellcheck disable=SC2086
  "$FXT" stats -j 2 $mode "$T/rereg.fxt" > "$T/two.out"
  # shellcheck disable=SC2086
  "$FXT" stats -j 1 $mode - < "$T/rereg.fxt" > "$T/stdin.out"
  cmp -s "$T/one.out" "$T/two.out" || fail "$mode: -j 1 and -j 2 differ"
  cmp -s "$T/one.out" "$T/stdin.out" || fail "$mode: file and stdin differ"
done
