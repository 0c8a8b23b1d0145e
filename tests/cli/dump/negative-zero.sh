# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3
# A double argument -0.0 is written -0.0 (a reader of "-0" gets the integer 0
# and loses the sign), by fxt dump --json and by fxt json; 0.0 stays 0.
"$PYTHON" - "$T/z.fxt" <<'PY'
import os, sys; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
t = magic() + provider_info(1, "p") + thread(1, 5, 6)
t += event(INSTANT, 7, 1, sref("c"), sref("z"), args=[arg(5, sref("neg"), -0.0), arg(5, sref("pos"), 0.0)])
write(sys.argv[1], t)
PY
"$FXT" dump --json "$T/z.fxt" > "$T/z.jsonl"
grep -q '"name":"neg","type":"double","value":-0.0}' "$T/z.jsonl" || fail "dump: $(grep instant "$T/z.jsonl")"
grep -q '"name":"pos","type":"double","value":0}' "$T/z.jsonl" || fail "dump: $(grep instant "$T/z.jsonl")"
"$FXT" json "$T/z.fxt" 2> /dev/null | grep -q '"args":{"neg":-0.0,"pos":0}' || fail "json: $("$FXT" json "$T/z.fxt" 2> /dev/null)"
