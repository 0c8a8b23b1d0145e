# SPDX-License-Identifier: MIT
# needs: python3
# --on-crash: a provider killed by SIGSEGV triggers a snapshot holding it as recovered
# (its kept events, gap-free, and how it ended) next to the final archive.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0" TSAN_OPTIONS="${TSAN_OPTIONS:+$TSAN_OPTIONS:}handle_segv=0"
rc=0
"$FXT" record --mode circular --buffer-size 64k --on-crash -o "$T/c-%n.fxt" -- "$PROG" emit 1000 2 segv \
  2> "$T/err" || rc=$?
expect_eq "exit status" $rc 139
snap_check "$T/c-1.fxt" crash -1 0
grep -q '"name":"provider_killed","args":\[{"name":"signal","type":"int32","value":11}' "$T/c-1.fxt.jsonl" ||
  fail "the snapshot does not say the provider was killed"
grep -q "snapshot 1 (crash of record_prog ([0-9]*), signal 11" "$T/err" || fail "summary: $(cat "$T/err")"
check_clean "$T/c-final.fxt"
verify "$T/c-final.fxt" threads circular 1000 2
