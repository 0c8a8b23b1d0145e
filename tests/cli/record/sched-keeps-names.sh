# SPDX-License-Identifier: MIT
# not under ASan: the other cases and the unit tests run every line it runs (cover_select.py)
# lock: tracefs
# needs: python3
# fxt record --sched writes the kernel's section after the providers': it must not rename
# what the program named. A program started as "fancy-name" (argv0; the kernel's comm is
# record_prog) whose workers name themselves worker-0/1: the archive's last name of each
# (what readers keep) is the program's, json gives each thread one thread_name (the
# program's), fxt stats lists the workers by name, and Perfetto (when /work/shared has tp)
# shows them. Kernel names only fill threads no provider named. Skipped without tracefs.
"$FXT" record --sched=tree -o "$T/a.fxt" -- bash -c "exec -a fancy-name '$PROG' emit 50 2 exit" \
  2> "$T/err" || fail "record: $(cat "$T/err")"
if grep -q -- "--sched:" "$T/err"; then
  echo "SKIP: $(grep -m1 -- "--sched:" "$T/err")"
  exit 77
fi
check_clean "$T/a.fxt"
"$FXT" dump --json "$T/a.fxt" > "$T/a.jsonl"
"$PYTHON" - "$T/a.jsonl" > "$T/tids" <<'PY' || fail "archive names"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
ev = [r for r in recs if r["kind"] == "event" and r.get("name") == "ev"]
workers = {}
for r in ev:
    j = [a["value"] for a in r["args"] if a["name"] == "thread"][0]
    workers[r["tid"]] = "worker-%d" % j
pid = ev[0]["pid"]
last = {}
for r in recs:
    if r["kind"] == "kernel_object":
        last[(r["obj_type"], r["koid"])] = r["name"]
for tid, want in workers.items():
    assert last.get((2, tid)) == want, ("thread", tid, last.get((2, tid)), want)
assert last.get((1, pid)) == "fancy-name", ("process", pid, last.get((1, pid)))
kernel = [r["provider"] for r in recs if r["kind"] == "provider_info" and r["name"] == "kernel"]
assert kernel, "no kernel provider"
# kernel names fill threads no provider named (the tree has tasks the program does not trace)
named = {(r["obj_type"], r["koid"]) for r in recs if r["kind"] == "kernel_object" and r["provider"] != kernel[0]}
kobj = [r for r in recs if r["kind"] == "kernel_object" and r["provider"] == kernel[0]]
assert not [r for r in kobj if (r["obj_type"], r["koid"]) in named], "the kernel renames provider objects"
print(pid, " ".join("%d:%s" % kv for kv in sorted(workers.items())))
PY
"$FXT" json "$T/a.fxt" -o "$T/a.json" 2> /dev/null
"$PYTHON" - "$T/a.json" "$T/tids" <<'PY' || fail "json thread names"
import json, sys
d = json.load(open(sys.argv[1]))
line = open(sys.argv[2]).read().split()
pid, workers = int(line[0]), dict((int(a), b) for a, b in (w.split(":") for w in line[1:]))
names = {}
for e in d["traceEvents"]:
    if e.get("ph") == "M" and e["name"] == "thread_name" and e["tid"] in workers:
        names.setdefault(e["tid"], []).append(e["args"]["name"])
    if e.get("ph") == "M" and e["name"] == "process_name" and e["pid"] == pid:
        assert e["args"]["name"] == "fancy-name", e
for tid, want in workers.items():
    assert names.get(tid) == [want], ("thread_name entries", tid, names.get(tid), want)
PY
"$FXT" stats "$T/a.fxt" > "$T/stats"
for w in worker-0 worker-1; do
  grep -q " $w\$" "$T/stats" || fail "stats does not name $w: $(grep -A8 'threads by busy' "$T/stats")"
done
TP=$SHARED/tools/perfetto/tp
if [ -x "$TP" ] && echo "select 1" | "$TP" -q /dev/stdin "$T/a.fxt" > /dev/null 2>&1; then
  for f in a.fxt a.json; do
    echo "select tid, name from thread where name like 'worker-%' or tid in
          (select tid from thread where name = 'record_prog');" |
      "$TP" -q /dev/stdin "$T/$f" 2> /dev/null | tr -d '"' > "$T/$f.tp"
    for w in $(cut -d' ' -f2- "$T/tids"); do
      grep -qx "${w%%:*},${w#*:}" "$T/$f.tp" || fail "perfetto ($f) does not show ${w#*:}: $(cat "$T/$f.tp")"
    done
  done
else
  echo "perfetto tp not usable here: the viewer part is not checked"
fi
