# SPDX-License-Identifier: MIT
"""Checks on `fxt record` archives for the tests/cli/record cases, reading
`fxt dump --json` (JSON Lines) on stdin.

  verify.py threads MODE K T     the workers' test/ev events: per thread, which
                                 sequence numbers were kept (oneshot: a prefix,
                                 circular: the newest, streaming: in order) and
                                 kept + reported drops == emitted
  verify.py ring N ROUNDS        token ring: every token sent once, received once,
                                 and never received before it was sent (in ns,
                                 each provider's ticks at its own rate)
  verify.py fork K               fork without exec: the child has its own events only
  verify.py providers            one line per provider: name and thread names
"""
import json
import sys
from collections import defaultdict


def load():
    recs = [json.loads(line) for line in sys.stdin if line.strip()]
    if not any(r["kind"] == "provider_info" for r in recs):
        sys.exit("FAIL: no provider in the archive (%d records)" % len(recs))
    errors = [r for r in recs if r["kind"] == "error"]
    if errors:
        sys.exit("FAIL: undecodable records: %s" % errors[:3])
    return recs


def ns(recs):
    """Event time in ns as a viewer shows it: ticks converted with the rate of the
    provider the event belongs to (its initialization record)."""
    tps, out = {}, {}
    for r in recs:
        if r["kind"] == "init":
            tps[r["provider"]] = r["ticks_per_second"]
        if r["kind"] == "event":
            out[r["offset"]] = r["ts"] * 10**9 // tps.get(r["provider"], 10**9)
    return out


def events(recs, name=None):
    return [r for r in recs if r["kind"] == "event" and (name is None or r["name"] == name)]


def arg(ev, name):
    for a in ev["args"]:
        if a["name"] == name:
            return a["value"]
    return None


def fail(msg):
    sys.exit("FAIL: " + msg)


def threads(mode, k, t):
    recs = load()
    per = defaultdict(list)
    for e in events(recs, "ev"):
        per[arg(e, "thread")].append(arg(e, "seq"))
    dropped = sum(arg(e, "count") for e in events(recs, "records_dropped"))
    starts = len(events(recs, "start"))
    kept = sum(len(v) for v in per.values())
    for j, seqs in sorted(per.items()):
        if seqs != sorted(seqs) or len(set(seqs)) != len(seqs):
            fail("thread %d: events out of order or repeated" % j)
        if mode == "oneshot" and seqs != list(range(len(seqs))):
            fail("thread %d: oneshot kept %d events that are not the first ones" % (j, len(seqs)))
        if mode == "circular" and seqs != list(range(k - len(seqs), k)):
            fail("thread %d: circular kept %d events that are not the newest" % (j, len(seqs)))
    if mode != "circular" and kept + starts + dropped != k * t + 1:
        fail("kept %d + start %d + dropped %d != emitted %d" % (kept, starts, dropped, k * t + 1))
    if mode == "circular" and (len(per) != t or any(len(v) == 0 for v in per.values())):
        fail("circular: a thread kept nothing")
    print("%s: %d threads, %d kept, %d dropped" % (mode, len(per), kept, dropped))


def ring(n, rounds):
    recs = load()
    t = ns(recs)
    sends, recvs = {}, {}
    for e in events(recs, "send"):
        tok = arg(e, "token")
        if tok in sends:
            fail("token %d sent twice" % tok)
        sends[tok] = t[e["offset"]]
    for e in events(recs, "recv"):
        tok = arg(e, "token")
        if tok in recvs:
            fail("token %d received twice" % tok)
        recvs[tok] = t[e["offset"]]
    if len(sends) != n * rounds or set(sends) != set(recvs):
        fail("%d sends, %d receives, want %d each" % (len(sends), len(recvs), n * rounds))
    early = sum(1 for tok in sends if recvs[tok] < sends[tok])
    pids = {e["pid"] for e in events(recs, "send")}
    print("%d processes, %d tokens, %d received before sent" % (len(pids), len(sends), early))
    if early:
        fail("%d receives before their sends" % early)


def fork(k):
    recs = load()
    names = defaultdict(lambda: defaultdict(int))
    for e in events(recs):
        if e["category"] == "test":
            names[e["pid"]][e["name"]] += 1
    got = sorted(sorted(v.items()) for v in names.values())
    want = sorted([sorted({"parent_before": k, "parent_after": k}.items()), [("child", k)]])
    if got != want:
        fail("events per process: %s" % got)
    print("2 processes: parent %d+%d events, child %d (no copy of the parent's)" % (k, k, k))


def providers():
    recs = load()
    provs, threads_ = {}, defaultdict(set)
    for r in recs:
        if r["kind"] == "provider_info":
            provs[r["id"]] = r["name"].split(" (")[0]
        if r["kind"] == "kernel_object" and r["obj_type"] == 2:
            threads_[r["provider"]].add(r["name"])
    for pid in sorted(provs):
        print("%s: %s" % (provs[pid], " ".join(sorted(threads_[pid]))))


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "threads":
        threads(args[0], int(args[1]), int(args[2]))
    elif cmd == "ring":
        ring(int(args[0]), int(args[1]))
    elif cmd == "fork":
        fork(int(args[0]))
    else:
        providers()
