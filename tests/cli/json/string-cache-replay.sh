# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# A string index registered again in a later range, then nesting past 4096 begins: -j 3
# converts the input again from that range on with the first range's context, whose string
# cache must not keep the first value (the replay skips the string record). The output is
# that of -j 1.
"$PYTHON" - "$T" <<'PY'
import os, sys; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
d = magic() + provider_info(1, "p") + thread(1, 5, 6) + string(1, "A") + string(2, "n")
d += b"".join(event(INSTANT, 100 + k, 1, 1, 2) for k in range(10))
d += b"".join(event(BEGIN, 1000 + k, 1, 2, 2) for k in range(1000))
d += string(1, "B")
d += b"".join(event(BEGIN, 3000 + k, 1, 1, 2) for k in range(3100))
d += b"".join(event(END, 9000 + k, 1, 1, 2) for k in range(4100))
write(sys.argv[1] + "/r.fxt", d)
PY
same_any_jobs "$T/r.fxt"
expect_eq "categories" "$(jq -c '[.traceEvents[] | .cat] | group_by(.) | map([.[0], length])' "$T/one.out")" \
  '[["A",10],["B",3104],["n",1000]]'
