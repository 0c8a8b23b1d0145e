# SPDX-License-Identifier: MIT
# needs: setpriv
# A recording made by a non-root user works, and is private to that user: the
# manager accepts only connections of its own user (SO_PEERCRED), so a process
# of another user (root here, which the socket's 0600 mode does not stop) is
# refused and runs untraced. Runs when the suite runs as root (it needs a
# second user: nobody); skipped otherwise.
if [ "$(id -u)" != 0 ]; then
  echo "SKIP: needs root to run a recording as another user"
  exit 77
fi
chmod 0777 "$T"
# nobody must reach the binaries: a checkout under a private directory (/root is 0700 on a
# fresh Debian) is a skip with its reason, not a recording that never starts
for b in "$FXT" "$PROG"; do
  if ! setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$b"; then
    echo "SKIP: user nobody cannot run $b (a directory above it is private)"
    exit 77
  fi
done
# setpriv and env exec: $! is the recording's pid
setpriv --reuid=65534 --regid=65534 --clear-groups env -u XDG_RUNTIME_DIR "$FXT" record --attach -o "$T/a.fxt" \
  2> "$T/err" &
rec=$!
while ! grep -q "processes join with" "$T/err"; do
  kill -0 $rec 2> /dev/null || fail "the recording ended before it started: $(cat "$T/err")"
  sleep 0.01
done
sock=$(sed -n 's/.*processes join with FXT_TRACE_MANAGER=//p' "$T/err")
expect_eq "socket owner" "$(stat -c %U "$sock")" nobody
msg=$(FXT_TRACE_MANAGER=$sock "$PROG" emit 10 1 exit 2>&1)
case $msg in
  "libfxt: the trace manager at $sock did not answer"*"; not tracing") ;;
  *) fail "root's process was not refused: $msg" ;;
esac
setpriv --reuid=65534 --regid=65534 --clear-groups env FXT_TRACE_MANAGER="$sock" "$PROG" emit 10 1 exit
kill -TERM $rec
wait $rec
grep -q "total: 1 processes, 11 events" "$T/err" || fail "summary: $(cat "$T/err")"
