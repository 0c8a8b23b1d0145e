# SPDX-License-Identifier: MIT
# lock: tracefs
# needs: python3
# --sched=tree with --trigger: each snapshot also holds the kernel's scheduling, cut at
# the same moment as the processes (no context switch or wakeup after the alert, none
# before the snapshot's earliest process event). Needs root and tracefs (and a build with
# libtracefs): skipped otherwise, with the reason fxt gives.
export RECORD_PROG_ALERT_EVERY=1000 RECORD_PROG_PACE_US=20
"$FXT" record --sched=tree --mode circular --buffer-size 1M --trigger frame_drop --max-snapshots 2 \
  -o "$T/k-%n.fxt" -- "$PROG" emit 3000 2 exit 2> "$T/err" || fail "record: $(cat "$T/err")"
if grep -q -- "--sched:" "$T/err"; then
  echo "SKIP: $(grep -m1 -- "--sched:" "$T/err")"
  exit 77
fi
for n in 1 2; do
  snap_check "$T/k-$n.fxt" alert $((n * 1000 - 1)) 0
  "$PYTHON" - "$T/k-$n.fxt.jsonl" <<'PY' || fail "k-$n.fxt: the kernel's section"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
names = {r["provider"]: r["name"] for r in recs if r["kind"] == "provider_info"}
kernel = [p for p, n in names.items() if n == "kernel"]
assert len(kernel) == 1, names
cut = [r for r in recs if r["kind"] == "event" and r["name"] == "trigger"][0]["ts"]
first = min(r["ts"] for r in recs if r["kind"] == "event" and r["category"] == "test")
ks = [r for r in recs if r["kind"] in ("context_switch", "thread_wakeup")]
assert ks, "no scheduling record"
assert all(first <= r["ts"] <= cut for r in ks), (first, cut, min(r["ts"] for r in ks), max(r["ts"] for r in ks))
PY
done
check_clean "$T/k-final.fxt"
