# SPDX-License-Identifier: MIT
# The manager's socket is private to the user: mode 0600 in a 0700 directory
# (buffers are memfds, passed over that socket only: no name in any file system).
"$FXT" record --attach -o "$T/a.fxt" 2> "$T/err" &
rec=$!
while ! grep -q "processes join with" "$T/err"; do sleep 0.01; done
sock=$(sed -n 's/.*processes join with FXT_TRACE_MANAGER=//p' "$T/err")
expect_eq "socket mode" "$(stat -c %a "$sock")" 600
expect_eq "socket owner" "$(stat -c %u "$sock")" "$(id -u)"
expect_eq "directory mode" "$(stat -c %a "$(dirname "$sock")")" 700
kill -INT $rec
wait $rec
