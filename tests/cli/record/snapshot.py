# SPDX-License-Identifier: MIT
"""Checks on an `fxt record` snapshot (docs/manager.md#triggers), reading
`fxt dump --json` (JSON Lines) on stdin.

  snapshot.py REASON LAST POST_NS [PROVIDERS]
      the archive has one fxt/trigger instant with reason REASON (alert, signal,
      crash): the cut is its time + POST_NS. Every test/ev event of every
      provider is at or before the cut, and each thread's sequence numbers are
      gap-free (every event of the recent past the ring held). LAST >= 0: thread
      0 of the provider that raised the alert ends at seq LAST exactly (POST_NS
      0) or later (POST_NS > 0), and the alert instant alert/<name> is there at
      the trigger's time. PROVIDERS: how many traced processes it must hold, each
      with events within 50 ms before the cut (cut at one moment).
"""
import json
import sys
from collections import defaultdict


def fail(msg):
    sys.exit("FAIL: " + msg)


def arg(ev, name):
    for a in ev["args"]:
        if a["name"] == name:
            return a["value"]
    return None


def main():
    reason, last, post_ns = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    nprov = int(sys.argv[4]) if len(sys.argv) > 4 else None
    recs = [json.loads(line) for line in sys.stdin if line.strip()]
    if any(r["kind"] == "error" for r in recs):
        fail("undecodable records")
    tps = {r["provider"]: r["ticks_per_second"] for r in recs if r["kind"] == "init"}
    evs = [r for r in recs if r["kind"] == "event"]
    trig = [e for e in evs if e["category"] == "fxt" and e["name"] == "trigger"]
    if len(trig) != 1:
        fail("%d fxt/trigger instants, want 1" % len(trig))
    t = trig[0]
    if arg(t, "reason") != reason:
        fail("trigger reason %r, want %r" % (arg(t, "reason"), reason))
    rate = tps[t["provider"]]
    cut = t["ts"] + post_ns * rate // 10**9
    per = defaultdict(list)
    latest = {}
    for e in evs:
        if e["category"] != "test":
            continue
        if e["ts"] > cut:
            fail("provider %s: %s/%s at %d, after the cut %d" % (e["provider"], e["category"], e["name"], e["ts"], cut))
        latest[e["pid"]] = max(latest.get(e["pid"], 0), e["ts"])
        if e["name"] == "ev":
            per[(e["pid"], arg(e, "thread"))].append(arg(e, "seq"))
    if not per:
        fail("no test/ev event")
    for (pid, th), seqs in sorted(per.items()):
        if seqs != list(range(seqs[0], seqs[0] + len(seqs))):
            fail("pid %d thread %d: not gap-free: %s" % (pid, th, seqs[:5] + ["..."] + seqs[-5:]))
    if last >= 0:
        pid = arg(t, "pid")
        seqs = per.get((pid, 0))
        if not seqs:
            fail("no event of the alerting thread")
        if (post_ns == 0 and seqs[-1] != last) or (post_ns > 0 and seqs[-1] <= last):
            fail("alerting thread ends at seq %d, want %s%d" % (seqs[-1], "" if post_ns == 0 else "> ", last))
        name = arg(t, "name")
        alerts = [e for e in evs if e["category"] == "alert" and e["name"] == name and e["pid"] == pid]
        if not alerts or max(a["ts"] for a in alerts) != t["ts"]:
            fail("no alert/%s instant at the trigger's time" % name)
    if nprov is not None:
        if len(latest) != nprov:
            fail("%d processes with events, want %d" % (len(latest), nprov))
        for pid, ts in latest.items():
            if cut - ts > 50 * rate // 1000:
                fail("pid %d: last event %.1f ms before the cut" % (pid, (cut - ts) * 1000.0 / rate))
    print("%s: %d threads, %d events, cut %d" % (reason, len(per), sum(len(v) for v in per.values()), cut))


if __name__ == "__main__":
    main()
