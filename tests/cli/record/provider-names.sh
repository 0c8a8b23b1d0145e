# SPDX-License-Identifier: MIT
# needs: python3
# fxt record names each provider "argv0 (pid)" and its process argv0 (started as
# "fancy-name": the kernel's comm would say record_prog); two processes of one program
# are two providers told apart by their pids; the summary uses the same names.
"$FXT" record -o "$T/a.fxt" -- bash -c "exec -a fancy-name '$PROG' ring 2 3" 2> "$T/err" ||
  fail "record: $(cat "$T/err")"
"$FXT" dump --json "$T/a.fxt" > "$T/a.jsonl"
"$PYTHON" - "$T/a.jsonl" "$T/err" <<'PY' || fail "names: $(cat "$T/err")"
import json, re, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
labels = [r["name"] for r in recs if r["kind"] == "provider_info"]
assert len(labels) == 2, labels
pids = []
for l in labels:
    m = re.fullmatch(r"fancy-name \((\d+)\)", l)
    assert m, l
    pids.append(int(m.group(1)))
assert pids[0] != pids[1], labels
procs = {r["koid"]: r["name"] for r in recs if r["kind"] == "kernel_object" and r["obj_type"] == 1}
assert all(procs.get(p) == "fancy-name" for p in pids), procs
err = open(sys.argv[2]).read()
assert all("fxt record: %s:" % l in err for l in labels), err
PY
