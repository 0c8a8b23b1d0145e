# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# Outputs written through a temporary file keep what the replaced file was: its mode, and a
# symlink stays a symlink (the file it names is replaced). New files get 0644 minus the umask.
# A FIFO is written directly.
cp a.fxt "$T/mode.fxt"
chmod 0640 "$T/mode.fxt"
"$FXT" cut b.fxt -o "$T/mode.fxt" 2> /dev/null
expect_eq "mode kept" "$(stat -c %a "$T/mode.fxt")" 640
cmp -s "$T/mode.fxt" a.fxt && fail "the output was not written"
mkdir "$T/d"
ln -s ../mode.fxt "$T/d/link.fxt"
"$FXT" cut a.fxt -o "$T/d/link.fxt" 2> /dev/null
[ -L "$T/d/link.fxt" ] || fail "the symlink was replaced by a file"
"$FXT" cut a.fxt -o "$T/want.fxt" 2> /dev/null
cmp -s "$T/mode.fxt" "$T/want.fxt" || fail "the symlink's target was not written"
expect_eq "files beside the link" "$(ls -A "$T/d" | tr '\n' ' ')" "link.fxt "
(umask 027 && "$FXT" synth --events 10 -o "$T/new.fxt")
expect_eq "new file mode" "$(stat -c %a "$T/new.fxt")" 640
# an existing file that is read-only is not replaced behind its back
cp a.fxt "$T/ro.fxt"
chmod 0444 "$T/ro.fxt"
if [ "$(id -u)" != 0 ]; then
  rc=0; "$FXT" cut b.fxt -o "$T/ro.fxt" 2> "$T/err" || rc=$?
  expect_eq "read-only output: exit status" $rc 3
  cmp -s "$T/ro.fxt" a.fxt || fail "a read-only output was replaced"
fi
mkfifo "$T/fifo"
cat "$T/fifo" > "$T/from-fifo" &
"$FXT" cut a.fxt -o "$T/fifo" 2> /dev/null
wait
cmp -s "$T/from-fifo" "$T/want.fxt" || fail "the FIFO did not get the trace"
