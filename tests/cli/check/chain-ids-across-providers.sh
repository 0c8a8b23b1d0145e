# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3 jq
# The chain-id rule (docs/check.md#chain-ids): a step/end matches its own
# provider's open chain, else the one other provider that has the id open (a
# parent-to-child flow), in time order; two providers using one id are
# independent chains; with the id open in several other providers the end is
# ambiguous (no begin); a begin of an id open in its own provider is a real
# collision (*-id-reused, an error). (issue 25.3)
failed=0
for f in ids-parent-child ids-parent-child-late ids-independent ids-ambiguous flow-id-reused async-id-reused; do
  rc=0
  "$FXT" check --json "$f.fxt" > "$T/$f.jsonl" || rc=$?
  got=$(jq -r 'select(.rule) | .rule' "$T/$f.jsonl" | sort | uniq -c | awk '{print $2 "x" $1}' | tr '\n' ' ')
  case $f in
    ids-ambiguous) want="flow-never-endedx2 flow-no-beginx1 " wrc=1 ;;
    flow-id-reused) want="flow-id-reusedx1 " wrc=1 ;;
    async-id-reused) want="async-id-reusedx1 " wrc=1 ;;
    *) want="" wrc=0 ;;
  esac
  if [ "$rc" = "$wrc" ] && [ "$got" = "$want" ]; then
    echo "ok   $f"
  else
    echo "FAIL $f: exit $rc, rules '$got', expected exit $wrc, '$want'"
    failed=1
  fi
done
exit $failed
