# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# What a crash leaves: async and flow chains begun, stepped (instants), never
# ended. Each open chain is one *-never-ended warning at its begin; its steps
# are not flow-no-begin / async-no-begin errors, also when they were written
# before their begin (another thread's chunk) or past the reorder window.
# (issue 25.2)
failed=0
for f in crash-stepped crash-cross-thread crash-long; do
  rc=0
  "$FXT" check --json "$f.fxt" > "$T/$f.jsonl" || rc=$?
  got=$(jq -r 'select(.rule) | .rule' "$T/$f.jsonl" | sort | uniq -c | awk '{print $2 "x" $1}' | tr '\n' ' ')
  case $f in
    crash-long) want="flow-never-endedx1 " ;;
    *) want="async-never-endedx1 flow-never-endedx1 " ;;
  esac
  if [ "$rc" = 0 ] && [ "$got" = "$want" ]; then
    echo "ok   $f"
  else
    echo "FAIL $f: exit $rc, rules '$got', expected exit 0, '$want'"
    failed=1
  fi
done
exit $failed
