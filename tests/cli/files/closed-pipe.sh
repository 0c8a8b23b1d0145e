# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# A closed output pipe (the reader stopped: `| head -c1`) ends every command with exit
# status 3, quietly (docs/cli.md; before: killed by SIGPIPE, 141 in the shell).
for c in "dump big.fxt" "dump --json big.fxt" "json big.fxt" "cut big.fxt" "cut -j 2 --from 0 big.fxt" \
  "synth --size 4M" "merge big.fxt a.fxt"; do
  set +e
  # shellcheck disable=SC2086
  "$FXT" $c 2> "$T/err" | head -c1 > /dev/null
  rc=${PIPESTATUS[0]}
  set -e
  expect_eq "$c: exit status" "$rc" 3
  [ ! -s "$T/err" ] || fail "$c: said something: $(head -c 200 "$T/err")"
done
