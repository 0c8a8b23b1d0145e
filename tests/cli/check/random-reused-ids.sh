# SPDX-License-Identifier: MIT
# needs: python3
# Async and flow ids reused from a small set (5 per kind) by chains that cross threads and
# providers, on 1-3 providers and up to 4 threads, each thread's events in time order, the file
# written chunk by chunk in random order (or thread by thread, as libfxt's engine writes), some
# begins dropped, some chains left open, some ids begun again while open. fxt check's reports
# must be exactly those of an independent pairing by the chain-id rule (docs/check.md#chain-ids)
# done in time order over the whole trace: no false *-no-begin / *-id-reused / *-never-ended, none
# missed (but for steps and instants, see below).
# 200 seeded traces (30 under sanitizers, where each run costs ten times as much: the
# sanitizer needs the paths, the plain phase checks the pairing on all 200);
# FXT_CHECK_RANDOM_SEEDS=N runs N. Every 10th is also compared at -j 3 with small ranges, also
# with a pool of 8 events (FXT_CHECK_POOL).
seeds=200
! sanitized || seeds=30
"$PYTHON" - "$T" "${FXT_CHECK_RANDOM_SEEDS:-$seeds}" <<'PY'
import os, sys, random, json, subprocess; sys.path.insert(0, os.environ["SRC"] + "/tests/tools"); from fxtgen import *
T, nseeds = sys.argv[1], int(sys.argv[2])
fxt = os.environ["FXT"]
RULES = {(1, "no"): "async-no-begin", (2, "no"): "flow-no-begin", (1, "reused"): "async-id-reused",
         (2, "reused"): "flow-id-reused", (1, "open"): "async-never-ended", (2, "open"): "flow-never-ended"}

def gen(rnd):
    """A trace: its bytes and its chain events (kind, id, ns, phase, provider, offset)."""
    nprov = rnd.randint(1, 3)
    threads = []  # (provider, thread index in its provider)
    for p in range(nprov):
        for k in range(rnd.randint(1, 4 - nprov + 1 if nprov < 3 else 2)):
            threads.append((p, k + 1))
    threads = threads[:4]
    per = {th: [] for th in threads}  # thread -> [(ns, etype, id)]
    clock = 0
    # half the traces have no dropped begin and no chain left open
    pdrop, popen = rnd.choice(((0, 0), (0.1, 0.15)))
    for _ in range(rnd.randint(20, 120)):
        kind = rnd.choice((1, 2))
        ident = rnd.randint(1, 5)
        clock += rnd.randint(1, 30)
        t = clock
        th = rnd.choice(threads)
        # the chain's threads: mostly within its provider, sometimes another one (parent to child)
        def pick():
            if rnd.random() < 0.2:
                return rnd.choice(threads)
            own = [x for x in threads if x[0] == th[0]]
            return rnd.choice(own)
        base = ASYNC_BEGIN if kind == 1 else FLOW_BEGIN
        evs = []
        if rnd.random() >= pdrop:  # a begin dropped: its chain's events have no begin
            evs.append((th, base))
        for _ in range(rnd.choice((0, 0, 1, 2))):
            evs.append((pick(), base + 1))
        if rnd.random() >= popen:  # an end missing: the chain is left open
            evs.append((pick(), base + 2))
        for x, etype in evs:
            t += rnd.randint(1, 200)
            per[x].append((t, etype, ident))
    # unique times: no ties to order
    seen = set()
    for x in threads:
        fixed = []
        for (t, e, i) in sorted(per[x]):
            while t in seen:
                t += 1
            seen.add(t)
            fixed.append((t, e, i))
        per[x] = sorted(fixed)
    out = magic()
    for p in range(nprov):
        out += provider_info(p + 1, "p%d" % p) + init(1000000000) + string(1, "cat") + string(2, "name")
        for (q, k) in threads:
            if q == p:
                out += thread(k, 100 + p, 10 * p + k)
    # chunks of 1..8 events per thread, written in random order (or thread by thread)
    chunks = {x: [] for x in threads}
    for x in threads:
        evs = per[x]
        i = 0
        while i < len(evs):
            n = rnd.randint(1, 8)
            chunks[x].append(evs[i:i + n])
            i += n
    order = []
    if rnd.random() < 0.3:
        xs = list(threads)
        rnd.shuffle(xs)
        for x in xs:
            order += [(x, ch) for ch in chunks[x]]
    else:
        left = {x: list(chunks[x]) for x in threads}
        while any(left.values()):
            x = rnd.choice([y for y in threads if left[y]])
            order.append((x, left[x].pop(0)))
    chain = []
    cur = nprov  # provider_info of the last one is in force
    for (x, ch) in order:
        if x[0] + 1 != cur:
            out += provider_section(x[0] + 1)
            cur = x[0] + 1
        for (t, e, i) in ch:
            kind = 1 if e < FLOW_BEGIN else 2
            phase = e - (ASYNC_BEGIN if kind == 1 else FLOW_BEGIN)
            chain.append((kind, i, t, phase, x[0], len(out)))
            out += event(e, t, x[1], 1, 2, ident=i)
    return out, chain

