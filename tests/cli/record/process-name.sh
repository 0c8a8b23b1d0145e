# SPDX-License-Identifier: MIT
# needs: python3
# A process that names itself under fxt record (issue #24.5): fxt_set_process_name() while
# its session runs, and FXT_PROCESS_NAME, label the provider "NAME (pid)" and name its
# process, in the archive (dump), in stats and in json; a name over 63 bytes labels the
# provider cut at a UTF-8 boundary, and the process record keeps it whole.
# (62 ASCII bytes, then "é" across bytes 62-63: the label stops before it)
long="wörker-ñame-ü-abcdefghijklmnopqrstuvwxyz-0123456789-ABCDEFGé-tail"
run() { # NAME-WANTED FILE MODE ARGS...
  local want=$1 f=$2 mode=$3
  shift 3
  "$FXT" record --mode "$mode" -o "$T/$f.fxt" -- "$PROG" "$@" 2> "$T/$f.err" || fail "record $f: $(cat "$T/$f.err")"
  "$FXT" dump --json "$T/$f.fxt" > "$T/$f.jsonl"
  "$FXT" stats "$T/$f.fxt" > "$T/$f.stats"
  "$FXT" json -o "$T/$f.json" "$T/$f.fxt" 2> /dev/null
  "$PYTHON" - "$want" "$T/$f" <<'PY' || fail "$f: names"
import json, re, sys
want, base = sys.argv[1], sys.argv[2]
label = want.encode()[:63].decode("utf-8", "ignore")  # cut where a character starts
recs = [json.loads(l) for l in open(base + ".jsonl")]
infos = [r["name"] for r in recs if r["kind"] == "provider_info"]
assert len(infos) == 1 and re.fullmatch(re.escape(label) + r" \(\d+\)", infos[0]), (infos, label)
pid = int(infos[0].rsplit("(", 1)[1][:-1])
procs = [r["name"] for r in recs if r["kind"] == "kernel_object" and r["obj_type"] == 1 and r["koid"] == pid]
assert procs and procs[-1] == want, procs  # the last word: the whole name
assert all(p in (want, label) for p in procs), procs  # never argv0
stats = open(base + ".stats").read()
assert ("process %d: %s\n" % (pid, want)) in stats, stats
assert ("fxt record: %s (%d):" % (label, pid)) in open(base + ".err").read()
ev = json.load(open(base + ".json"))
ev = ev["traceEvents"] if isinstance(ev, dict) else ev
names = [e["args"]["name"] for e in ev if e.get("ph") == "M" and e.get("name") == "process_name" and e["pid"] == pid]
assert names and names[-1] == want, names
PY
}
run worker set-oneshot oneshot named worker 3
run worker set-streaming streaming named worker 3
FXT_PROCESS_NAME=from-env run from-env env-oneshot oneshot named - 3
FXT_PROCESS_NAME=from-env run from-env env-streaming streaming named - 3
run "$long" long streaming named "$long" 3
