#!/bin/sh
# SPDX-License-Identifier: MIT
# The loadable extension in a real host: load.sh shell|python MODULE TRACE.
# shell: the sqlite3 command line (.load); python: /usr/bin/python3's sqlite3 module
# (conn.load_extension; the pyenv python3 first on PATH is built without it). Exit 77
# (skipped, reason printed) when the host is not installed or cannot load extensions.
host=$1 module=$2 trace=$3
mod=${module%.so}
expect='5|3|1'
query="select (select count(*) from slice), (select count(*) from blob), (select count(*) from log)"
case $host in
shell)
    command -v sqlite3 >/dev/null 2>&1 || { echo "SKIP: no sqlite3 shell"; exit 77; }
    got=$(sqlite3 :memory: ".load $mod" "select fxt_open('$trace') > 0;" "$query;") || exit 1
    expect="1
$expect"
    ;;
python)
    py=/usr/bin/python3
    [ -x $py ] || { echo "SKIP: no /usr/bin/python3"; exit 77; }
    $py -c 'import sqlite3; sqlite3.connect(":memory:").enable_load_extension(True)' 2>/dev/null ||
        { echo "SKIP: $py's sqlite3 cannot load extensions"; exit 77; }
    got=$($py - "$mod" "$trace" "$query" <<'PY'
import sqlite3, sys
mod, trace, query = sys.argv[1:4]
con = sqlite3.connect(":memory:")
con.enable_load_extension(True)
con.load_extension(mod)
con.execute("select fxt_open(?)", (trace,))
print("|".join(str(v) for v in con.execute(query).fetchone()))
try:
    con.execute("select fxt_open('/nonexistent/x.fxt')")
    print("no error for a missing file")
except sqlite3.OperationalError as e:
    assert "No such file" in str(e), e
PY
) || exit 1
    ;;
*) echo "usage: load.sh shell|python MODULE TRACE"; exit 2 ;;
esac
if [ "$got" != "$expect" ]; then
    printf 'got:\n%s\nexpected:\n%s\n' "$got" "$expect"
    exit 1
fi
echo ok
