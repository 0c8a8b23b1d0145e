# SPDX-License-Identifier: MIT
# lock: tracefs
# fxt record killed with SIGKILL cannot remove its socket directory (nor, with --sched, its
# tracefs instance, with tracing on and its kernel buffers allocated): the next fxt record,
# with or without --sched, removes those of dead runs, and leaves a live run's and
# unexpected ones alone (an instance whose buffers someone holds open: a recorder in
# another pid namespace, whose pid looks dead here).
# a short private base: the socket path must fit sun_path (a deep $T would be passed over)
XDG_RUNTIME_DIR=$(mktemp -d /tmp/fxt-test-run.XXXXXX)
export XDG_RUNTIME_DIR
trap 'rm -rf "$XDG_RUNTIME_DIR"; rmdir /sys/kernel/tracing/instances/fxt-sched-999999999-0 2> /dev/null || true' EXIT
mkdir -m 700 "$XDG_RUNTIME_DIR/fxt-record-999999999-keep" # a pid that cannot exist...
touch "$XDG_RUNTIME_DIR/fxt-record-999999999-keep/other" # ...but a file fxt did not make
sched=--sched
"$FXT" record --sched -o "$T/probe.fxt" -- true 2> "$T/probe.err" || fail "probe: $(cat "$T/probe.err")"
grep -q -- "--sched:" "$T/probe.err" && sched="" # no tracefs here: the socket part only
"$FXT" record $sched --mode streaming -o "$T/a.fxt" -- "$PROG" emit 20000 1 hang > "$T/ready" 2> "$T/err" &
rec=$!
while ! grep -q ready "$T/ready"; do sleep 0.01; done
# Other cases' fxt record runs (any run sweeps, and they take no lock) may remove the dead
# run's instance as soon as it is dead: what it leaves is checked while it is alive.
inst=/sys/kernel/tracing/instances/fxt-sched-$rec-0
if [ -n "$sched" ]; then
  [ -d "$inst" ] || fail "no tracefs instance for the run"
  [ "$(cat "$inst/tracing_on")" = 1 ] || fail "the run's instance has tracing off"
fi
kill -9 $rec
wait $rec || true
kill -9 "$(cut -d' ' -f2 "$T/ready")"
ls -d "$XDG_RUNTIME_DIR/fxt-record-$rec-"* > /dev/null 2>&1 || fail "no directory left by the killed run"
held=/sys/kernel/tracing/instances/fxt-sched-999999999-0
if [ -n "$sched" ]; then
  # an instance of a pid dead here but in use (a recorder in another pid namespace); a
  # concurrent sweep may take it between mkdir and open: try again
  for _ in 1 2 3 4 5; do
    mkdir "$held" 2> /dev/null || true
    if exec 3< "$held/per_cpu/cpu0/trace_pipe_raw"; then
      break
    fi
  done 2> /dev/null
  [ -d "$held" ] || fail "could not make an instance in use"
fi
# no --sched: any run sweeps
"$FXT" record -o "$T/b.fxt" -- true 2> "$T/err2" || fail "second run: $(cat "$T/err2")"
if [ -n "$sched" ]; then
  [ -d "$held" ] || fail "an instance in use was removed"
  exec 3<&-
  "$FXT" record -o "$T/c.fxt" -- true 2> "$T/err2" || fail "third run: $(cat "$T/err2")"
  [ ! -d "$held" ] || fail "an instance no longer in use, of a dead pid, is still there"
fi
if ls -d "$XDG_RUNTIME_DIR/fxt-record-$rec-"* > /dev/null 2>&1; then
  fail "the dead run's directory is still there"
fi
[ -d "$XDG_RUNTIME_DIR/fxt-record-999999999-keep" ] || fail "a directory holding another file was removed"
[ -z "$sched" ] || [ ! -d "$inst" ] || fail "the dead run's tracefs instance is still there"
left=$(find "$XDG_RUNTIME_DIR" -maxdepth 1 -name 'fxt-record-*' | grep -vc keep || true)
expect_eq "directories left after two runs (one killed)" "$left" 0
