# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# needs: python3
# A category list of any length reaches every provider whole (issue #24.3 under fxt record):
# 2,000+ bytes whose last entry, "test", is the only category the program uses; the parent
# and its fork child record their test events (the manager once sent a fixed 1,024 bytes).
# A 108,000-byte list (four protocol messages) too.
for n in 300 9000; do
  cats=$("$PYTHON" -c "import sys; print(','.join('nomatch%05d' % i for i in range(int(sys.argv[1]))) + ',test')" $n)
  [ ${#cats} -gt 1100 ] || fail "list too short: ${#cats}"
  "$FXT" record --categories "$cats" -o "$T/c$n.fxt" -- "$PROG" fork 5 2> "$T/c$n.err" ||
    fail "record: $(cat "$T/c$n.err")"
  "$FXT" dump --json "$T/c$n.fxt" > "$T/c$n.jsonl"
  "$PYTHON" - "$T/c$n.jsonl" <<'PY' || fail "$n entries ($(wc -c < "$T/c$n.err") bytes of stderr): $(head -c 600 "$T/c$n.err")"
import json, sys, collections
recs = [json.loads(l) for l in open(sys.argv[1])]
per = collections.Counter(r["provider"] for r in recs if r["kind"] == "event" and r.get("category") == "test")
provs = {r["id"] for r in recs if r["kind"] == "provider_info"}
assert len(provs) == 2 and sorted(per.values()) == [5, 10] and set(per) == provs, (provs, per)
PY
done
