# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# Records before any provider record are provider 0's (as in Fuchsia's reader, which starts in a
# provider 0 of its own): a provider 0 section or info record that follows keeps their strings,
# threads and tick rate, and stats shows one provider 0 and one thread 10/11, not two.
"$PYTHON" - "$T" <<'PY'
import os, sys; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
pre = magic() + init(1000) + string(1, "c") + string(2, "A") + thread(1, 10, 11)
pre += event(BEGIN, 0, 1, 1, 2) + event(END, 10, 1, 1, 2)
post = event(BEGIN, 20, 1, 1, 2) + event(END, 50, 1, 1, 2)
write(sys.argv[1] + "/section.fxt", pre + provider_section(0) + post)
write(sys.argv[1] + "/info.fxt", pre + provider_info(0, "zero") + post)
PY
for f in section info; do
  "$FXT" stats --json "$T/$f.fxt" > "$T/$f.json" || fail "$f: stats exit status"
  # 1000 ticks per second: a tick is 1 ms; A lasts 10 + 30 ticks
  expect_eq "$f threads" "$(jq -c '[.threads[] | [.provider, .pid, .tid, .events, .busy_ns]]' "$T/$f.json")" \
    '[[0,10,11,4,40000000]]'
  expect_eq "$f providers" "$(jq -c '[.providers[] | [.id, .records, .events]]' "$T/$f.json")" '[[0,10,4]]'
  "$FXT" check "$T/$f.fxt" > /dev/null || fail "$f: check finds unresolved references"
done
expect_eq "name" "$(jq -c '[.providers[].name]' "$T/info.json")" '["zero"]'
