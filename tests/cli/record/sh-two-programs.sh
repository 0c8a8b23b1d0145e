# SPDX-License-Identifier: MIT
# needs: python3
# `fxt record -- sh -c 'prog1 & prog2; wait'`: one archive that checks clean,
# both processes with their named threads; prog1 killed with SIGKILL mid-run
# loses none of its committed events.
"$FXT" record -o "$T/a.fxt" -- sh -c \
  "'$PROG' emit 2000 2 hang > '$T/ready' & h=\$!; '$PROG' emit 1000 3 exit; while ! grep -q ready '$T/ready'; do sleep 0.01; done; kill -9 \$h; wait" \
  2> "$T/err"
check_clean "$T/a.fxt"
verify "$T/a.fxt" providers | sort > "$T/providers"
expect_eq "providers and threads" "$(cat "$T/providers")" "record_prog: record_prog worker-0 worker-1
record_prog: record_prog worker-0 worker-1 worker-2"
expect_eq "events" "$("$FXT" dump --json "$T/a.fxt" | grep -c '"name":"ev"')" 7000
grep -q "total: 2 processes, 7002 events" "$T/err" || fail "summary: $(cat "$T/err")"
