# SPDX-License-Identifier: MIT
# -v says what each process's shared buffer obtained: its size, whether every page was
# made resident by the start and a helper thread (not by the traced threads' faults),
# how many 2 MiB huge pages back it, and the system's shmem_enabled setting.
rc=0
"$FXT" record -v --duration 1s --buffer-size 16M -o "$T/a.fxt" -- "$PROG" emit 100 1 hang > /dev/null 2> "$T/err" || rc=$?
expect_eq "exit status" $rc 143
check_clean "$T/a.fxt"
line=$(grep "record_prog ([0-9]*): buffer " "$T/err") || fail "no buffer line: $(cat "$T/err")"
case $line in
  *": buffer 18432 KiB, all pages resident (populated at the start and by a helper thread), "[0-9]*" of 9 huge pages of 2 MiB ("*")") ;;
  *) fail "buffer line: $line" ;;
esac
grep -q "^fxt record: transparent huge pages for shared memory: shmem_enabled=" "$T/err" || fail "no shmem_enabled line: $(cat "$T/err")"
# without -v: neither line
"$FXT" record --duration 0.3s -o "$T/b.fxt" -- "$PROG" emit 10 1 hang > /dev/null 2> "$T/err2" || true
if grep -q "buffer \|shmem_enabled" "$T/err2"; then fail "buffer lines without -v: $(cat "$T/err2")"; fi
