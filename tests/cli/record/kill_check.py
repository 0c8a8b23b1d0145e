# SPDX-License-Identifier: MIT
"""Checks one seeded kill trial (kill-trials.sh): `fxt dump --json` of the archive on
stdin, the program's progress file (record_prog RECORD_PROG_PROGRESS: per thread, how
many test/ev events the macro had returned from, i.e. committed) as argument.

  kill_check.py MODE PROGRESS T

Every committed event is in the archive, or a reported loss says why it is not:
oneshot keeps a prefix of each thread's events (the rest counted as dropped),
streaming keeps them in order with gaps no larger than the reported drops,
circular keeps each thread's newest events without a gap (older ones only where
overwritten chunks are reported). An event not committed yet (at most one per
thread, in flight when SIGKILL came) may or may not be there.
"""
import json
import re
import struct
import sys
from collections import defaultdict

# An "ev" event exactly as `fxt dump --json` writes it: most lines of a trial (a streaming
# one dumps up to 800,000 records), read by this pattern at a tenth of json.loads' CPU. Any
# other line, or an ev line that differs from it in any way, is parsed as JSON.
EV = re.compile(r'\{"offset":\d+,"kind":"event","provider":\d+,"event":"instant","ts":\d+,"pid":\d+,'
                r'"tid":\d+,"category":"test","name":"ev","args":\[\{"name":"seq","type":"int64",'
                r'"value":(\d+)\},\{"name":"thread","type":"int64","value":(\d+)\}\]\}')


def fail(msg):
    sys.exit("FAIL: " + msg)


def main(mode, progress_path, t):
    with open(progress_path, "rb") as f:
        prog = struct.unpack("<64Q", f.read(512))[:t]
    per = defaultdict(list)
    lost = defaultdict(int)
    provider = error = False
    for ln in sys.stdin.read().splitlines():
        m = EV.fullmatch(ln)
        if m:
            per[int(m.group(2))].append(int(m.group(1)))
            continue
        if not ln.strip():
            continue
        r = json.loads(ln)
        if r["kind"] == "provider_info":
            provider = True
        elif r["kind"] == "error":
            error = True
        elif r["kind"] == "event":
            args = {a["name"]: a["value"] for a in r["args"]}
            if r["name"] == "ev":
                per[args["thread"]].append(args["seq"])
            elif r["name"] in ("records_dropped", "chunks_overwritten"):
                lost[r["name"]] += args["count"]
    if not provider:
        if sum(prog) != 0:
            fail("no provider, but %d events were committed" % sum(prog))
        print("%s: killed before it registered" % mode)
        return
    if error:
        fail("undecodable records")
    missing = 0
    for j in range(t):
        s = per.get(j, [])
        p = prog[j]
        if len(set(s)) != len(s) or s != sorted(s):
            fail("thread %d: events repeated or out of order" % j)
        if s and s[-1] > p:
            fail("thread %d: event %d kept, but only %d were emitted" % (j, s[-1], p))
        committed = [q for q in s if q < p]
        if mode == "circular":
            if p > 0 and (not s or s[-1] < p - 1):
                fail("thread %d: its newest committed event %d is not kept" % (j, p - 1))
            if s and s != list(range(s[0], s[-1] + 1)):
                fail("thread %d: a gap in the kept events" % j)
            if s and s[0] > 0 and lost["chunks_overwritten"] == 0:
                fail("thread %d: events 0-%d gone, no overwrite reported" % (j, s[0] - 1))
        else:
            if mode == "oneshot" and s != list(range(len(s))):
                fail("thread %d: oneshot kept events that are not the first ones" % j)
            missing += p - len(committed)
    if mode != "circular" and missing > lost["records_dropped"]:
        fail("%d committed events missing, %d reported dropped" % (missing, lost["records_dropped"]))
    print("%s: %d committed, %d kept, %d dropped, %d chunks overwritten" % (
        mode, sum(prog), sum(len(v) for v in per.values()), lost["records_dropped"],
        lost["chunks_overwritten"]))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
