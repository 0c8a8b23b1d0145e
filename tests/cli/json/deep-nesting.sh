# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# Begins nested deeper than 4096 on one thread (the bound on what fxt json holds
# per thread) are written as B and E as they come; the 4096 outer pairs are X.
"$PYTHON" - "$T/d.fxt" <<'PY'
import os, sys; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
t = magic() + provider_info(1, "p") + thread(1, 5, 6) + string(1, "c") + string(2, "n")
t += b"".join(event(BEGIN, 1000 + k, 1, 1, 2) for k in range(4100))
t += b"".join(event(END, 9000 + k, 1, 1, 2) for k in range(4100))
write(sys.argv[1], t)
PY
"$FXT" json "$T/d.fxt" -o "$T/d.json" 2> /dev/null
expect_eq "phases" "$(jq -c '[.traceEvents[] | .ph] | group_by(.) | map([.[0], length])' "$T/d.json")" '[["B",4],["E",4],["X",4096]]'
expect_eq "outermost" "$(jq -c '.traceEvents[-1] | [.ph, .ts, .dur]' "$T/d.json")" '["X",1,12.099]'
