# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3
# A large record whose size (here also over the reassembly limit) runs past the
# end of the input: exactly one error object, at its offset, then the dump
# stops (the dump contract); exit 1.
"$PYTHON" - "$T/l.fxt" <<'PY'
import os, sys; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
write(sys.argv[1], magic() + word(15 | ((1 << 31) << 4)) + word(0) * 4)
PY
rc=0
"$FXT" dump --json "$T/l.fxt" > "$T/l.jsonl" 2> /dev/null || rc=$?
expect_eq "exit status" $rc 1
expect_eq "lines" "$(cut -c1-40 "$T/l.jsonl")" '{"offset":0,"kind":"magic","provider":nu
{"offset":8,"kind":"error","provider":nu'
