# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# Arguments of the slowest events: those of the begin (or the complete event), text and JSON.
"$PYTHON" - <<'PY'
import os, sys; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
t = magic() + provider_info(1, "p") + string(1, "cat") + string(2, "frame") + string(3, "n")
t += event(BEGIN, 100, (1, 2), 1, 2, args=[arg(3, sref("n"), -5), arg(6, sref("file"), sref("a.zst"))])
t += event(END, 900, (1, 2), 1, 2, args=[arg(3, sref("ignored"), 1)])
write(os.environ["T"] + "/args.fxt", t)
PY
"$FXT" stats --json "$T/args.fxt" > "$T/args.json"
expect_eq "args" "$(jq -c '.slowest[0] | [.duration_ns, .args, .args_truncated]' "$T/args.json")" '[800,{"n":-5,"file":"a.zst"},false]'
"$FXT" stats "$T/args.fxt" | grep -q '^ *800 0.100  1/2  cat/frame n=-5, file="a.zst"$' || fail "text row of the slowest event"
