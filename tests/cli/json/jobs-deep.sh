# SPDX-License-Identifier: MIT
# needs: python3 jq
# Nesting past 4096 begins on one thread (written as B/E as they come) depends on the depth
# before a range: -j 3 reads the input again from the first range that might pass it, and
# the output is still that of -j 1; with a flow and another thread's pair past that point.
"$PYTHON" - "$T" <<'PY'
import os, sys; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
d = magic() + provider_info(1, "p") + thread(1, 5, 6) + thread(2, 5, 7) + string(1, "c") + string(2, "n")
d += b"".join(event(BEGIN, 1000 + k, 1, 1, 2) for k in range(4100))
d += event(BEGIN, 5000, 2, 1, 2) + event(FLOW_BEGIN, 5001, 1, 1, 2, ident=1) + event(END, 5002, 2, 1, 2)
d += b"".join(event(END, 9000 + k, 1, 1, 2) for k in range(4100))
write(sys.argv[1] + "/d.fxt", d)
PY
same_any_jobs "$T/d.fxt"
expect_eq "deep: phases" "$(jq -c '[.traceEvents[] | .ph] | group_by(.) | map([.[0], length])' "$T/one.out")" \
  '[["B",4],["E",4],["X",4097],["s",1]]'
