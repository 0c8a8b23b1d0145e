# SPDX-License-Identifier: MIT
# lock: tracefs
# needs: python3
# fxt record --sched=tree: a kernel provider beside CMD's, with context switches and
# wakeups on the archive's clock, CMD's threads named, the archive checks clean, and
# fxt json turns them into systrace lines with the kernel's priorities. Needs root and
# tracefs (and a build with libtracefs): skipped otherwise, with the reason fxt gives.
"$FXT" record --sched=tree -o "$T/a.fxt" -- "$PROG" emit 2000 2 exit 2> "$T/err" || fail "record: $(cat "$T/err")"
if grep -q -- "--sched:" "$T/err"; then
  echo "SKIP: $(grep -m1 -- "--sched:" "$T/err")"
  exit 77
fi
check_clean "$T/a.fxt"
grep -q "fxt record: kernel: [1-9][0-9]* context switches" "$T/err" || fail "no kernel summary: $(cat "$T/err")"
"$FXT" dump --json "$T/a.fxt" > "$T/a.jsonl"
"$PYTHON" - "$T/a.jsonl" <<'PY' || fail "archive content"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
names = {r["provider"]: r["name"] for r in recs if r["kind"] == "provider_info"}
kernel = [p for p, n in names.items() if n == "kernel"]
assert len(kernel) == 1, names
prog = [r for r in recs if r["kind"] == "event" and r.get("name") == "ev"]
assert len(prog) == 4000, len(prog)
cs = [r for r in recs if r["kind"] == "context_switch"]
assert cs and all(r["provider"] == kernel[0] for r in cs), "switches on the kernel provider"
tids = {r["tid"] for r in prog}
seen = {r["in_tid"] for r in cs} | {r["out_tid"] for r in cs}
assert tids <= seen, ("CMD's threads ran on some CPU", tids, seen)
# one clock: CMD's events lie within the kernel's time span
lo, hi = min(r["ts"] for r in cs), max(r["ts"] for r in cs)
assert all(lo <= r["ts"] <= hi for r in prog), "CMD's events outside the kernel's span"
PY
"$FXT" json "$T/a.fxt" -o "$T/a.json" 2> /dev/null
"$PYTHON" - "$T/a.json" <<'PY' || fail "json systemTraceEvents"
import json, sys
s = json.load(open(sys.argv[1]))["systemTraceEvents"]
lines = [l for l in s.splitlines() if "sched_switch:" in l]
assert lines, "no sched_switch lines"
assert not any("prev_prio=-1" in l and "prev_pid=0 " not in l for l in lines), "priorities lost"
PY
