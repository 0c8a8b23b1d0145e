# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3
# SIGKILL from outside while the program runs, in each mode: nothing committed
# is lost. The program is started by a shell, which reaps it, so the manager
# only sees the connection end without a goodbye. One ready file per mode: with a
# shared one the next mode's wait could read the previous mode's "ready" before the
# new program's redirection emptied it, and kill it before it registered.
for mode in oneshot circular streaming; do
  size=1M
  [ $mode = streaming ] || size=64k
  "$FXT" record --mode $mode --buffer-size $size -o "$T/$mode.fxt" -- sh -c \
    "'$PROG' emit 1000 4 hang > '$T/$mode.ready' & h=\$!; while ! grep -q ready '$T/$mode.ready'; do sleep 0.01; done; kill -9 \$h; wait" \
    2> "$T/$mode.err"
  check_clean "$T/$mode.fxt"
  verify "$T/$mode.fxt" threads $mode 1000 4
  grep -q "died (connection lost" "$T/$mode.err" || fail "$mode summary: $(cat "$T/$mode.err")"
done