def expected(chain):
    """The chain-id rule in time order: (offset, rule) reports."""
    want = []
    by = {}
    for e in chain:
        by.setdefault((e[0], e[1]), []).append(e)
    for (kind, ident), evs in by.items():
        evs.sort(key=lambda e: (e[2], e[3], e[5]))
        open_ = {}  # provider -> begin offset
        for (_, _, t, phase, p, off) in evs:
            if phase == 0:
                if p in open_:
                    want.append((off, RULES[kind, "reused"]))
                else:
                    open_[p] = off
                continue
            if p in open_:
                q = p
            else:
                others = [q for q in open_ if q != p]
                q = others[0] if len(others) == 1 else None
            if q is None:
                want.append((off, RULES[kind, "no"]))
            elif phase == 2:
                del open_[q]
        for off in open_.values():
            want.append((off, RULES[kind, "open"]))
    return sorted(want)

bad = 0
jobs_checked = 0
nfalse = nsteps = nwant = 0
for seed in range(nseeds):
    rnd = random.Random(seed)
    data, chain = gen(rnd)
    path = "%s/r%d.fxt" % (T, seed)
    write(path, data)
    r = subprocess.run([fxt, "check", "--json", "--max-per-rule", "0", "-j", "1", path], capture_output=True, text=True)
    got = sorted((o["offset"], o["rule"]) for o in map(json.loads, r.stdout.splitlines()) if "rule" in o)
    want = expected(chain)
    nwant += len(want)
    # a step or instant judged against the chains known when it was read can go unreported when a
    # begin or end earlier in time is read after it (docs/check.md#chain-ids): counted, allowed
    phase = {e[5]: e[3] for e in chain}
    false = set(got) - set(want)
    missed = [m for m in set(want) - set(got) if phase[m[0]] != 1 or "never" in m[1]]
    nsteps += sum(1 for m in set(want) - set(got) if phase[m[0]] == 1 and "never" not in m[1])
    nfalse += len(false)
    ok = not false and not missed
    if not ok:
        bad += 1
        if bad <= 5:
            print("FAIL seed %d: false %s, missed %s" % (seed, sorted(false)[:6], sorted(missed)[:6]))
    if seed % 10 == 0:
        r3 = subprocess.run([fxt, "check", "--json", "--max-per-rule", "0", "-j", "3", path], capture_output=True,
                            text=True, env=dict(os.environ, FXT_RANGE_BYTES="256"))
        jobs_checked += 1
        if r3.stdout != r.stdout or r3.returncode != r.returncode:
            bad += 1
            ok = False
            print("FAIL seed %d: -j 3 differs from -j 1" % seed)
        # a pool of 8 events: the oldest are judged early (the settle path), the same at every -j
        small = dict(os.environ, FXT_CHECK_POOL="8")
        p1 = subprocess.run([fxt, "check", "--json", "-j", "1", path], capture_output=True, text=True, env=small)
        p3 = subprocess.run([fxt, "check", "--json", "-j", "3", path], capture_output=True, text=True,
                            env=dict(small, FXT_RANGE_BYTES="256"))
        if p1.stdout != p3.stdout or '"note"' not in p1.stdout or p1.returncode != p3.returncode:
            bad += 1
            ok = False
            print("FAIL seed %d: with FXT_CHECK_POOL=8, no note or -j 3 differs from -j 1" % seed)
    if ok:
        os.unlink(path)
print("false reports %d; step/instant errors not reported %d (of %d expected reports)" % (nfalse, nsteps, nwant))
print("%d of %d traces differ from the independent pairing (%d -j comparisons)" % (bad, nseeds, jobs_checked))
sys.exit(1 if bad else 0)
PY
