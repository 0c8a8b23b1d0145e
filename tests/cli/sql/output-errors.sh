# SPDX-License-Identifier: MIT
# needs: sqlite devfull
# An output that cannot be written: a full disk is one line and exit status 3; a closed pipe
# (`| head -1`) ends fxt sql at its next write, exit status 3, quietly (docs/cli.md).
rc=0
"$FXT" sql s.fxt "select * from slice" > /dev/full 2> "$T/err" || rc=$?
expect_eq "full disk" "$rc $(cat "$T/err")" "3 fxt sql: error writing output: No space left on device"
set +o pipefail
rc=$( { "$FXT" sql s.fxt "select * from slice" 2> "$T/err2"; echo $? > "$T/rc"; } | head -1 > /dev/null; cat "$T/rc")
expect_eq "closed pipe" "$rc $(cat "$T/err2")" "3 "
